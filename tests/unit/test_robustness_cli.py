"""Bad input that once reached users as a Python traceback (or as a silent wrong result): each is now a one-line
error with the right exit code, decided before any Neo4j connection (nothing listens at the URI these tests use)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from graphmem.analysis.params import coerce
from graphmem.cli import Utf8Text, main
from graphmem.errors import INTEGER_MAX, INTEGER_MIN, InvalidNeo4jUri, Neo4jUnavailable, UsageProblem
from graphmem.logs.reader import parse_json_line
from graphmem.settings import Settings
from graphmem.store.connection import SUPPORTED_SCHEMES, check_uri, open_driver
from graphmem.store.queries import QueryParam

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "traitors-llm" / "433y9yyp"
NOWHERE = ["--uri", "bolt://127.0.0.1:1"]
HUGE = "99999999999999999999"


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [*map(str, args)])


def assert_clean(result: Result, code: int, *texts: str) -> None:
    """Exit ``code``, no traceback (an error exits through click's SystemExit), and each of ``texts`` in the output."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    for text in texts:
        assert text in result.output


# --- convert -o: the output is checked before any game is read -----------------------------------------------------

def test_convert_into_a_missing_directory_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "x.jsonl"
    result = invoke("convert", GAME, "-o", out)
    assert_clean(result, 2, f"cannot write {out}: directory {out.parent} does not exist")
    assert not out.parent.exists()


def test_convert_under_a_file_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = invoke("convert", GAME, "-o", blocker / "x.jsonl")
    assert_clean(result, 2, f"{blocker} is not a directory")
    result = invoke("convert", GAME, "-o", f"{blocker}/sub/")
    assert_clean(result, 2, f"cannot create folder {blocker / 'sub'}")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_convert_into_proc_is_a_usage_error() -> None:
    result = invoke("convert", GAME, "-o", "/proc/x.jsonl")
    assert_clean(result, 2, "cannot write /proc/x.jsonl: directory /proc is not writable")


def test_convert_to_a_new_folder_given_with_a_trailing_slash(tmp_path: Path) -> None:
    result = invoke("convert", GAME, "-o", f"{tmp_path / 'new'}/")
    assert_clean(result, 0)
    assert (tmp_path / "new" / "433y9yyp.jsonl").is_file()


# --- integers beyond Neo4j's 64 bits ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "option"), [
    (["phase", "advance", "--game", "g", "--to", HUGE], "'--to'"),
    (["phase", "advance", "--game", "g", "--batch-size", HUGE], "'--batch-size'"),
])
def test_huge_integer_options_are_usage_errors_naming_the_option(args: list[str], option: str) -> None:
    assert_clean(invoke(*NOWHERE, *args), 2, option, str(INTEGER_MAX))


@pytest.mark.parametrize("k", ["101", HUGE])
def test_a_recall_of_more_than_100_memories_is_a_usage_error_as_over_http_and_mcp(k: str) -> None:
    assert_clean(invoke(*NOWHERE, "recall", "--game", "g", "--player", "p", "--k", k), 2, "'--k'", "1<=x<=100")


def test_the_python_api_bounds_k_as_the_service_does() -> None:
    from graphmem.recall.types import RecallRequest

    assert RecallRequest("g", "p", k=100).k == 100
    with pytest.raises(UsageProblem, match="k must be 1 to 100"):
        RecallRequest("g", "p", k=101)


def test_a_huge_integer_query_parameter_is_a_usage_error() -> None:
    result = invoke(*NOWHERE, "query", "accusation_network", "-p", "game=g", "-p", f"day={HUGE}")
    assert_clean(result, 2, "parameter 'day' expects INTEGER", "64-bit range")


def test_integer_parameters_keep_to_the_64_bit_range() -> None:
    day = QueryParam("day", "INTEGER", False, "null", "")
    days = QueryParam("days", "LIST<INTEGER>", False, "null", "")
    assert coerce(day, str(INTEGER_MAX)) == INTEGER_MAX and coerce(day, str(INTEGER_MIN)) == INTEGER_MIN
    assert coerce(day, "-007") == -7
    for raw in (str(INTEGER_MAX + 1), str(INTEGER_MIN - 1), "9" * 5000):
        with pytest.raises(UsageProblem, match="64-bit range"):
            coerce(day, raw)
    with pytest.raises(UsageProblem, match="64-bit range"):
        coerce(days, f"1,{HUGE}")
    with pytest.raises(UsageProblem, match=r"\(5000 characters\)"):
        coerce(day, "9" * 5000)


# --- recall --with --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("names", [",", "", "Ann,,Bob", "Ann, "])
def test_an_empty_with_name_is_a_usage_error(names: str) -> None:
    result = invoke(*NOWHERE, "recall", "--game", "g", "--player", "p", "--with", names)
    assert_clean(result, 2, "--with expects comma-separated player names")


# --- Neo4j URIs -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["http", "https", "foo"])
def test_an_unsupported_uri_scheme_is_a_usage_error_listing_the_supported_ones(scheme: str) -> None:
    result = invoke("--uri", f"{scheme}://127.0.0.1:7790", "games")
    assert_clean(result, 2, f"the scheme '{scheme}' is not supported",
                 "(supported: bolt, bolt+s, bolt+ssc, neo4j, neo4j+s, neo4j+ssc;")
    supported = result.output.split("(supported: ")[1].split(";")[0]
    assert "http" not in supported


@pytest.mark.parametrize(("uri", "reason"), [("localhost:7687", "it has no scheme"),
                                             ("bolt://127.0.0.1:notaport", "the port must be a number"),
                                             ("bolt://127.0.0.1:99999", "the port must be a number"),
                                             ("bolt://[::1", "Invalid IPv6 URL")])
def test_a_malformed_uri_is_a_usage_error(uri: str, reason: str) -> None:
    assert_clean(invoke("--uri", uri, "games"), 2, f"invalid Neo4j URI '{uri}': {reason}")


def test_supported_uris_pass_the_check_and_a_bad_one_is_still_a_neo4j_unavailable() -> None:
    for scheme in SUPPORTED_SCHEMES:
        check_uri(f"{scheme}://localhost:7687")
    check_uri("BOLT://localhost")
    with pytest.raises(InvalidNeo4jUri) as caught:
        open_driver(Settings(uri="http://127.0.0.1:7790"))
    assert isinstance(caught.value, Neo4jUnavailable) and isinstance(caught.value, UsageProblem)


# --- JSON error messages ----------------------------------------------------------------------------------------------

def test_json_errors_name_the_column_once() -> None:
    _, problems = parse_json_line('{"kind": "game", "x": "abc', 3)
    assert [p.reason for p in problems] == [
        "invalid JSON (the line is truncated): Unterminated string starting at column 23"]
    _, problems = parse_json_line('{"kind": "game" "x": 1}', 4)
    assert [p.reason for p in problems] == ["invalid JSON: Expecting ',' delimiter at column 17"]


@pytest.mark.parametrize("args, usage", [
    (["model", "curve", "--profile", "nosuch"], "Usage: graphmem model curve [OPTIONS]"),
    ([*NOWHERE, "query", "no_such_query"], "Usage: graphmem query [OPTIONS] [NAME]"),
])
def test_a_usage_problem_shows_the_usage_line_of_its_own_command(args: list[str], usage: str) -> None:
    # It used to show "Usage: graphmem [OPTIONS] COMMAND [ARGS]...", which sends the user to the wrong --help.
    result = CliRunner().invoke(main, args, prog_name="graphmem")
    assert_clean(result, 2, usage, f"Try '{usage.split(' [')[0][len('Usage: '):]} --help' for help.")
    assert "COMMAND [ARGS]" not in result.output


def test_an_unreachable_default_neo4j_says_where_a_local_one_was_looked_for(tmp_path: Path) -> None:
    # a user who started the local Neo4j with GRAPHMEM_HOME=DIR and runs the next command in a new shell gets the
    # default URI: the message names the home searched and how to point at the other one. After `graphmem neo4j
    # stop` (its state file removed) it is the same case, and it said "no local Neo4j was started in HOME" of the
    # home where one had just run
    with pytest.raises(Neo4jUnavailable) as default:
        open_driver(Settings(uri="bolt://127.0.0.1:1", uri_source="default", home=tmp_path))
    assert f"no local Neo4j runs from {tmp_path}, stopped or never started there" in str(default.value)
    assert "GRAPHMEM_HOME" in str(default.value)
    with pytest.raises(Neo4jUnavailable) as given:
        open_driver(Settings(uri="bolt://127.0.0.1:1", uri_source="env", home=tmp_path))
    assert "no local Neo4j" not in str(given.value)  # a URI the user gave is the one to check, not the home


# --- recall: text and phases the command line cannot mean --------------------------------------------------------

def test_a_recall_at_beyond_neo4j_integers_is_a_usage_error_not_an_overflow() -> None:
    result = invoke(*NOWHERE, "recall", "--game", "g", "--player", "P", "--at", HUGE)
    assert_clean(result, 2, f"--at must be a phase of at most {INTEGER_MAX}, got {HUGE}")


def test_argv_bytes_that_are_not_utf8_are_named_as_such_not_as_half_an_emoji() -> None:
    # through a real process: Python reads the bytes \xff\xfe of argv as the surrogates \udcff\udcfe
    code = "import sys; from graphmem.cli import main; sys.argv[0] = 'graphmem'; main()"
    run = subprocess.run([sys.executable, "-c", code, *NOWHERE, "recall", "--game", "g", "--player", "P",
                          "--topic", b"\xff\xfe".decode("utf-8", "surrogateescape")], cwd=ROOT, capture_output=True)
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 2, err
    assert "Invalid value for '--topic': not valid UTF-8: byte 0xff at character 0" in err
    assert "surrogate" not in err and "emoji" not in err and "Traceback" not in err


def _parameters(command: click.Command, path: tuple[str, ...],
                ctx: click.Context) -> Iterator[tuple[tuple[str, ...], click.Parameter]]:
    """Every parameter of ``command`` and its subcommands, each with the words that reach its command."""
    for param in command.params:
        yield path, param
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            yield from _parameters(sub, (*path, name), click.Context(sub, parent=ctx, info_name=name))


TEXT = [(path, param) for path, param in _parameters(main, (), click.Context(main, info_name="graphmem"))
        if isinstance(param.type, (click.types.StringParamType, Utf8Text))]


def test_every_text_option_of_every_command_is_checked_for_utf8() -> None:
    plain = [" ".join(("graphmem", *path, param.name or "")) for path, param in TEXT
             if not isinstance(param.type, Utf8Text)]
    assert plain == []  # a new text option takes type=UTF8_TEXT (graphmem.cli)
    named = {(" ".join(path), param.name) for path, param in TEXT}
    assert {("recall", "topic"), ("forget", "reason"), ("query", "name"), ("query", "assignments"),
            ("contradictions", "games"), ("viz decay", "player"), ("", "uri")} <= named


@pytest.mark.parametrize(("path", "param"), TEXT, ids=[" ".join((*p, q.name or "")) for p, q in TEXT])
def test_argv_bytes_that_are_not_utf8_are_a_usage_error_naming_the_option(path: tuple[str, ...],
                                                                         param: click.Parameter) -> None:
    bad = b"ok\xff".decode("utf-8", "surrogateescape")  # what Python makes of the byte 0xff in argv
    given = [param.opts[0], bad] if isinstance(param, click.Option) else [bad]
    words = [*given, *path] if not path else [*NOWHERE, *path, *given]
    name = param.get_error_hint(click.Context(main))  # "'--topic'", "'-p' / '--param'", "'[NAME]'"
    result = CliRunner().invoke(main, words)
    assert_clean(result, 2, f"Invalid value for {name}: not valid UTF-8: byte 0xff at character 2")
