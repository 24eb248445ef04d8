"""OPEN_QUESTIONS.md: generated from the table, committed, never stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import questions
from chanspec.checks.findings import render as render_mod
from chanspec.checks.output import write_atomic
from chanspec.model.chan import table
from chanspec.model.source import cite_section

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / questions.FILE_NAME

def test_committed_file_is_up_to_date() -> None:
    assert COMMITTED.is_file(), "run: chanspec questions --write"
    expected = render_mod.render(table.load("family"), findings.load())
    assert COMMITTED.read_text(encoding="utf-8") == expected, (
        "OPEN_QUESTIONS.md is stale; run: chanspec check (or chanspec questions --write)")

def test_every_open_row_is_rendered_with_its_values() -> None:
    t = table.load("family")
    text = questions.render(t)
    rows = questions.question_rows(t)
    assert {r.id for r in rows} >= {"lao-thang", "pass-ca-ban", "returned-card-u",
                                    "reclaim-deadline", "timeout"}
    for r in rows:
        section = text.split(f'<a id="{r.id}"></a>', 1)[1].split('<a id="', 1)[0]
        # a question by its title, its readings by their labels; ids in the footnote only
        assert f"### {r.title('vi')} — *{r.title('en')}*" in section
        assert r.vi in section and r.en in section
        assert f"{cite_section(r.section, 'vi')} / {cite_section(r.section)}" in section
        assert {"checker": "máy kiểm tra", "reading": "đọc kỹ"}.get(r.found_by,
                                                                  "gia đình") in section
        for v in r.values:
            cell = f"| «{r.label(v, 'vi')} / {r.label(v, 'en')}»"
            line = next(x for x in section.splitlines() if x.startswith(cell))
            assert " ".join(r.value_text[v]["vi"].split()) in line
            assert ("(mặc định / default)" in line) == (v == r.default)
            assert f"`{v}`" not in section
        note = next(x for x in section.splitlines() if x.startswith("<sub>"))
        assert f"{r.id} = " in note and all(v in note for v in r.values)
        assert f"--option {r.id}=" in note
    settled = [r for r in t.rows.values() if r.status == "settled"]
    assert all(f'<a id="{r.id}">' not in text for r in settled)


def test_findings_are_rendered() -> None:
    t = table.load("family")
    finding = questions.Finding(
        steps_vi=("Người 1 Chíu ngoài lượt.", "Người 1 trả một quân về cửa."),
        steps_en=("Player 1 takes a chíu out of turn.", "Player 1 returns a card."),
        frequency_vi="1 ván trong 40", frequency_en="1 hand in 40",
        effects={"allowed": questions.Effect("Người 2 ù.", "Player 2 wins."),
                 "forbidden": questions.Effect("Ván tiếp tục.", "The hand goes on.")},
        source="chanspec explore --seed 7",
    )
    plain = questions.render(t)
    text = questions.render(t, {"returned-card-u": finding})
    assert text != plain
    section = text.split('<a id="returned-card-u"></a>', 1)[1].split('<a id="', 1)[0]
    assert "1. Người 1 Chíu ngoài lượt." in section
    assert "*Player 1 returns a card.*" in section
    assert "1 ván trong 40" in section and "1 hand in 40" in section
    assert "| «được ù / ù allowed» | Người 2 ù.<br>*Player 2 wins.* |" in section
    assert "chanspec explore --seed 7" in section
    with pytest.raises(ValueError, match="not open questions"):
        questions.render(t, {"chiu": finding})
    with pytest.raises(ValueError, match="as many English steps"):
        questions.Finding(steps_vi=("a",), steps_en=())

def test_write_and_check_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "OQ.md"
    assert cli.main(["questions", "--check", str(target)]) == 1  # missing
    assert cli.main(["questions", "--write", str(target)]) == 0
    expected = render_mod.render(table.load("family"), findings.load())
    assert target.read_text(encoding="utf-8") == expected
    assert cli.main(["questions", "--check", str(target)]) == 0
    target.write_text(target.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    assert cli.main(["questions", "--check", str(target)]) == 1
    err = capsys.readouterr().err
    assert "chanspec questions --write" in err
    assert [p.name for p in tmp_path.iterdir()] == ["OQ.md"]  # no temp files left

def test_write_atomic_leaves_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    write_atomic(target, "old\n")

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def _snapshot() -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns)
            for p in (COMMITTED, COMMITTED.with_name(findings.FILE_NAME))}


def test_check_of_another_table_never_rewrites_the_family_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "cousins.toml"
    other.write_text((ROOT / "spec" / "family.toml").read_text(encoding="utf-8")
                     .replace('id = "family"', 'id = "cousins"', 1), encoding="utf-8")
    t = table.load(str(other))
    # the findings themselves take minutes; this test is about where they are written
    doc = dict(findings.load() or {})
    doc["table_digest"] = t.digest()
    monkeypatch.setattr(findings, "compute", lambda *a, **k: doc)
    before = _snapshot()
    out = tmp_path / "out"
    code = cli.main(["check", "--ruleset", str(other), "--quick", "--scales", "five=1",
                     "--quiet", "--out", str(out), "--lang", "en"])
    capsys.readouterr()
    assert code == 0
    assert _snapshot() == before
    assert (out / questions.FILE_NAME).is_file() and (out / findings.FILE_NAME).is_file()
    assert "cousins" not in COMMITTED.read_text(encoding="utf-8")
    # an explicit path is honoured
    mine = tmp_path / "mine" / "Q.md"
    mine.parent.mkdir()
    assert cli.main(["check", "--ruleset", str(other), "--quick", "--scales", "five=1",
                     "--quiet", "--out", str(out), "--questions", str(mine)]) == 0
    assert mine.is_file() and mine.with_name(findings.FILE_NAME).is_file()
    assert _snapshot() == before


def test_questions_write_for_another_table_needs_a_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "copy.toml"
    other.write_text((ROOT / "spec" / "family.toml").read_text(encoding="utf-8"),
                     encoding="utf-8")
    before = _snapshot()
    for flag in ("--write", "--check"):
        assert cli.main(["questions", "--ruleset", str(other), flag]) == 2
        assert "path" in capsys.readouterr().err
    assert _snapshot() == before
    target = tmp_path / "Q.md"
    assert cli.main(["questions", "--ruleset", str(other), "--write", str(target)]) == 0
    assert target.is_file() and _snapshot() == before
