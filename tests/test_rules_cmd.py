"""``chanspec rules``: every row of the table, its words' place, its values, and the
decisions of the machine that cite it (measured on seeded games)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.cli import cmd_rules, main
from chanspec.checks.conform import usage
from chanspec.model import source
from chanspec.model.chan import table

ROOT = Path(__file__).resolve().parent.parent
TABLE = table.load("family")
SEED_FILE = "002_b3948e333907311d.txt"
SAMPLE = ("--games", "1", "--seed", "5")  # 23 games: enough to cite most rows, quick


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def outputs() -> dict[str, Any]:
    """One run of each output form on the same sample (module-wide: each run plays the
    sample's games)."""
    import contextlib
    import io

    got: dict[str, Any] = {}
    for name, extra in (("both", ()), ("en", ("--lang", "en")), ("vi", ("--lang", "vi-only")),
                        ("json", ("--json",))):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["rules", *SAMPLE, *extra]) == 0
        got[name] = buf.getvalue()
    got["doc"] = json.loads(got["json"])
    return got


def _blocks(text: str) -> dict[str, str]:
    """Row id -> its block of the text output (a block starts with ``id — status``, or
    ``id «title» — status`` for a row with a short title)."""
    out: dict[str, str] = {}
    for block in text.split("\n\n")[1:]:
        m = re.match(r"([a-z0-9-]+)(?: «[^»\n]*»)? — ", block)
        if m:
            out[m.group(1)] = block
    return out


def test_every_row_of_the_family_table_is_listed(outputs: dict[str, Any]) -> None:
    assert [r["id"] for r in outputs["doc"]["rows"]] == list(TABLE.rows)
    for lang in ("both", "en", "vi"):
        assert list(_blocks(outputs[lang])) == list(TABLE.rows), lang


def test_a_ban_row_is_listed_with_what_it_refuses(outputs: dict[str, Any]) -> None:
    row = next(r for r in outputs["doc"]["rows"] if r["id"] == "pass-chan-ban")
    refusals = [d for d in row["decisions"] if d["use"] == "refuses"]
    assert refusals and all(d["count"] > 0 for d in refusals)
    block = _blocks(outputs["en"])["pass-chan-ban"]
    assert "Used by the machine to: refuses " in block and "refuses discard ×" in block
    assert "cấm đánh ×" in _blocks(outputs["vi"])["pass-chan-ban"]
    # and a row that only allows is not said to refuse
    win = next(r for r in outputs["doc"]["rows"] if r["id"] == "wall-card-any")
    assert win["decisions"] and {d["use"] for d in win["decisions"]} <= {"allows", "refuses"}


def test_every_option_row_lists_all_its_values(outputs: dict[str, Any]) -> None:
    rows = {r["id"]: r for r in outputs["doc"]["rows"]}
    blocks = _blocks(outputs["en"])
    options = [r for r in TABLE.rows.values() if r.is_option]
    assert len(options) >= 20
    for r in options:
        got = rows[r.id]
        assert [v["value"] for v in got["values"]] == list(r.values), r.id
        assert got["default"] == r.default
        assert [v["value"] for v in got["values"] if v["default"]] == [r.default]
        for v in r.values:
            mark = " (default)" if v == r.default else ""
            # the id to type, and the family's label beside it
            lab = f" «{r.label(v, 'en')}»" if r.label(v, "en") != v else ""
            assert f"    - {v}{lab}{mark}: {r.value_text[v]['en']}" in blocks[r.id], (r.id, v)
    assert all(rows[r.id]["values"] == [] for r in TABLE.rows.values() if not r.is_option)


def test_json_round_trips_and_agrees_with_the_text(outputs: dict[str, Any]) -> None:
    doc = outputs["doc"]
    assert json.loads(json.dumps(doc, ensure_ascii=False)) == doc
    assert doc["sample"]["seed"] == 5 and doc["sample"]["games_per_world"] == 1
    assert doc["sample"]["games"] == len(usage.worlds(TABLE))
    blocks = _blocks(outputs["en"])
    for r in doc["rows"]:
        b = blocks[r["id"]]
        title = f" «{r['title_en']}»" if r.get("title_en") else ""
        assert b.startswith(f"{r['id']}{title} — {r['status']}")
        assert r["locator"] is None or r["locator"] in b
        assert r["cite"] in b and r["en"] in b
        if r["decisions"]:
            said = "; ".join(f"{cmd_rules.decision_words(d)[1]} ×{d['count']}"
                             for d in r["decisions"])
            assert f"\n  Used by the machine to: {said}\n" in b + "\n", r["id"]
        else:
            assert f"Not cited in {doc['sample']['games']} games: words only" in b
        for place in r["structure"]:
            assert place in b
    # the Vietnamese side says the same, with the English beside it by default
    both = _blocks(outputs["both"])
    vi = _blocks(outputs["vi"])
    for r in doc["rows"]:
        assert r["vi"] in vi[r["id"]] and r["en"] not in vi[r["id"]]
        assert r["vi"] in both[r["id"]] and f"(en) {r['en']}" in both[r["id"]]


def test_decisions_are_measured_not_written(outputs: dict[str, Any]) -> None:
    """The counts are what the machine cited in the sample: recount one row directly."""
    u = usage.measure(TABLE, 1, 5)
    rows = {r["id"]: r for r in outputs["doc"]["rows"]}
    for rid, counter in u.decisions.items():
        assert sum(d["count"] for d in rows[rid]["decisions"]) == sum(counter.values())
    uncited = [rid for rid in TABLE.rows if rid not in u.decisions]
    assert uncited and all(rows[rid]["decisions"] == [] for rid in uncited)
    # the structure part names rows from the table's own params
    assert "turn.stuck_rule" in rows["stuck-discard"]["structure"]
    assert "claims.tie_break_rule" in rows["claim-seat-order"]["structure"]


def test_unknown_row_is_refused_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "rules", "--row", "pas-chan-ban", "--lang", "en")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Did you mean 'pass-chan-ban'?" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv, needle", [
    (("--games", "0"), "--games must be a whole number"),
    (("--games", "many"), "--games must be a whole number"),
    (("--seed", "-1"), "--seed must be a whole number"),
    (("--status", "closed"), "no status closed"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                          argv: tuple[str, ...], needle: str) -> None:
    code, out, err = _run(capsys, "rules", *argv, "--lang", "en")
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err, err


def test_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rules", *SAMPLE, "--row", "stuck-discard", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)["rows"]] == ["stuck-discard"]
    code, out, _ = _run(capsys, "rules", *SAMPLE, "--status", "open,provisional", "--json")
    got = [r["id"] for r in json.loads(out)["rows"]]
    assert got == [r.id for r in TABLE.rows.values() if r.status != "settled"]
    assert got and len(got) < len(TABLE.rows)


def test_the_seed_is_printed_and_the_same_seed_gives_the_same_output(
        capsys: pytest.CaptureFixture[str], outputs: dict[str, Any]) -> None:
    assert "seed 5." in outputs["en"].splitlines()[0]
    assert "hạt giống 5." in outputs["vi"].splitlines()[0]
    code, again, _ = _run(capsys, "rules", *SAMPLE, "--lang", "en")
    assert code == 0 and again == outputs["en"]
    code, other, _ = _run(capsys, "rules", "--games", "1", "--seed", "6", "--json")
    assert code == 0 and json.loads(other)["rows"] != outputs["doc"]["rows"]


def _seed_dir() -> Path | None:
    env = os.environ.get("CHANSPEC_SEEDS")
    for cand in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "seeds",
                                                 ROOT.parent.parent / "shared" / "seeds"]:
        if (cand / SEED_FILE).is_file():
            return cand
    return None


SEEDS = _seed_dir()


@pytest.mark.skipif(SEEDS is None, reason="the family's text (../shared/seeds) is not beside "
                    "this clone; set CHANSPEC_SEEDS to its folder")
def test_no_sentence_of_the_family_text_is_printed(outputs: dict[str, Any]) -> None:
    assert SEEDS is not None
    parts = source.parse((SEEDS / SEED_FILE).read_text(encoding="utf-8"))
    sentences = [s for p in parts.values() for block in p.paragraphs + p.bullets
                 for s in block if len(s) > 40]
    assert len(sentences) > 20
    for name in ("both", "en", "vi", "json"):
        found = [s for s in sentences if s in outputs[name]]
        assert not found, (name, found[:3])


def test_a_settled_row_shows_the_family_decision(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    text = (ROOT / "spec" / "family.toml").read_text(encoding="utf-8")
    head, sep, tail = text.partition('id = "lao-thang"')
    row, blank, rest = tail.partition("\n\n")
    row = row.replace('status = "open"', 'status = "settled"').replace(
        'default = "on"', 'value = "off"')
    row += ('\n[[rule.decision]]\ndate = "2026-11-30"\nvalue = "off"\nwas = "open"\n'
            'was_default = "on"\nnote = "Cả nhà đồng ý"\nby = "Bà"')
    path = tmp_path / "settled.toml"
    path.write_text(head + sep + row + blank + rest, encoding="utf-8")
    code, out, err = _run(capsys, "rules", "--ruleset", str(path), "--row", "lao-thang",
                          *SAMPLE, "--json")
    assert code == 0, err
    got = json.loads(out)["rows"]
    assert [r["id"] for r in got] == ["lao-thang"] and got[0]["status"] == "settled"
    assert got[0]["default"] == "off" and [v["value"] for v in got[0]["values"]] == ["on", "off"]
    assert got[0]["settled_by"] == [{"date": "2026-11-30", "value": "off", "was": "open",
                                     "was_default": "on", "note": "Cả nhà đồng ý", "by": "Bà"}]
    code, out, _ = _run(capsys, "rules", "--ruleset", str(path), "--row", "lao-thang", *SAMPLE)
    assert code == 0
    assert "Gia đình quyết định 2026-11-30 (Bà): off (trước là open) — Cả nhà đồng ý" in out
    assert "(en) The family decided on 2026-11-30 (Bà): off (was open) — Cả nhà đồng ý" in out


def test_a_tan_table_is_named_as_its_own_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The heading and each row's place in the text take the game's name from the table
    and its kind (``Tấn``), never Chắn's; nothing is said of citations never measured."""
    from chanspec.model import kinds

    tan = kinds.load("tan")
    assert kinds.of(tan).game("vi") == "Tấn" and kinds.of(tan).game("en") == "Tấn"
    for lang in ("vi", "en", "vi-only"):
        code, out, _ = _run(capsys, "rules", "--ruleset", "tan", "--lang", lang)
        assert code == 0 and "Bài Chắn" not in out, lang
        head = out.splitlines()[0]
        assert head.startswith("Rule table tan (Tấn): " if lang == "en"
                               else "Bảng luật tan (Tấn): "), head
        assert "Not cited in" not in out and "Không được viện dẫn" not in out
    blocks = _blocks(out)
    assert "Chỗ trong văn bản: Tấn ¶9 (đỡ cùng chất)" in blocks["beat-suit"]
    code, out, _ = _run(capsys, "rules", "--ruleset", "tan", "--json", "--row", "beat-suit")
    doc = json.loads(out)
    assert (doc["title_vi"], doc["title_en"], doc["kind"]) == ("Tấn", "Tấn", "tan")
    assert doc["rows"][0]["cite"] == "Tấn ¶9 (đỡ cùng chất)"
    assert doc["sample"]["policy"] is None  # the Chắn sample's policy is no Tấn words
    # the family's table keeps its text's name, and names itself in the heading
    code, out, _ = _run(capsys, "rules", "--games", "1", "--row", "pass-chan-ban",
                        "--lang", "en")
    assert out.startswith("Rule table family (Bài Chắn — the family's house rules): 1 rows.")
    assert "Where in the text: Bài Chắn §" in out


def test_a_player_count_error_names_where_the_table_lists_its_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "play", "--ruleset", "tan", "--players", "5")
    assert code == 2 and "it has: 2, 3, 4 ([deal] players of the table, row players)" in err
    assert "[[variant]]" not in err
    code, _, err = _run(capsys, "play", "--players", "7")
    assert code == 2 and "([[variant]] rows of the table)" in err
