"""A new user's trial: every hostile input gets one clear answer.

Each case runs the command line in-process (`chanspec.checks.cli.main`) from an empty
working folder and asserts: the exit code documented for that input, a message that says
what is wrong (no traceback, never exit 70 "internal error"), and nothing written outside
the output the command was asked to write: the working folder stays empty, the input
files are unchanged, and the checkout's OPEN_QUESTIONS.* are untouched.

Tables are mutated copies of spec/family.toml; hands go through `chanspec win` and
`chanspec win --jsonl`; logs through `chanspec replay` and `chanspec explain`.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.conform import itf, logs
from chanspec.model.chan import table
from chanspec.model.chan.game import State, random_playout

ROOT = Path(__file__).resolve().parent.parent
FAMILY_TEXT = (ROOT / "spec" / "family.toml").read_text(encoding="utf-8")
GUARDED = [ROOT / "OPEN_QUESTIONS.md", ROOT / "OPEN_QUESTIONS.json"]
HAND4 = "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 8v 8v 9n 9n 1v 1v 2n 2n 3s 3s 4v 4v".split()
INTERNAL = ("Traceback", "internal error", "lỗi nội bộ", "CHANSPEC_DEBUG")


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def invoke(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
           argv: list[str], stdin: str | None = None) -> Ran:
    """Run chanspec from an empty folder; check that nothing was written anywhere."""
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    monkeypatch.chdir(cwd)
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    inputs = _files(tmp_path)
    guarded = [(p.read_bytes(), p.stat().st_mtime_ns) if p.exists() else None for p in GUARDED]
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert _files(tmp_path) == inputs, "a hostile input made chanspec write a file"
    assert [(p.read_bytes(), p.stat().st_mtime_ns) if p.exists() else None
            for p in GUARDED] == guarded
    assert code != cli.EXIT_INTERNAL, err
    for word in INTERNAL:
        assert word not in out + err, (word, out + err)
    return Ran(code, out, err)


# --------------------------------------------------------------------------- tables


def _sub(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)
    return change


def _append(extra: str) -> Callable[[str], str]:
    return lambda text: text + extra


THREE_PLAYERS = ('\n[[variant]]\nrule = "deal-4"\nplayers = 3\nopener_cards = 24\n'
                 'other_cards = 23\npairs = 12\nmin_chan = 8\n')

# (id, change to family.toml, exit code, words the message must hold)
TABLES: list[tuple[str, Callable[[str], str] | bytes, int, tuple[str, ...]]] = [
    ("copies-1", _sub("copies = 4", "copies = 1"), 150, ("cannot be dealt", "variant[0]")),
    ("copies-0", _sub("copies = 4", "copies = 0"), 150, ("deck.copies", "1..8")),
    ("copies-string", _sub("copies = 4", 'copies = "four"'), 150, ("deck.copies", "int")),
    ("copies-huge", _sub("copies = 4", "copies = 100000000000"), 150, ("deck.copies",)),
    ("deck-two-faces", _sub('faces = "all"', 'faces = ["1v", "2v"]'), 150,
     ("cannot be dealt", "only 8 cards")),
    ("deck-duplicate-face", _sub('faces = "all"', 'faces = ["1v", "1v", "2v", "3v", "4v", '
                                 '"5v", "6v", "7v", "8v", "9v", "1n", "2n", "3n", "4n", "5n", '
                                 '"6n", "7n", "8n", "9n", "1s", "2s", "3s", "4s", "5s", "6s", '
                                 '"7s", "8s", "9s", "chi", "lao", "thang"]'), 150,
     ("deck.faces", "listed 2 times")),
    ("deck-unknown-face", _sub('faces = "all"', 'faces = ["1v", "zz"]'), 150,
     ("deck.faces[1]", "zz")),
    ("deck-faces-number", _sub('faces = "all"', "faces = 30"), 150, ("deck.faces",)),
    ("priority-empty-tier", _sub('priority = [["u", "chiu-u"], ["chiu"]',
                                 'priority = [["u", "chiu-u"], [], ["chiu"]'), 150,
     ("tier 2 is empty",)),
    ("priority-contradicts-row", _sub('priority = [["u", "chiu-u"], ["chiu"]',
                                      'priority = [["chiu"], ["u", "chiu-u"]'), 150,
     ("priority_says[0]", "u-before-chiu")),
    ("priority-eat-above-reclaim", _sub('["reclaim"], ["eat"]]', '["eat"], ["reclaim"]]'), 150,
     ("reclaim-deadline", "reclaim goes before eat")),
    ("priority-says-missing", _sub("priority_says = ", "priority_said = "), 150,
     ("priority_said", "unknown key")),
    ("priority-says-unknown-claim", _sub('[["u", "chiu"], ["chiu", "eat"]',
                                         '[["u", "chiu"], ["chiu", "steal"]'), 150,
     ("priority_says",)),
    ("priority-missing-claim", _sub('["reclaim"], ["eat"]]', '["eat"]]'), 150,
     ("claims.priority", "exactly once")),
    ("variant-one-player", _sub("players = 4", "players = 1"), 150, ("2..8 players",)),
    ("variant-nine-players", _sub("players = 4", "players = 9"), 150, ("2..8 players",)),
    ("variant-deals-too-many", _sub("opener_cards = 24\nother_cards = 23\npairs = 12",
                                    "opener_cards = 60\nother_cards = 59\npairs = 30"), 150,
     ("cannot be dealt", "60 + 3 x 59")),
    ("variant-opener-cards", _sub("opener_cards = 24", "opener_cards = 25"), 150,
     ("opener_cards",)),
    ("variant-twice", _sub("players = 5", "players = 4"), 150, ("two variants for 4",)),
    ("schema-2", _sub("schema = 1", "schema = 2"), 150, ("schema 1",)),
    ("unknown-top-key", _append("\n[house]\nrule = 1\n"), 150, ("house", "unknown key")),
    ("bad-status", _sub('status = "settled"', 'status = "maybe"'), 150, ("maybe",)),
    ("open-row-no-default", _sub('default = "never"\n', ""), 150,
     ("an open row needs a default",)),
    ("dangling-rule-ref", _sub('chiu_rule = "chiu"', 'chiu_rule = "chiuu"'), 150,
     ("chiuu", "no [[rule]] row")),
    ("uppercase-id", _sub('id = "u-before-chiu"', 'id = "U-before-chiu"'), 150,
     ("kebab-case",)),
    ("claim-source-unknown", _sub('source = "draw"', 'source = "sky"'), 150, ("sky",)),
    ("toml-syntax", _sub("copies = 4", "copies = = 4"), 150, ("not valid TOML", "line")),
    ("toml-deep-arrays", lambda t: t + "\nx = " + "[" * 100000, 150, ("nested too deeply",)),
    ("toml-deep-tables", lambda t: t + "\nx = " + "{a=" * 100000, 150, ("nested too deeply",)),
    ("empty-file", lambda t: "", 150, ("schema",)),
    ("not-utf8", b"\xff\xfe\x00garbage", 150, ("not UTF-8",)),
    ("binary", bytes(range(256)), 150, ("does not load",)),
]


@pytest.mark.parametrize("case_id, change, code, words", TABLES, ids=[t[0] for t in TABLES])
def test_bad_table(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch, case_id: str,
                   change: Callable[[str], str] | bytes, code: int,
                   words: tuple[str, ...]) -> None:
    path = tmp_path / f"{case_id}.toml"
    if isinstance(change, bytes):
        path.write_bytes(change)
    else:
        path.write_text(change(FAMILY_TEXT), encoding="utf-8")
    ran = invoke(tmp_path, capsys, monkeypatch,
                 ["win", *HAND4, "--with", "7s", "--ruleset", str(path)])
    assert ran.code == code
    assert ran.err.count("the rule table does not load") == 2  # heading, then the list
    assert str(path) in ran.err or path.name in ran.err
    for w in words:
        assert w in ran.err, (w, ran.err)


@pytest.mark.parametrize("where", ["missing.toml", "folder.toml", "no-such-ruleset"])
def test_table_that_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    (tmp_path / "folder.toml").mkdir()
    name = where if where == "no-such-ruleset" else str(tmp_path / where)
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", *HAND4, "--with", "7s",
                                                 "--ruleset", name])
    # not a table that fails to load but a name or path that is no table: a usage error
    assert ran.code == 2 and where in ran.err and len(ran.err.splitlines()) == 1


def test_table_with_a_byte_order_mark_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + FAMILY_TEXT.encode("utf-8"))
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", *HAND4, "--with", "7s", "--json",
                                                 "--ruleset", str(path)])
    assert ran.code == 0 and json.loads(ran.out)["win"] is True


def test_every_variant_of_a_table_can_be_selected(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "three.toml"
    path.write_text(FAMILY_TEXT + THREE_PLAYERS, encoding="utf-8")
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", *HAND4, "--with", "7s", "--json",
                                                 "--players", "3", "--ruleset", str(path)])
    assert ran.code == 0 and json.loads(ran.out)["win"] is True
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", *HAND4, "--with", "7s",
                                                 "--players", "3"])
    assert ran.code == 2 and "no variant for 3 players; it has: 4, 5" in ran.err


# --------------------------------------------------------------------------- hands


WIN_ARGS: list[tuple[str, list[str], str]] = [
    ("unknown-card", [*HAND4[:-1], "zz", "--with", "7s"], "unknown card 'zz'"),
    ("near-card-name", ["Tam Vann", *HAND4[1:], "--with", "7s"], "Did you mean"),
    ("empty-card", ["", *HAND4[1:], "--with", "7s"], "argument 1 of the cards is empty"),
    ("with-twice", [*HAND4, "--with", "7s", "--with", "8s"], "--with given twice"),
    ("with-unknown", [*HAND4, "--with", "7x"], "unknown card '7x'"),
    ("no-cards", ["--with", "7s"], "no cards given"),
    ("no-with", HAND4, "--with CARD"),
    ("opening-with-with", [*HAND4, "--opening", "--with", "7s"], "drop --with"),
    ("chiu-and-opening", [*HAND4, "--chiu", "--opening"], "not allowed with"),
    ("players-six", [*HAND4, "--with", "7s", "--players", "6"], "no variant for 6 players"),
    ("players-word", [*HAND4, "--with", "7s", "--players", "four"], "number of players"),
    ("option-unknown", [*HAND4, "--with", "7s", "--option", "lao=off"], "no option 'lao'"),
    ("option-bad-value", [*HAND4, "--with", "7s", "--option", "lao-thang=maybe"],
     "no value 'maybe'"),
    ("option-no-equals", [*HAND4, "--with", "7s", "--option", "lao-thang"], "NAME=VALUE"),
    ("laid-not-a-group", [*HAND4, "--with", "7s", "--laid", "2v 3v"], "group"),
    ("laid-unknown-card", [*HAND4, "--with", "7s", "--laid", "2v zz"], "zz"),
    ("five-copies", ["2v"] * 5 + HAND4[5:], "appears 5 times; the deck has only 4"),
    ("jsonl-with-cards", ["--jsonl", "2v"], "stdin"),
    ("unknown-flag", [*HAND4, "--wiht", "7s"], "unrecognized arguments"),
    ("lang-unknown", [*HAND4, "--with", "7s", "--lang", "fr"], "invalid choice"),
]


@pytest.mark.parametrize("case_id, args, needle", WIN_ARGS, ids=[w[0] for w in WIN_ARGS])
def test_bad_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                  monkeypatch: pytest.MonkeyPatch, case_id: str, args: list[str],
                  needle: str) -> None:
    if case_id == "five-copies":
        args = [*args, "--with", "7s"]
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", *args])
    assert ran.code == 2
    assert needle in ran.err, ran.err
    assert ran.out == ""


GOOD_LINE = json.dumps({"hand": HAND4, "with": "7s"})
JSONL: list[tuple[str, str, str]] = [
    ("not-json", "not json", "not valid JSON"),
    ("deep-array", "[" * 100000, "nested too deeply"),
    ("deep-object", '{"a":' * 100000 + "1" + "}" * 100000, "nested too deeply"),
    ("list", "[1, 2]", "expected a JSON object"),
    ("string", '"2v 2v"', "expected a JSON object"),
    ("null", "null", "expected a JSON object"),
    ("hand-string", json.dumps({"hand": " ".join(HAND4), "with": "7s"}), "JSON list"),
    ("laid-string", json.dumps({"hand": HAND4, "with": "7s", "laid": "2v 2v"}),
     "list of groups"),
    ("laid-group-string", json.dumps({"hand": HAND4, "with": "7s", "laid": ["2v 2v"]}),
     "JSON list"),
    ("laid-not-a-group", json.dumps({"hand": HAND4, "with": "7s", "laid": [["2v", "3v"]]}),
     "group"),
    ("hand-numbers", json.dumps({"hand": [1, 2], "with": "7s"}), "list of card codes"),
    ("hand-unknown-card", json.dumps({"hand": ["zz"], "with": "7s"}), "zz"),
    ("hand-two-words", json.dumps({"hand": ["2v 2v"], "with": "7s"}), "unknown card '2v 2v'"),
    ("hand-missing", json.dumps({"with": "7s"}), "missing \"hand\""),
    ("unknown-key", json.dumps({"hand": HAND4, "with": "7s", "colour": "red"}), "colour"),
    ("players-word", json.dumps({"hand": HAND4, "with": "7s", "players": "four"}), "players"),
    ("players-six", json.dumps({"hand": HAND4, "with": "7s", "players": 6}),
     "no variant for 6"),
    ("players-bool", json.dumps({"hand": HAND4, "with": "7s", "players": True}), "players"),
    ("players-nan", '{"hand": ' + json.dumps(HAND4) + ', "with": "7s", "players": NaN}',
     "players"),
    ("options-list", json.dumps({"hand": HAND4, "with": "7s", "options": ["x"]}), "options"),
    ("options-bad-value", json.dumps({"hand": HAND4, "with": "7s",
                                      "options": {"lao-thang": "x"}}), "lao-thang"),
    ("kind-unknown", json.dumps({"hand": HAND4, "with": "7s", "kind": "big"}), "kind"),
    ("with-number", json.dumps({"hand": HAND4, "with": 7}), "\"with\""),
    ("with-unknown", json.dumps({"hand": HAND4, "with": "zz"}), "zz"),
    ("opening-with-with", json.dumps({"hand": HAND4, "with": "7s", "kind": "opening"}),
     "no completing card"),
    ("five-copies", json.dumps({"hand": ["2v"] * 5 + HAND4[5:], "with": "7s"}),
     "appears 5 times"),
]


@pytest.mark.parametrize("case_id, line, needle", JSONL, ids=[j[0] for j in JSONL])
def test_bad_jsonl_line_and_the_batch_goes_on(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, case_id: str,
                                              line: str, needle: str) -> None:
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", "--jsonl"],
                 stdin=f"{line}\n{GOOD_LINE}\n")
    assert ran.code == 2
    first, second = (json.loads(x) for x in ran.out.splitlines())
    assert set(first) == {"error", "line"} and first["line"] == 1
    assert needle in first["error"], first
    assert second["win"] is True


def test_jsonl_with_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ran = invoke(tmp_path, capsys, monkeypatch, ["win", "--jsonl"],
                 stdin=f"\ufeff{GOOD_LINE}\n{GOOD_LINE}\n")
    assert ran.code == 0 and [json.loads(x)["win"] for x in ran.out.splitlines()] == [True] * 2


# --------------------------------------------------------------------------- logs


def _hand(seed: int = 11) -> list[dict[str, object]]:
    st = State.new(table.rules("family", 4), seed=seed)
    random_playout(st, random.Random(seed))
    return logs.record(st.rules, st.deal, st.history)


def _header(**changes: object) -> Callable[[list[dict[str, object]]], str]:
    def change(lines: list[dict[str, object]]) -> str:
        lines[0] = {**lines[0], **changes}
        for k, v in changes.items():
            if v is None:
                del lines[0][k]
        return logs.dumps(lines)
    return change


def _line(i: int, text: str) -> Callable[[list[dict[str, object]]], str]:
    def change(lines: list[dict[str, object]]) -> str:
        out = logs.dumps(lines).splitlines()
        out.insert(i, text)
        return "\n".join(out) + "\n"
    return change


def _action(**changes: object) -> Callable[[list[dict[str, object]]], str]:
    def change(lines: list[dict[str, object]]) -> str:
        i = next(k for k, ln in enumerate(lines) if ln["type"] == "discard")
        lines[i] = {**lines[i], **changes}
        return logs.dumps(lines)
    return change


# (id, the log text from a recorded hand, exit code of replay, words of the message)
LOGS: list[tuple[str, Callable[[list[dict[str, object]]], str] | bytes, int, tuple[str, ...]]] = [
    ("empty", lambda lines: "", 2, ("empty",)),
    ("blank-lines", lambda lines: "\n\n  \n", 2, ("empty",)),
    ("not-json", lambda lines: "hello\n", 2, ("not valid JSON",)),
    ("deep-line", _line(1, "[" * 100000), 2, ("line 2", "nested too deeply")),
    ("deep-document", lambda lines: '{"a":' * 100000 + "1" + "}" * 100000, 2,
     ("nested too deeply",)),
    ("no-header", lambda lines: logs.dumps(lines[1:]), 2, ("header",)),
    ("ruleset-path", _header(ruleset="/etc/passwd"), 2,
     ("not a built-in ruleset", "--ruleset")),
    ("ruleset-relative-path", _header(ruleset="../spec/family.toml"), 2,
     ("not a built-in ruleset",)),
    ("ruleset-number", _header(ruleset=7), 2, ("ruleset",)),
    ("digest-malformed", _header(table_digest="abc"), 2, ("table_digest", "64 hexadecimal")),
    ("digest-of-another-table", _header(table_digest="0" * 64), 2,
     ("table_digest", "another table")),
    ("bad-format", _header(format="pgn"), 2, ("format",)),
    ("version-2", _header(version=2), 2, ("version",)),
    ("players-six", _header(players=6), 2, ("players",)),
    ("options-bad", _header(options={"lao-thang": "maybe"}), 2, ("lao-thang",)),
    ("header-unknown-field", _header(colour="red"), 2, ("colour",)),
    ("header-no-deal", _header(deal=None), 2, ("deal",)),
    ("header-seed-and-deal", _header(seed=3), 2, ("deal",)),
    ("bad-card-in-deal", _header(deal={"hands": [["zz"]], "noc": [], "opener": 0}), 2,
     ("zz",)),
    ("action-unknown-type", _line(1, '{"type": "steal", "seat": 0}'), 2, ("steal",)),
    ("action-seat-out-of-range", _action(seat=9), 2, ("seat",)),
    ("action-unknown-field", _action(colour="red"), 2, ("colour", "a 'discard' line")),
    ("second-header", lambda lines: logs.dumps(lines + [lines[0]]), 2, ("second header",)),
    ("not-utf8", b"\xff\xfe garbage\n", 2, ("not UTF-8",)),
    ("itf-without-meta", lambda lines: json.dumps({"#meta": {"format": "ITF"}, "states": []}),
     2, ("#meta.chanspec",)),
    ("state-file-without-actions", lambda lines: json.dumps({"players": 4, "deal": None}), 2,
     ("actions",)),
    ("illegal-action", _action(card="chi"), 1, ("Divergence",)),
    ("truncated", lambda lines: logs.dumps(lines[:9]), 4, ("UNFINISHED",)),
    ("byte-order-mark", lambda lines: "\ufeff" + logs.dumps(lines), 0, ("Conforming",)),
]


def _write_log(tmp_path: Path, make: Callable[[list[dict[str, object]]], str] | bytes) -> Path:
    path = tmp_path / "game.ndjson"
    if isinstance(make, bytes):
        path.write_bytes(make)
    else:
        path.write_text(make(_hand()), encoding="utf-8")
    return path


@pytest.mark.parametrize("case_id, make, code, words", LOGS, ids=[c[0] for c in LOGS])
def test_bad_log_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch, case_id: str,
                        make: Callable[[list[dict[str, object]]], str] | bytes, code: int,
                        words: tuple[str, ...]) -> None:
    path = _write_log(tmp_path, make)
    ran = invoke(tmp_path, capsys, monkeypatch, ["replay", str(path), "--lang", "en"])
    assert ran.code == code
    for w in words:
        assert w in ran.text, (w, ran.text)
    if code == 2:
        assert "Malformed log" in ran.out and "line" in ran.out


@pytest.mark.parametrize("case_id, make, code, words",
                         [c for c in LOGS if c[2] == 2], ids=[c[0] for c in LOGS if c[2] == 2])
def test_bad_log_explain(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch, case_id: str,
                         make: Callable[[list[dict[str, object]]], str] | bytes, code: int,
                         words: tuple[str, ...]) -> None:
    path = _write_log(tmp_path, make)
    ran = invoke(tmp_path, capsys, monkeypatch, ["explain", str(path), "--seat", "0",
                                                 "--lang", "en"])
    assert ran.code == 2 and ran.out == ""
    assert ran.err.startswith("chanspec explain: cannot read") and ran.err.count("\n") == 1
    for w in words:
        if w.startswith("line "):  # explain says FILE:LINE
            w = f"game.ndjson:{w.split()[1]}:"
        assert w in ran.err, (w, ran.err)


@pytest.mark.parametrize("argv, needle", [
    (["--seat", "9"], "--seat must be 0..3 (a 4-player hand)"),
    (["--seat", "0", "--step", "100000"], "--step must be 0.."),
    (["--seat", "x"], "invalid int value"),
], ids=["seat-9", "step-too-far", "seat-word"])
def test_bad_explain_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch, argv: list[str],
                               needle: str) -> None:
    path = _write_log(tmp_path, logs.dumps)
    ran = invoke(tmp_path, capsys, monkeypatch, ["explain", str(path), "--lang", "en", *argv])
    assert ran.code == 2 and needle in ran.err


@pytest.mark.parametrize("command", ["replay", "explain"])
@pytest.mark.parametrize("where", ["missing.ndjson", "folder"])
def test_log_that_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch, command: str,
                                 where: str) -> None:
    (tmp_path / "folder").mkdir()
    extra = ["--seat", "0"] if command == "explain" else []
    ran = invoke(tmp_path, capsys, monkeypatch, [command, str(tmp_path / where), *extra])
    assert ran.code == 2 and "cannot read" in ran.text


def test_a_log_of_another_table_needs_that_table(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "cousins.toml"
    other.write_text(FAMILY_TEXT.replace('id = "family"', 'id = "cousins"', 1),
                     encoding="utf-8")
    rules = table.load(str(other)).resolve(4)
    st = State.new(rules, seed=5)
    random_playout(st, random.Random(5))
    path = tmp_path / "cousins.itf.json"
    path.write_text(itf.dumps(itf.trace(rules, st.deal, st.history)), encoding="utf-8")
    ran = invoke(tmp_path, capsys, monkeypatch, ["replay", str(path), "--lang", "en"])
    assert ran.code == 2 and "'cousins' is not a built-in ruleset" in ran.out
    ran = invoke(tmp_path, capsys, monkeypatch, ["replay", str(path), "--ruleset", str(other)])
    assert ran.code == 0
    ran = invoke(tmp_path, capsys, monkeypatch, ["replay", str(path), "--ruleset", "family"])
    assert ran.code == 2 and "the log is for ruleset 'cousins'" in ran.text
