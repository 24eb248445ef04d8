"""``chanspec check --ruleset tan``: the committed OPEN_QUESTIONS-tan.md/.json are what
the checker computes (the full recompute is marked slow; the digests and the rendering
are checked in the main suite), every play the page tells is legal on the machine and
told in the machine's words, and a bad scales file is a one-line error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.findings import protocol_findings as pf
from chanspec.model import kinds
from chanspec.model.table import TableError
from chanspec.model.tan import scales as scales_mod

ROOT = Path(__file__).resolve().parent.parent
MD, JSON = ROOT / "OPEN_QUESTIONS-tan.md", ROOT / "OPEN_QUESTIONS-tan.json"


def table() -> Any:
    return kinds.load("tan")


def committed() -> dict[str, Any]:
    return json.loads(JSON.read_text(encoding="utf-8"))


def test_the_committed_findings_are_of_this_table_and_these_scales() -> None:
    t = table()
    doc = committed()
    fresh_scales = [s.describe() for s in kinds.of(t).scales(t)]
    assert doc["table_digest"] == t.digest(), "run: chanspec check --ruleset tan"
    assert doc["scales"] == fresh_scales, "run: chanspec check --ruleset tan"
    assert doc["quick"] is False
    assert set(doc["questions"]) == {rid for rid, _ in pf.readings(t)}


def test_the_committed_page_is_the_rendering_of_the_committed_findings() -> None:
    assert MD.read_text(encoding="utf-8") == pf.render(table(), committed())


def _start(sc: Any, opts: dict[str, str], deal: int, n: int) -> Any:
    rules = sc.rules(opts)
    return sc.start(rules, sc.deals(rules, n)[deal])


def test_every_told_play_is_legal_on_the_machine_and_told_in_its_words() -> None:
    t = table()
    kind = kinds.of(t)
    by_name = {s.name: s for s in kind.scales(t)}
    doc = committed()
    told = 0
    for ex in doc["explorations"]:
        sc = by_name[ex["scale"]]
        for v in ex["violations"]:
            start = _start(sc, ex["options"], v["deal"], ex["deals"])
            assert pf.tell_deal(start) == v["deal_text"]
            st = start
            for code, line in zip(v["path"], v["told"], strict=True):
                a = next((x for x in st.legal_actions() if x.code() == code), None)
                assert a is not None, (ex["reading"], v["what"], code)
                assert list(kind.words.say_action(st, a)) == line
                st = st.child(a)
                told += 1
    for rid, q in doc["questions"].items():
        for sname, per in q["scales"].items():
            sc = by_name[sname]
            n = next(e["deals"] for e in doc["explorations"] if e["scale"] == sname)
            for value, f in per.items():
                p = f["parting"]
                if p is None:
                    continue
                a = _start(sc, {}, p["deal"], n)
                b = _start(sc, {rid: value}, p["deal"], n)
                for code, line in zip(p["path"], p["told"], strict=True):
                    x = next((y for y in a.legal_actions() if y.code() == code), None)
                    y = next((z for z in b.legal_actions() if z.code() == code), None)
                    assert x is not None and y is not None, (rid, value, code)
                    assert list(kind.words.say_action(a, x)) == line
                    a, b = a.child(x), b.child(y)
                    told += 1
                la = {x.code() for x in a.legal_actions()}
                lb = {x.code() for x in b.legal_actions()}
                if p["what"] == "legal":
                    assert la != lb
                    assert set(p["only_a"]) == la - lb and set(p["only_b"]) == lb - la
                    assert pf.tell_offer(kind, a, p["only_a"]) == p["offer_a"]
                else:  # one hand over and not the other, or two finishing orders
                    def result(st: Any) -> Any:
                        out = st.outcome()
                        return out and {k: v for k, v in out.items() if k != "rules"}

                    assert (result(a), result(b)) == (p["outcome_a"], p["outcome_b"])
                    assert p["outcome_a"] != p["outcome_b"]
    assert told > 50


def test_the_readings_part_where_the_text_says_they_should() -> None:
    """Row after-take (seed 003 ¶12 s3): after a take the two readings give the attack
    to different seats at once, at both scales; rows whose difference needs rounds
    longer than the scales allow (attack-limit) show none, said as such."""
    q = committed()["questions"]
    for sname in ("duo", "trio"):
        p = q["after-take"]["scales"][sname]["after-taker"]["parting"]
        assert p is not None and p["path"][-1].endswith("take") and p["what"] == "legal"
    for sname in ("duo", "trio"):
        f = q["attack-limit"]["scales"][sname]["six"]
        assert f["parting"] is None and f["complete"]
    assert "no difference at these scales" in MD.read_text(encoding="utf-8").lower()


def test_a_bad_scales_file_is_a_one_line_error_per_problem() -> None:
    t = table()
    good = {"name": "x", "players": 2, "suits": ["co", "bich"], "ranks": ["a", "k", "q"],
            "hand": 2, "deals": 1, "seed": 1, "vi": "v", "en": "e", "keeps_vi": "k",
            "keeps_en": "k", "drops_vi": "d", "drops_en": "d", "short_weakest": "k",
            "short_hand": 1}
    assert [s.name for s in scales_mod.from_data(t, {"schema": 1, "scale": [good]},
                                                              "s.toml")] == ["x"]
    for change, where in [({"suits": ["co", "xx"]}, "suits"), ({"hand": 4}, "hand"),
                          ({"players": 1}, "players"), ({"deals": 0}, "deals"),
                          ({"colour": 1}, "colour")]:
        with pytest.raises(TableError) as exc:
            scales_mod.from_data(t, {"schema": 1, "scale": [{**good, **change}]}, "s.toml")
        text = str(exc.value.problems[0])
        assert text.startswith("s.toml: scale") and where in text and "\n" not in text, text


@pytest.mark.slow
def test_the_committed_findings_are_what_the_checker_computes_now() -> None:
    t = table()
    fresh = pf.compute(t, kinds.of(t))
    assert pf.dumps(fresh) == JSON.read_text(encoding="utf-8"), (
        "OPEN_QUESTIONS-tan.json is stale: run chanspec check --ruleset tan")
    assert pf.render(t, fresh) == MD.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_command_runs_quick_in_english_and_writes_its_report(tmp_path: Path) -> None:
    # one run (the slow CI step has a budget): the text in English only, and the report
    # object --json prints, as the command writes it into --out
    q = subprocess.run([sys.executable, "-m", "chanspec.checks.cli", "check", "--ruleset",
                        "tan", "--quick", "--no-write", "--out", str(tmp_path / "o"), "--lang",
                        "en", "--quiet"], capture_output=True, text=True, timeout=600)
    assert q.returncode == 13, q.stderr  # a take can be answered by a take for ever
    assert "Exit code 13" in q.stdout and "Mã thoát" not in q.stdout
    rep = json.loads((tmp_path / "o" / "findings.json").read_text(encoding="utf-8"))
    assert rep["exit_code"] == 13 and rep["kind"] == "tan"
    assert {e["scale"] for e in rep["explorations"]} == {"duo", "trio"}
    assert (tmp_path / "o" / "report.txt").is_file()
