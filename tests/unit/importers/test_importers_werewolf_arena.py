"""The werewolf-arena importer on games saved by the google/werewolf_arena engine (issue 43): every game converts,
the night's secrets stay with their holders, and every player remembers exactly what the engine showed them
(tests/werewolf_view.py), checked here on the perception of each game without a database (tests/e2e has the same
check on the memories stored in Neo4j)."""

from __future__ import annotations

import collections
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog, UsageProblem
from graphmem.importers import detect_format, discover, get_importer, import_game_log, validate_conversion
from graphmem.ingest.encode import encode_game
from graphmem.logs import GameLog
from graphmem.logs.schema import MurderEvent, ObserveEvent, RevealEvent, SayEvent, VoteEvent
from graphmem.model import default_parameters
from tests.conftest import ConvertedGame
from tests.unit.logs.logs_helpers import EXAMPLES
from tests.werewolf_view import mismatches, shown

WEREWOLF = get_importer("werewolf-arena")
GAMES = EXAMPLES / "werewolf-arena" / "games"
PARAMS = default_parameters()
KINDS = {"phase": 199, "reveal": 305, "vote": 3436, "murder": 57, "say": 472, "banish": 54, "reflect": 304,
         "observe": 18, "end": 24}
"""The events of the 24 games: 59 debates of 8 turns; the votes are mostly the polls after each turn."""


def convert(path: Path, **kwargs: Any) -> GameLog:
    return import_game_log(WEREWOLF, path, **kwargs)


def held(log: GameLog) -> dict[str, set[str]]:
    """{player: the ids of the events their memories are of}, as ingest encodes the game."""
    found: dict[str, set[str]] = collections.defaultdict(set)
    for m in encode_game(log, PARAMS).memories:
        found[m.owner].add(m.event)
    return dict(found)


def step(event_id: str) -> str:
    """The step an event id names: "debate" of "r1-debate3", "vote" of "r1-vote-Mason", "role" of "role-Mason"."""
    m = re.match(r"r\d+-([a-z]+)", event_id)
    return m[1] if m else event_id.split("-")[0]


def copy(tmp_path: Path, game: str = "6p_seed03") -> Path:
    target = tmp_path / game
    shutil.copytree(GAMES / game, target)
    return target


def edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_every_saved_game_converts_with_no_problem(werewolf_corpus: tuple[ConvertedGame, ...]) -> None:
    games = werewolf_corpus
    assert len(games) in (24, 2)  # the shared corpus, or the two games of examples/ in a bare checkout
    kinds: collections.Counter[str] = collections.Counter()
    sizes = collections.Counter(len(g.log.header.players) for g in games)
    for game in games:
        assert game.format == "werewolf-arena" and game.log.rejected == () and game.log.guesses == ()
        assert game.log.game == f"werewolf-arena-{game.path.name}"
        kinds.update(e.kind for e in game.log.events)
    if len(games) == 24:
        assert sizes == {6: 4, 7: 4, 8: 4, 9: 4, 10: 4, 12: 4}
        assert dict(kinds) == KINDS


def test_every_player_remembers_exactly_what_the_engine_showed_them(
        werewolf_corpus: tuple[ConvertedGame, ...]) -> None:
    checked = collections.Counter[str]()
    for game in werewolf_corpus:
        view = shown(game.path)  # from the engine's files alone
        assert mismatches(held(game.log), view) == {}, game.path.name
        for ids in view.values():
            checked.update(step(i) for i in ids)
    # not vacuous: the night's secrets, the debate, the secret votes and the summaries were all compared
    for name in ("eliminate", "protect", "unmask", "morning", "vote", "exile", "summary", "role", "wolf"):
        assert checked[name] > 0, name
    assert checked["debate"] > 100


def test_the_comparison_catches_a_leak_and_a_lost_memory() -> None:
    conversion = WEREWOLF.convert(GAMES / "8p_seed03")
    view = shown(GAMES / "8p_seed03")
    objects = [dict(o) for o in conversion.objects]
    unmask = next(o for o in objects if o.get("id") == "r0-unmask")
    unmask["witnesses"] = ["Ginger", "Harold"]  # the Seer's answer shown to a villager as well
    leaked = validate_conversion(conversion.__class__(objects, conversion.origins), "leak")
    assert mismatches(held(leaked), view) == {"Harold": {"not shown": ["r0-unmask"], "no memory": []}}
    dropped = [o for o in conversion.objects if o.get("id") != "r0-protect"]  # the Doctor's protection left out
    origins = [w for o, w in zip(conversion.objects, conversion.origins) if o.get("id") != "r0-protect"]
    lost = validate_conversion(conversion.__class__(dropped, origins), "lost")
    assert mismatches(held(lost), view) == {"Sam": {"not shown": [], "no memory": ["r0-protect"]}}


def test_header_and_the_first_night() -> None:
    log = convert(GAMES / "8p_seed03")
    assert detect_format(GAMES / "8p_seed03") == "werewolf-arena"
    header = log.header
    assert header.game == "werewolf-arena-8p_seed03" and header.imported_from == "werewolf-arena"
    assert header.roles == {"Harold": "villager", "Dan": "villager", "Scott": "villager", "Hayley": "villager",
                            "Mason": "werewolf", "David": "werewolf", "Sam": "doctor", "Ginger": "seer"}
    assert header.traitor_roles == ("werewolf",)
    assert (header.side_names.traitor, header.side_names.faithful) == ("werewolves", "villagers")
    assert header.licence == "Apache-2.0 (google/werewolf_arena)"
    events = {e.event.id: e for e in log.events}
    partner = events["wolf-Mason-David"].event
    assert isinstance(partner, RevealEvent) and (partner.player, partner.witnesses) == ("David", ("Mason",))
    choice = events["r0-eliminate"].event  # David's prompt chose Harold (game_logs.json)
    assert isinstance(choice, VoteEvent) and (choice.voter, choice.target, choice.ballot) == ("David", "Harold", "murder")
    saved = events["r0-protect"].event
    assert isinstance(saved, VoteEvent) and saved.secret and (saved.voter, saved.target) == ("Sam", "Harold")
    assert [(c.subject, c.predicate, c.object) for c in saved.claims] == [("Sam", "protected", "Harold")]  # a save
    unmask = events["r0-unmask"].event
    assert isinstance(unmask, RevealEvent) and (unmask.player, unmask.role, unmask.witnesses) == (
        "Mason", "werewolf", ("Ginger",))
    morning = events["r0-morning"].event  # Harold was saved: nobody removed
    assert isinstance(morning, ObserveEvent) and morning.text == "No one was removed from the game during the night."
    killed = events["r1-morning"].event
    assert isinstance(killed, MurderEvent) and (killed.victim, killed.by) == ("Dan", ("Mason", "David"))
    phases = [(p.day, p.name) for p in log.phases]
    assert phases[:4] == [(0, "pregame"), (0, "night"), (0, "day"), (0, "vote")]  # pregame: the roles


def test_what_each_player_holds_of_a_night_and_a_day() -> None:
    game = encode_game(convert(GAMES / "8p_seed03"), PARAMS)
    by_event: dict[str, dict[str, str]] = collections.defaultdict(dict)
    for m in game.memories:
        by_event[m.event][m.owner] = m.text
    assert by_event["r0-unmask"] == {"Ginger": "Mason is a werewolf."}
    assert by_event["r0-protect"] == {"Sam": "You voted to protect Harold"}
    assert set(by_event["r0-eliminate"]) == {"Mason", "David"}
    assert "Dan" not in by_event["r1-morning"] and by_event["r1-morning"]["Sam"] == "Dan was murdered by the werewolves."
    assert by_event["r0-vote-Ginger"] == {"Ginger": "You voted to banish Mason"}  # secret: the voter alone
    assert "Scott" not in by_event["r0-exile"] and by_event["r0-exile"]["Harold"] == "Scott was banished with 6 votes."
    assert by_event["r0-summary-Ginger"]["Ginger"].startswith("You concluded about yourself: ")
    assert "end" not in by_event and not any(e.startswith("r0-poll") for e in by_event)  # told to nobody


def test_claims_of_the_debate_seer_saves_and_votes() -> None:
    log = convert(GAMES / "8p_seed03")
    says = {e.event.id: e.event for e in log.events if isinstance(e.event, SayEvent)}

    def claims(event_id: str) -> list[tuple[str, str, str, bool, int | None]]:
        return [(c.subject, c.predicate, c.object, c.polarity, c.round) for c in says[event_id].claims]

    assert claims("r0-debate4") == [("Ginger", "role", "seer", True, None), ("Mason", "role", "werewolf", True, None)]
    assert claims("r1-debate2") == [("Mason", "protected", "Sam", True, None)]  # a werewolf claims a save
    assert ("Hayley", "voted_for", "Scott", True, 0) in claims("r0-debate7")
    votes = [e.event for e in log.events if isinstance(e.event, VoteEvent) and e.event.ballot == "banish"]
    assert all(v.secret and [(c.predicate, c.object, c.round) for c in v.claims] == [("voted_for", v.target, 0)]
               for v in votes if v.id and v.id.startswith("r0-"))


def test_discovery_finds_the_games_under_a_folder() -> None:
    found = discover([EXAMPLES / "werewolf-arena"])
    assert [(p.name, f) for p, f in found] == [("6p_seed03", "werewolf-arena"), ("8p_seed03", "werewolf-arena")]


def test_a_file_of_a_game_folder_names_that_game(tmp_path: Path) -> None:
    """A user who names game_complete.json or game_logs.json means the game of their folder (convert --from
    werewolf-arena FILE wanted the folder); a file of a folder without the saved state is refused naming what to
    pass."""
    folder = GAMES / "6p_seed03"
    whole = convert(folder)
    for name in ("game_complete.json", "game_logs.json"):
        assert detect_format(folder / name) == "werewolf-arena"
        assert discover([folder / name], "werewolf-arena") == [(folder / name, "werewolf-arena")]
        log = convert(folder / name)
        assert log.game == whole.game == "werewolf-arena-6p_seed03" and log.events == whole.events
    (tmp_path / "game_logs.json").write_text("[]", encoding="utf-8")
    with pytest.raises(UsageProblem, match=r"game_logs.json: not a werewolf-arena log \(.*: a game folder \(holding "
                                           r"game_complete.json and game_logs.json\), or one of those files in it\)"):
        discover([tmp_path / "game_logs.json"], "werewolf-arena")


def test_a_folder_without_the_saved_state_is_refused(tmp_path: Path) -> None:
    assert not WEREWOLF.detect(tmp_path) and not WEREWOLF.detect(EXAMPLES / "llmafia" / "games" / "0001")
    with pytest.raises(InvalidGameLog, match="no game_complete.json or game_partial.json"):
        convert(tmp_path)


def test_a_misspelt_role_is_read_and_reported(tmp_path: Path) -> None:
    game = copy(tmp_path)
    edit(game / "game_complete.json", lambda d: d["players"]["Dan"].update(role="Werwolf"))
    log = convert(game)
    assert log.header.roles["Dan"] == "werewolf"
    assert [(g.where, g.read, g.taken_as) for g in log.guesses] == [
        ("game_complete.json: players.Dan.role", "Werwolf", "Werewolf")]


def test_an_unknown_speaker_is_refused_with_its_position(tmp_path: Path) -> None:
    game = copy(tmp_path)
    edit(game / "game_complete.json", lambda d: d["rounds"][0]["debate"][2].__setitem__(0, "Nobody"))
    with pytest.raises(InvalidGameLog) as info:
        convert(game)
    assert any(p.field == "game_complete.json: rounds[0].debate[2][0]" and "Nobody" in p.reason
               for p in info.value.problems), info.value.problems
    log = convert(game, skip_invalid=True)
    assert not any(e.event.id == "r0-debate3" for e in log.events)


def test_without_the_logs_the_werewolves_choice_is_what_they_observed(tmp_path: Path) -> None:
    game = copy(tmp_path)
    (game / "game_logs.json").unlink()
    log = convert(game)
    choice = next(e.event for e in log.events if e.event.id == "r0-eliminate")
    assert isinstance(choice, ObserveEvent) and choice.observers == ("Dan", "Hayley")
    assert choice.text.startswith("We decided to eliminate ")
