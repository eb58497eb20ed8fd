"""Reading the keywords of a real log the way a person would (docs/perception.md#imported-logs: importers are tolerant,
canonical logs strict).

Real logs are written by programs and by the language models those programs drive, and the models misspell their
own keywords now and then: a final-round vote of The Traitors that reads ``CONTINUE_PLAYINGNG``, a team vote
``"Approve"``, a quest card ``"fail."``. A person reads each of those as the keyword it obviously is. So does
:func:`read_keyword`, by these rules, tried in order, over the keywords a position of the log can hold (its
*vocabulary*, e.g. ``("END_GAME", "CONTINUE_PLAYING")``):

1. exact: the text is a keyword (no guess);
2. case and spacing: equal once case, spaces, underscores and hyphens are ignored (``continue playing``,
   ``End-Game``, ``CONTINUEPLAYING``);
3. letters added at the end: one or two letters after a keyword (``approved`` for ``approve``, ``failed`` for
   ``fail``), or its last letters repeated (``CONTINUE_PLAYINGNG``); or letters missing at the end: a beginning of
   a keyword holding at least 60% of it and three letters (``CONTINUE_PLAY``, ``succes``);
4. a near spelling: at most one edit (a letter inserted, dropped, changed, or two swapped) for a keyword of 4 to 7
   letters, two for a longer one, none for a shorter one (``rejcet``, ``Dianna`` for ``Diana``).

Numbers are never guessed: rules 3 and 4 only read a text as a keyword with the same numbers in the same order
(``player-42`` is not ``player-4``, nor ``player-3`` ``player-8``: a number names one thing exactly). The first rule
that some keyword meets decides. A text read by rule 2 or later is a *guess*: it is taken as the
keyword and reported (:class:`graphmem.errors.Guess`: where, what was read, what it was taken for). A text that
no rule reads, or that two keywords could equally be ("Arie" among the players "Ari" and "Ariel"), is not guessed:
the importer reports it as a problem, with the position and the reason (:attr:`Reading.reason`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz.distance import OSA

_SEPARATORS = re.compile(r"[\s_\-]+")
_NUMBER = re.compile(r"\d+")

MIN_PREFIX_SHARE = 0.6
"""Rule 3: a beginning of a keyword must hold at least this share of its (folded) letters ..."""
MIN_PREFIX_LETTERS = 3
"""... and at least this many letters."""
MAX_ADDED_LETTERS = 2
"""Rule 3: at most this many letters added at the end (longer additions must repeat the keyword's last letters)."""


def fold(text: str) -> str:
    """``text`` without case, spaces, underscores and hyphens (NFKC first): the form rule 2 compares."""
    return _SEPARATORS.sub("", unicodedata.normalize("NFKC", text)).casefold()


def edit_distance(a: str, b: str) -> int:
    """The optimal string alignment distance of ``a`` and ``b``: insertions, deletions, substitutions and swaps of
    two adjacent letters, each one edit (Damerau 1964; the restricted form, no substring edited twice), as
    rapidfuzz computes it."""
    return int(OSA.distance(a, b))


def allowed_edits(length: int) -> int:
    """Rule 4: how many edits a keyword of ``length`` folded letters tolerates: 0 up to 3, 1 up to 7, else 2."""
    return 0 if length <= 3 else 1 if length <= 7 else 2


def _added_at_end(text: str, keyword: str) -> bool:
    extra = text[len(keyword):]
    if not keyword or not text.startswith(keyword) or not extra:
        return False
    if len(extra) <= MAX_ADDED_LETTERS:
        return True
    # the last letters repeated: "playingngng" is "playing" + "ng" + "ng"
    return any(len(extra) % n == 0 and extra == keyword[-n:] * (len(extra) // n)
               for n in range(1, len(keyword) + 1))


def _missing_at_end(text: str, keyword: str) -> bool:
    return (keyword.startswith(text) and len(text) < len(keyword)
            and len(text) >= max(MIN_PREFIX_LETTERS, math.ceil(MIN_PREFIX_SHARE * len(keyword))))


@dataclass(frozen=True)
class Reading:
    """How a text was read against a vocabulary.

    keyword : str or None, the keyword it was read as (None: not read)
    exact : bool, the text is the keyword as written (no guess)
    reason : str, why it was not read ("" when it was)
    """

    keyword: str | None
    exact: bool = False
    reason: str = ""

    @property
    def guessed(self) -> bool:
        """Read, but not as written: a guess to report."""
        return self.keyword is not None and not self.exact


def _listing(words: Iterable[str]) -> str:
    return ", ".join(repr(w) for w in words)


def read_keyword(text: str, vocabulary: Iterable[str]) -> Reading:
    """Read ``text`` as one keyword of ``vocabulary`` by the rules of the module docstring.

    text : str, as written in the log; vocabulary : the keywords this position can hold (e.g. the ballot choices,
    or the game's player names). Returns a :class:`Reading`: exact, guessed, or not read with the reason
    ("'maybe' is none of 'approve', 'reject'", "'Arie' could be 'Ari' or 'Ariel'"). Never raises.
    """
    known = list(dict.fromkeys(vocabulary))
    if text in known:
        return Reading(text, exact=True)
    folded = fold(text)
    if not folded:
        return Reading(None, reason=f"{text!r} is empty where one of {_listing(known)} is expected")
    forms = {k: fold(k) for k in known}
    numbers = _NUMBER.findall(folded)
    guessable = {k: f for k, f in forms.items() if _NUMBER.findall(f) == numbers}
    rules = (
        lambda f: folded == f,
        # letters added or missing at the end are one level: "Arie" is "Ari" + "e" as much as "Ariel" cut short
        lambda f: _added_at_end(folded, f) or _missing_at_end(folded, f),
    )
    for rule in rules:
        matches = [k for k, f in guessable.items() if rule(f)]
        if len(matches) == 1:
            return Reading(matches[0])
        if matches:
            return Reading(None, reason=f"{text!r} could be {' or '.join(repr(m) for m in matches)}")
    distances = {k: edit_distance(folded, f) for k, f in guessable.items()}
    near = [k for k, d in distances.items() if d <= allowed_edits(len(forms[k]))]
    if near:
        best = min(distances[k] for k in near)
        closest = [k for k in near if distances[k] == best]
        if len(closest) == 1:
            return Reading(closest[0])
        return Reading(None, reason=f"{text!r} could be {' or '.join(repr(m) for m in closest)}")
    return Reading(None, reason=f"{text!r} is none of {_listing(known)}")
