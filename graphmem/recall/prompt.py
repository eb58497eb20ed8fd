"""The prompt block an LLM agent reads before it speaks or votes (docs/prompt.md), rendered from a recall's result.

Layout (sections separated by one blank line; an empty section is left out)::

    === ACTIVE THOUGHTS ===
    <one line per active working-memory item, the focus first, then by priority, newest first>
    === END ACTIVE THOUGHTS ===

    === VIVID MEMORY ===
    [FLASHBULB] [Day 3, Roundtable] Thomas voted to banish you: "..."
    Where: at the round table.
    Who was there: Eleanor, Marcus and Sarah.
    Exact words: "..."                      (only when the quote is kept and not already in the line above)
    Your emotional state at the time: Fear (0.85), Anger (0.60)
    === END VIVID MEMORY ===

    === YOUR MEMORIES ===
    (Respond based on what you remember. Clarity markers indicate memory quality.)

    1. [FLASHBULB] [Day 3] Thomas voted to banish you: "..."
    2. [CLEAR] [Day 3] [You witnessed] Thomas was whispering with Sarah before breakfast.
    3. [CLEAR] [Day 3] You said at the round table: "Marcus is hiding something."
    4. [FUZZY] [Day 2] [Someone told you] Marcus has medical training. (You cannot remember who.)
    (Eleanor told you Marcus is faithful, but Sarah told you Marcus is a traitor.)
    5. [VAGUE] [Source unclear] There was something about "Marcus has been far too quiet"... you think it involved Marcus.

    === END MEMORIES ===

    Note: Some memories are fuzzy. Express appropriate uncertainty for [FUZZY] and [VAGUE] memories.

Decisions the design (docs/prompt.md) leaves open, fixed here:

- **The empty block** is the empty string ``""``: a player with no active thought and no recallable memory gets
  no section at all (every section is empty, and empty sections are omitted). Otherwise the block ends with a
  newline.
- **Day labels**: ``[Day N]`` from the day the owner believes (a fabricated day shows the fabricated day); none
  when the ``when`` detail is lost. The vivid header adds the phase name: ``[Day 3, Roundtable]``. A memory of an
  earlier game of the series: ``[Game G, Day N]`` (``[Game G]`` without the day).
- **Source labels** come from the owner's belief (``source_belief`` at the recall phase and ``believed_teller``),
  never from the provenance. A lost ``who`` turns the teller into "someone" (``[Someone told you]``). A flashbulb
  line carries no label when the owner believes they witnessed it (as in docs/prompt.md's example: the vivid first-hand
  moment speaks for itself); any other belief is shown, so a told flashbulb keeps ``[NAME told you]``.
- **The owner's own statements and actions** (``own``: what they said, how they voted, whom they recruited) carry
  no source label: the line itself says it, "You said ...", "You voted ..." (docs/model.md#source-memory), never
  "[Source unclear]" nor "[You witnessed] You said". At [VAGUE] a statement keeps that it was theirs: ``You said
  something about "<first six words>"...``, and an action keeps the first six words of its gist: ``You voted to banish
  Riley...``. A reflection (``reflect``, the owner's conclusion after a game) reads ``You concluded about Charlie
  after the game: "..."``, and at [VAGUE] ``You concluded something about "<first six words>"...``. A belief the
  owner stated during the game (``belief``) is the one own memory with a label: ``[You worked it out] You concluded
  that player-5 is Merlin.``, and at [VAGUE] its first six words, ``You concluded that player-5 is Merlin...``.
- **[FUZZY] with a lost who** ends with ``(You cannot remember who.)``.
- **[VAGUE] lines** keep only a fragment: ``There was something about "<first six words of the gist>"... you think
  it involved A, B and C.`` (the kept who/whom names and the players the memory is about, the owner excluded, at
  most three, then "and others"); without names the sentence ends at the ellipsis.
- **Long quotes** (LLM messages run to thousands of characters) are cut for display to at most 300 characters at
  a word boundary, ending in "..." inside the quotation marks; thoughts and texts without a template likewise.
  The JSON keeps the full text as well (``text``) beside the displayed one (``line``).
- **Conflicts**: each open conflict a recalled memory holds is shown once, in parentheses after the first memory
  in the block that holds it, in the words the contradiction job stored for it (a player's words, from the
  owner's side: "(Riley defended Casey on day 1 and accused Casey on day 3.)", "(Fletcher claimed to have voted
  for Ellis on day 2, but you saw Fletcher vote for Sudz.)"); a conflict stored without words gives
  ``(You have conflicting memories about NAME.)``, one line per player it conflicts about.
- The closing note appears only when some recalled memory is [FUZZY] or [VAGUE].

:func:`check_block` checks a block against this layout (the tests run it on every real game).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from graphmem.model.details import Detail, render
from graphmem.model.flashbulb import EmotionalContext
from graphmem.model.vocabulary import DetailKind, Marker, SourceType
from graphmem.recall.types import ActiveThought, RecalledMemory

__all__ = ["BAND_ORDER", "check_block", "conflict_lines",
           "DISPLAY_LIMIT", "HEADER_NOTE", "UNCERTAINTY_NOTE", "day_label", "display_order",
           "full_text", "memory_lines", "memory_text", "render_block", "shorten", "source_label", "thought_lines",
           "vague_text", "vivid_lines"]

DISPLAY_LIMIT = 300
"""The longest quote, thought or template-less text shown, in characters (cut at a word, "..." appended)."""
VAGUE_WORDS = 6
"""Words of the gist a [VAGUE] line keeps."""
VAGUE_NAMES = 3
"""Names a [VAGUE] line lists before "and others"."""
HEADER_NOTE = "(Respond based on what you remember. Clarity markers indicate memory quality.)"
UNCERTAINTY_NOTE = "Note: Some memories are fuzzy. Express appropriate uncertainty for [FUZZY] and [VAGUE] memories."
CANNOT_REMEMBER_WHO = "(You cannot remember who.)"
BAND_ORDER = (Marker.FLASHBULB, Marker.CLEAR, Marker.FUZZY, Marker.VAGUE)


def _flat(text: str) -> str:
    return " ".join(text.split())


def shorten(text: str, limit: int = DISPLAY_LIMIT) -> str:
    """``text`` with whitespace collapsed, cut to at most ``limit`` characters at a word boundary plus "..."
    when longer (a single word longer than the limit is cut inside the word)."""
    flat = _flat(text)
    if len(flat) <= limit:
        return flat
    cut = flat[: max(1, limit - 3)]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.-") + "..."


def _capitalised(text: str, names: Iterable[str] = ()) -> str:
    """``text`` with its first letter capitalised, unless it starts with one of ``names`` (players' names are
    written as the game writes them: "player-5 proposed ...", never "Player-5")."""
    if not text[:1].islower() or any(name and text.startswith(name) and not text[len(name):len(name) + 1].isalnum()
                                     for name in names):
        return text
    return text[:1].upper() + text[1:]


def _line_names(memory: RecalledMemory) -> list[str]:
    """The players a memory's line may start with: its who and whom details (as they now read), the players it is
    about and its teller."""
    named = [d.value for d in memory.details if d.kind in (DetailKind.WHO, DetailKind.WHOM)]
    return [*named, *memory.about, *([memory.teller] if memory.teller else [])]


def _display_details(details: Iterable[Detail]) -> list[Detail]:
    out = []
    for d in details:
        if d.kind is DetailKind.QUOTE and len(d.value) > DISPLAY_LIMIT:
            d = Detail(d.kind, shorten(d.value.strip('"'), DISPLAY_LIMIT), d.lost, d.fabricated, d.original,
                       d.origin)
        out.append(d)
    return out


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def full_text(memory: RecalledMemory) -> str:
    """The memory's text as displayed: rendered from its details with long quotes shortened, whitespace
    collapsed, the first letter capitalised ("someone voted..." -> "Someone voted...") unless it is a player's name
    ("player-5 proposed ...")."""
    if memory.template is not None:
        return _capitalised(_flat(render(memory.template, _display_details(memory.details))), _line_names(memory))
    return _capitalised(shorten(memory.text), _line_names(memory))


def day_label(day: int | None, series_game: int | None = None) -> str:
    """``[Day N]``, or "" when the day is not remembered; for a memory of an earlier game of the series
    (docs/model.md#series-of-games) ``[Game G, Day N]``, or ``[Game G]``."""
    when = ([f"Game {series_game}"] if series_game is not None else []) + ([f"Day {day}"] if day is not None else [])
    return f"[{', '.join(when)}]" if when else ""


def source_label(memory: RecalledMemory) -> str:
    """The label of the owner's belief about where the memory came from (docs/prompt.md).

    first_hand [You witnessed]; direct_told [NAME told you]; overheard [You overheard NAME]; group_discuss
    [Said at the round table by NAME]; inferred [You worked it out]; unknown [Source unclear]. NAME is the teller
    the owner believes in, "someone" when the ``who`` detail is lost or no teller is known. "" for the owner's own
    statements and actions, whose line says it ("You said ...", docs/model.md#source-memory), but for a belief they
    stated (``belief``), which keeps [You worked it out]: its words read like a fact about another player.
    """
    if memory.own:
        return "[You worked it out]" if memory.kind == "belief" else ""
    name = "someone" if memory.who_lost or not memory.teller else memory.teller
    belief = memory.source_belief
    if belief == SourceType.FIRST_HAND:
        return "[You witnessed]"
    if belief == SourceType.DIRECT_TOLD:
        return f"[{_capitalised(name, [memory.teller] if memory.teller else [])} told you]"
    if belief == SourceType.OVERHEARD:
        return f"[You overheard {name}]"
    if belief == SourceType.GROUP_DISCUSS:
        return f"[Said at the round table by {name}]"
    if belief == SourceType.INFERRED:
        return "[You worked it out]"
    return "[Source unclear]"


def _names(memory: RecalledMemory, owner: str | None) -> list[str]:
    names = [d.value for d in memory.details if d.kind in (DetailKind.WHO, DetailKind.WHOM) and not d.lost]
    names += list(memory.about)
    return [n for n in dict.fromkeys(names) if n and n != owner]


def vague_text(memory: RecalledMemory, owner: str | None = None) -> str:
    """The [VAGUE] rendering: ``There was something about "<fragment>"... you think it involved A and B.``"""
    what = memory.detail(DetailKind.WHAT)
    gist = what.value if what is not None and not what.lost else full_text(memory)
    words = gist.replace('"', "").split()
    fragment = " ".join(words[:VAGUE_WORDS]).rstrip(" ,;:.!?-") or "something"
    if memory.own and memory.kind == "say":
        text = f'You said something about "{fragment}"...'
    elif memory.own and memory.kind == "reflect":
        text = f'You concluded something about "{fragment}"...'
    elif memory.own and fragment.startswith("You "):
        text = f"{fragment}..."
    else:
        text = f'There was something about "{fragment}"...'
    names = _names(memory, owner)
    if names:
        shown = names[:VAGUE_NAMES] + (["others"] if len(names) > VAGUE_NAMES else [])
        text += f" you think it involved {_join(shown)}."
    return text


def memory_text(memory: RecalledMemory, owner: str | None = None) -> str:
    """What follows the labels on a memory's line: the vague rendering at [VAGUE], else the text, with the
    "cannot remember who" clause at [FUZZY] when the ``who`` detail is lost."""
    if memory.marker is Marker.VAGUE:
        return vague_text(memory, owner)
    text = full_text(memory)
    if memory.marker is Marker.FUZZY and memory.who_lost:
        text += " " + CANNOT_REMEMBER_WHO
    return text


def _labels(memory: RecalledMemory) -> list[str]:
    labels = [f"[{memory.marker}]"]
    if memory.day is not None or memory.series_game is not None:
        labels.append(day_label(memory.day, memory.series_game))
    if not (memory.marker is Marker.FLASHBULB and memory.source_belief == SourceType.FIRST_HAND) \
            and source_label(memory):
        labels.append(source_label(memory))
    return labels


def conflict_lines(memory: RecalledMemory) -> list[tuple[str, str]]:
    """(conflict key, line) of each open conflict the memory holds: its stored words in parentheses, or
    "(You have conflicting memories about NAME.)" per player for a memory that only names them."""
    if memory.conflict_lines:
        return [(key, f"({text})") for key, text in memory.conflict_lines]
    return [(f"{memory.uid}/{name}", f"(You have conflicting memories about {name}.)") for name in memory.conflicts]


def memory_lines(memory: RecalledMemory, number: int, owner: str | None = None,
                 shown: set[str] | None = None) -> list[str]:
    """``N. [MARKER] [Day D] [SOURCE] text`` and the line of each conflict the memory holds that is not in
    ``shown`` (conflict keys already printed under an earlier memory; updated)."""
    lines = [f"{number}. " + " ".join([*_labels(memory), memory_text(memory, owner)])]
    for key, line in conflict_lines(memory):
        if shown is None or key not in shown:
            lines.append(line)
            if shown is not None:
                shown.add(key)
    return lines


def display_order(memories: Iterable[RecalledMemory]) -> list[RecalledMemory]:
    """Flashbulbs, then [CLEAR], [FUZZY], [VAGUE]; within a band by score (highest first), then uid."""
    return sorted(memories, key=lambda m: (BAND_ORDER.index(m.marker), -m.score, m.uid))


def vivid_lines(memory: RecalledMemory) -> list[str]:
    """The VIVID MEMORY section's body: the header line, the sensory details and the emotional state."""
    when = [f"Game {memory.series_game}"] if memory.series_game is not None else []
    when += [f"Day {memory.day}"] if memory.day is not None else []
    if memory.phase_name:
        when.append(memory.phase_name.replace("_", " ").capitalize())
    header = " ".join([f"[{Marker.FLASHBULB}]", *([f"[{', '.join(when)}]"] if when else []),
                       full_text(memory)])
    lines = [header]
    where = memory.detail(DetailKind.WHERE)
    if where is not None and not where.lost:
        lines.append(f"Where: {where.value.rstrip('.')}.")
    if memory.witnesses:
        lines.append(f"Who was there: {_join(list(memory.witnesses))}.")
    quote = memory.detail(DetailKind.QUOTE)
    if quote is not None and not quote.lost:
        words = shorten(quote.value.strip('"'))
        if words not in header:
            lines.append(f'Exact words: "{words}"')
    emotions = EmotionalContext.from_json(memory.emotion_json).describe()
    if emotions:
        lines.append(f"Your emotional state at the time: {emotions}")
    return lines


def thought_lines(thoughts: Sequence[ActiveThought]) -> list[str]:
    """One line per active thought, as given (the recall orders them: focus first)."""
    return [shorten(t.content) for t in thoughts if t.content.strip()]


class Recollection(Protocol):
    """What :func:`render_block` renders: a recall's owner, thoughts, memories and vivid flashbulb
    (:class:`graphmem.recall.result.RecallResult` is one)."""

    @property
    def player(self) -> str: ...
    @property
    def thoughts(self) -> Sequence[ActiveThought]: ...
    @property
    def memories(self) -> Sequence[RecalledMemory]: ...
    @property
    def vivid(self) -> RecalledMemory | None: ...


def render_block(result: Recollection) -> str:
    """The whole prompt block of docs/prompt.md for ``result`` ("" when there is nothing to show; see the module
    docstring for the exact layout)."""
    sections: list[list[str]] = []
    thoughts = thought_lines(result.thoughts)
    if thoughts:
        sections.append(["=== ACTIVE THOUGHTS ===", *thoughts, "=== END ACTIVE THOUGHTS ==="])
    if result.vivid is not None:
        sections.append(["=== VIVID MEMORY ===", *vivid_lines(result.vivid), "=== END VIVID MEMORY ==="])
    if result.memories:
        body: list[str] = []
        shown: set[str] = set()
        for number, memory in enumerate(result.memories, start=1):
            body += memory_lines(memory, number, result.player, shown)
        sections.append(["=== YOUR MEMORIES ===", HEADER_NOTE, "", *body, "", "=== END MEMORIES ==="])
        if any(m.marker in (Marker.FUZZY, Marker.VAGUE) for m in result.memories):
            sections.append([UNCERTAINTY_NOTE])
    if not sections:
        return ""
    return "\n\n".join("\n".join(section) for section in sections) + "\n"


_MEMORY_LINE = re.compile(
    r"^(?P<n>\d+)\. \[(?P<marker>FLASHBULB|CLEAR|FUZZY|VAGUE)\](?P<day> \[(?:Game \d+, )?Day \d+\]| \[Game \d+\])?"
    r"(?P<source> \[(?:You witnessed|[A-Z][^\[\]]* told you|You overheard [^\[\]]+|"
    r"Said at the round table by [^\[\]]+|You worked it out|Source unclear)\])? (?P<text>\S.*)$")
_CONFLICT_LINE = re.compile(r"^\([A-Z][^()]*\.\)$")
_VIVID_HEADER = re.compile(r"^\[FLASHBULB\](?: \[(?:(?:Game \d+, )?Day \d+(?:, [A-Z][^\[\]]*)?|[A-Z][^\[\]]*)\])? \S.*$")
_VIVID_DETAIL = re.compile(r'^(?:Where: .+\.|Who was there: .+\.|Exact words: ".*"|'
                           r"Your emotional state at the time: [A-Z][\w ]* \(\d\.\d\d\)(?:, [A-Z][\w ]* \(\d\.\d\d\))*)$")
_SECTIONS = {"=== ACTIVE THOUGHTS ===": "=== END ACTIVE THOUGHTS ===", "=== VIVID MEMORY ===": "=== END VIVID MEMORY ===",
             "=== YOUR MEMORIES ===": "=== END MEMORIES ==="}


def _check_memories(body: list[str], problems: list[str]) -> set[str]:
    markers: set[str] = set()
    if body[:2] != [HEADER_NOTE, ""] or body[-1:] != [""]:
        problems.append("the memories section must open with the header note and a blank line and end with a "
                        "blank line")
        return markers
    expected, last_band = 1, 0
    for line in body[2:-1]:
        match = _MEMORY_LINE.match(line)
        if match is None:
            if not (_CONFLICT_LINE.match(line) and expected > 1):
                problems.append(f"not a memory line: {line!r}")
            continue
        marker = match["marker"]
        markers.add(marker)
        if int(match["n"]) != expected:
            problems.append(f"memory numbered {match['n']}, expected {expected}")
        expected += 1
        band = BAND_ORDER.index(Marker(marker))
        if band < last_band:
            problems.append(f"[{marker}] after a later band: {line!r}")
        last_band = band
        if marker != "FLASHBULB" and match["source"] is None and not match["text"].startswith("You "):
            problems.append(f"no source label: {line!r}")
    if expected == 1:
        problems.append("the memories section holds no memory")
    return markers


def check_block(block: str) -> list[str]:
    """The problems of a prompt block against the layout of this module (empty when it follows it exactly).

    Checks: sections in the order thoughts, vivid memory, memories, note, each at most once, never empty, closed
    by its END line and separated by exactly one blank line; memory lines ``N. [MARKER] [Day N] [SOURCE] text``
    numbered from 1, bands in order, a source label on every line but a first-hand flashbulb's and the owner's own
    statements and actions (a text beginning "You "); conflict lines
    only after a memory; the note exactly when a [FUZZY] or [VAGUE] memory is shown; one final newline.
    The empty block "" is valid.
    """
    if block == "":
        return []
    problems: list[str] = []
    if not block.endswith("\n") or block.endswith("\n\n"):
        problems.append("the block must end with exactly one newline")
    lines = block.rstrip("\n").split("\n")
    order = [*_SECTIONS, UNCERTAINTY_NOTE]
    seen: list[str] = []
    markers: set[str] = set()
    i = 0
    while i < len(lines):
        head = lines[i]
        if head in _SECTIONS:
            if _SECTIONS[head] not in lines[i + 1:]:
                problems.append(f"{head} is never closed")
                break
            j = lines.index(_SECTIONS[head], i + 1)
            body = lines[i + 1:j]
            if head == "=== ACTIVE THOUGHTS ===" and (not body or any(not x.strip() for x in body)):
                problems.append("the thoughts section must hold one non-empty line per thought")
            elif head == "=== VIVID MEMORY ===" and (not body or not _VIVID_HEADER.match(body[0])
                                                    or not all(_VIVID_DETAIL.match(x) for x in body[1:])):
                problems.append(f"malformed vivid memory: {body!r}")
            elif head == "=== YOUR MEMORIES ===":
                markers = _check_memories(body, problems)
            i = j + 1
        elif head == UNCERTAINTY_NOTE:
            i += 1
        else:
            problems.append(f"not the start of a section: {head!r}")
            i += 1
            continue
        seen.append(head)
        if i < len(lines):
            if lines[i] != "" or (i + 1 < len(lines) and lines[i + 1] == ""):
                problems.append(f"sections must be separated by exactly one blank line (after {head!r})")
            i += 1
    positions = [order.index(h) for h in seen]
    if positions != sorted(set(positions)):
        problems.append(f"sections out of order or repeated: {seen}")
    if (UNCERTAINTY_NOTE in seen) != bool(markers & {"FUZZY", "VAGUE"}):
        problems.append("the closing note must appear exactly when a [FUZZY] or [VAGUE] memory is shown")
    return problems
