"""chanspec settle: the family decides an open question in one command, and can take it
back.  Every test works on a copy of the table in a temporary folder."""

from __future__ import annotations

import difflib
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.cli import cmd_settle
from chanspec.checks.findings import questions
from chanspec.model import table as shared_table
from chanspec.model.chan import table
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec" / "family.toml"
BASE = table.load("family")
LT = BASE.rows["lao-thang"].status
OPEN = [r for r in BASE.rows.values() if r.status in ("open", "provisional")]


@pytest.fixture(autouse=True)
def _repo_table_untouched() -> object:
    before = hashlib.sha256(SPEC.read_bytes()).hexdigest()
    yield
    assert hashlib.sha256(SPEC.read_bytes()).hexdigest() == before, "spec/family.toml changed"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    p = tmp_path / "family.toml"
    shutil.copyfile(SPEC, p)
    return p


def test_there_are_open_rows_to_settle() -> None:
    assert len(OPEN) >= 10


@pytest.mark.parametrize("rid", [r.id for r in OPEN])
def test_settle_then_undo_is_byte_identical_for_every_value(rid: str) -> None:
    text = SPEC.read_text(encoding="utf-8")
    row = BASE.rows[rid]
    for value in row.values:
        settled = cmd_settle.settle_text(text, rid, value, date="2026-11-30",
                                         note='bàn "xong" # nhé', by="Bà nội")
        assert settled != text
        t = table.load_text(settled, "settled.toml")
        r = t.rows[rid]
        assert r.status == "settled" and r.default == value and r.values == row.values
        assert r.decisions[-1] == {"date": "2026-11-30", "value": value, "was": row.status,
                                   "was_default": row.default, "note": 'bàn "xong" # nhé',
                                   "by": "Bà nội"}
        # the decision changes what the table resolves to, and fixes it
        assert t.defaults()[rid] == value
        for players in t.variants:
            assert t.resolve(players).options[rid] == value
        assert rid not in {x.id for x in questions.question_rows(t)}
        assert rid not in dict(t.option_space())
        t.resolve(4, {rid: value})  # the chosen value may still be named
        for other in row.values:
            if other != value:
                with pytest.raises(shared_table.OptionError, match="settled"):
                    t.resolve(4, {rid: other})
        # only the row's lines change: comments and every other line stay
        old_lines, new_lines = text.splitlines(), settled.splitlines()
        ops = [op for op in difflib.SequenceMatcher(None, old_lines, new_lines,
                                                    autojunk=False).get_opcodes()
               if op[0] != "equal"]
        replaced = [(old_lines[i1:i2], new_lines[j1:j2]) for t, i1, i2, j1, j2 in ops
                    if t == "replace"]
        inserted = [new_lines[j1:j2] for t, i1, i2, j1, j2 in ops if t == "insert"]
        assert replaced == [([f'status = "{row.status}"'], ['status = "settled"']),
                            ([f'default = "{row.default}"'], [f'value = "{value}"'])]
        assert len(inserted) == 1 and inserted[0][:2] == ["", "[[rule.decision]]"]
        assert all(t in ("replace", "insert") for t, *_ in ops)
        back, dec = cmd_settle.undo_text(settled, rid)
        assert back == text and dec["value"] == value


def test_settle_keeps_the_other_rows_and_a_second_decision_stacks() -> None:
    text = SPEC.read_text(encoding="utf-8")
    a = cmd_settle.settle_text(text, "lao-thang", "off", date="2026-01-02")
    b = cmd_settle.settle_text(a, "timeout", "none", date="2026-01-03")
    t = table.load_text(b, "x.toml")
    assert t.defaults()["lao-thang"] == "off" and t.defaults()["timeout"] == "none"
    assert cmd_settle.undo_text(cmd_settle.undo_text(b, "timeout")[0], "lao-thang")[0] == text
    # undo in the other order too
    assert cmd_settle.undo_text(cmd_settle.undo_text(b, "lao-thang")[0], "timeout")[0] == text


def test_bad_settles_are_refused_with_a_reason() -> None:
    text = SPEC.read_text(encoding="utf-8")
    with pytest.raises(cmd_settle.SettleError, match="Did you mean 'lao-thang'"):
        cmd_settle.settle_text(text, "lao-thng", "off", date="2026-01-01")
    with pytest.raises(cmd_settle.SettleError, match="its values are"):
        cmd_settle.settle_text(text, "lao-thang", "of", date="2026-01-01")
    with pytest.raises(cmd_settle.SettleError, match="not open"):
        cmd_settle.settle_text(text, "deck", "x", date="2026-01-01")
    with pytest.raises(cmd_settle.SettleError, match="no decision"):
        cmd_settle.undo_text(text, "lao-thang")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    rc = cli.main(["settle", *argv, "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out)


@pytest.mark.parametrize("rid,what", [("stuck-discard", "stuck-all-banned"),
                                      ("empty-hand", "stuck-empty-hand")])
def test_a_settle_that_brings_back_a_deadlock_needs_force(
        copy: Path, capsys: pytest.CaptureFixture[str], rid: str, what: str) -> None:
    original = copy.read_bytes()
    rc, rep = _run(capsys, f"{rid}=as-written", "--ruleset", str(copy), "--date", "2026-11-30")
    assert rc == 1 and copy.read_bytes() == original
    assert not (copy.parent / "OPEN_QUESTIONS.md").exists()
    assert [v["what"] for v in rep["appears"]] == [what]  # type: ignore[index]
    assert rep["appears"][0]["kind"] == "deadlock" and rep["appears"][0]["path"]  # type: ignore[index]
    assert any("--force" in m["en"] for m in rep["messages"])  # type: ignore[union-attr]
    rc, rep = _run(capsys, f"{rid}=as-written", "--ruleset", str(copy), "--force",
                   "--note", "theo đúng văn bản", "--by", "Ông", "--date", "2026-11-30")
    assert rc == 0 and rep["forced"] is True
    t = table.load_text(copy.read_text(encoding="utf-8"), str(copy))
    assert t.defaults()[rid] == "as-written" and t.rows[rid].decisions[0]["by"] == "Ông"
    md = (copy.parent / "OPEN_QUESTIONS.md").read_text(encoding="utf-8")
    assert f'<a id="{rid}"></a>' not in md
    # the saved findings were computed under the other value: the file says so by
    # showing the questions only, and the command told how to recompute them
    assert "```mermaid" not in md
    assert any("chanspec check" in m["en"] for m in rep["messages"])  # type: ignore[union-attr]
    rc, rep = _run(capsys, "--undo", rid, "--ruleset", str(copy))
    assert rc == 0 and copy.read_bytes() == original


def test_settling_on_the_default_keeps_the_other_findings(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, rep = _run(capsys, "stuck-discard=lift-bans", "--ruleset", str(copy))
    assert rc == 0 and rep["findings_kept"] is True and rep["appears"] == []
    w = rep["witness"]
    from chanspec.checks.findings import compute

    saved = (compute.load() or {})["questions"]["stuck-discard"]["witness"]
    # the chosen reading's branch of the saved witness: it starts with an action only
    # that reading allows there, and ends in a win
    assert w["steps"][0]["code"] in saved["only_a"]  # type: ignore[index]
    assert w["end"]["kind"] == "win"  # type: ignore[index]
    md = (copy.parent / "OPEN_QUESTIONS.md").read_text(encoding="utf-8")
    assert '<a id="stuck-discard"></a>' not in md
    witnessed = [rid for rid, q in (compute.load() or {})["questions"].items()
                 if (q.get("witness") or q.get("full_witness")) and rid != "stuck-discard"]
    assert md.count("```mermaid") == len(witnessed)  # the settled row no longer asks
    rc, _ = _run(capsys, "--undo", "stuck-discard", "--ruleset", str(copy))
    assert rc == 0
    assert (copy.parent / "OPEN_QUESTIONS.md").read_text(encoding="utf-8") == (
        ROOT / "OPEN_QUESTIONS.md").read_text(encoding="utf-8")


def test_settling_a_reading_that_removes_a_deadlock_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "t.toml"
    # a table whose default is the deadlocking reading
    text = _with(SPEC.read_text(encoding="utf-8"), "stuck-discard", 'default = "lift-bans"',
                 'default = "as-written"')
    p.write_text(text, encoding="utf-8")
    rc, rep = _run(capsys, "stuck-discard=lift-bans", "--ruleset", str(p))
    assert rc == 0 and [v["what"] for v in rep["disappears"]] == ["stuck-all-banned"]  # type: ignore[index]


def test_json_output_is_bilingual_and_independent_of_lang(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for lang in ("vi", "en"):
        rc = cli.main(["settle", "lao-thang=off", "--ruleset", str(copy), "--date", "2026-11-30",
                       "--json", "--lang", lang])
        assert rc == 0
        outs.append(json.loads(capsys.readouterr().out))
        assert cli.main(["settle", "--undo", "lao-thang", "--ruleset", str(copy), "--json"]) == 0
        capsys.readouterr()
    a, b = outs
    assert a == b
    assert a["messages"]
    for m in a["messages"]:
        assert m["vi"] and m["en"] and m["vi"] != m["en"]
    assert a["frequency"]["per_10000"] > 0


def test_text_output_gives_both_languages(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["settle", "timeout=none", "--ruleset", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "Quyết định: timeout = none" in out and "(en) Decision: timeout = none" in out
    assert cli.main(["settle", "stuck-discard=as-written", "--ruleset", str(copy),
                     "--lang", "en"]) == 1
    got = capsys.readouterr()
    assert got.out.startswith("Decision not written: stuck-discard = as-written")
    assert "WARNING" in got.out and "(en)" not in got.out and "--force" in got.err


@pytest.mark.parametrize("argv,needle", [
    (["lao-thng=off"], "Did you mean"),
    (["lao-thang=maybe"], "its values are"),
    (["lao-thang"], "ID=VALUE"),
    ([], "exactly one"),
    (["lao-thang=off", "--undo", "lao-thang"], "exactly one"),
    (["--undo", "lao-thang"], "no decision"),
    (["lao-thang=off", "--date", "30/11/2026"], "YYYY-MM-DD"),
])
def test_bad_input_exits_2_with_a_bilingual_reason(
        copy: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    original = copy.read_bytes()
    rc = cli.main(["settle", *argv, "--ruleset", str(copy), "--json"])
    err = json.loads(capsys.readouterr().out)["error"]
    assert rc == 2 and needle in err["en"] and err["vi"]
    assert copy.read_bytes() == original


def test_a_table_that_does_not_load_exits_150(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text("[ruleset]\nid = 1\n", encoding="utf-8")
    assert cli.main(["settle", "lao-thang=off", "--ruleset", str(p)]) == 150


def test_default_target_is_the_checkout_table() -> None:
    import argparse

    path, builtin = cmd_settle._target(argparse.Namespace(ruleset=None))
    assert builtin and path.resolve() == SPEC.resolve()


# --------------------------------------------------------------------------- the loader


def _with(text: str, rid: str, old: str, new: str) -> str:
    i = text.index(f'id = "{rid}"')
    return text[:i] + text[i:].replace(old, new, 1)


@pytest.mark.parametrize("edit,field", [
    (lambda s: _with(s, "lao-thang", f'status = "{LT}"', 'status = "settled"'),
     "default"),
    (lambda s: _with(cmd_settle.settle_text(s, "lao-thang", "off", date="2026-01-01"),
                     "lao-thang", 'value = "off"', 'value = "offf"'), "value"),
    (lambda s: _with(cmd_settle.settle_text(s, "lao-thang", "off", date="2026-01-01"),
                     "lao-thang", 'date = "2026-01-01"', 'date = "1 Jan"'), "date"),
    (lambda s: _with(cmd_settle.settle_text(s, "lao-thang", "off", date="2026-01-01"),
                     "lao-thang", f'was = "{LT}"', 'was = "settled"'), "was"),
    (lambda s: _with(cmd_settle.settle_text(s, "lao-thang", "off", date="2026-01-01"),
                     "lao-thang", 'status = "settled"', 'status = "open"'), "value"),
])
def test_the_loader_checks_the_settled_shape(edit: object, field: str) -> None:
    text = SPEC.read_text(encoding="utf-8")
    bad = edit(text)  # type: ignore[operator]
    with pytest.raises(shared_table.TableError) as exc:
        table.load_text(bad, "bad.toml")
    assert any(p.where.startswith("lao-thang") and p.field.startswith(field)
               for p in exc.value.problems), str(exc.value)


def test_the_loader_accepts_a_hand_written_date_literal() -> None:
    text = cmd_settle.settle_text(SPEC.read_text(encoding="utf-8"), "lao-thang", "off",
                                  date="2026-01-01")
    t = table.load_text(text.replace('date = "2026-01-01"', "date = 2026-01-01"), "x.toml")
    assert t.rows["lao-thang"].decisions[0]["date"] == "2026-01-01"


@settings(max_examples=60, deadline=None)
@given(note=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
       by=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
       k=st.integers(min_value=0, max_value=len(OPEN) - 1), v=st.integers(min_value=0))
def test_any_note_and_name_round_trip(note: str, by: str, k: int, v: int) -> None:
    """Whatever the family writes as a note or a name (quotes, newlines, Vietnamese,
    brackets), the table still loads with it, and undo gives the file back byte for byte."""
    text = SPEC.read_text(encoding="utf-8")
    row = OPEN[k]
    value = row.values[v % len(row.values)]
    settled = cmd_settle.settle_text(text, row.id, value, date="2026-11-30", note=note, by=by)
    d = table.load_text(settled, "x.toml").rows[row.id].decisions[-1]
    assert d.get("note", "") == note and d.get("by", "") == by
    assert cmd_settle.undo_text(settled, row.id)[0] == text
