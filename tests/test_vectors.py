"""Test vectors (vectors/): up to date, well formed, complete in coverage, and runnable
through the driver protocol the way an implementer would run them."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.conform import logs, vectors
from chanspec.checks.conform.refengine import Session
from chanspec.model import table
from chanspec.model.game import Action, State
from kit_helpers import VECTORS, vector_docs

jsonschema = pytest.importorskip("jsonschema")


def test_committed_vectors_are_not_stale(tmp_path: Path) -> None:
    # Regenerate from scratch in a temporary folder and compare every generated file.
    # If this fails after a change to the machine or the table, run:
    #     chanspec vectors --out vectors
    out = tmp_path / "vectors"
    out.mkdir()
    shutil.copy(VECTORS / "README.md", out / "README.md")
    t = table.load("family")
    vectors.write(out, t, vectors.generate(t))
    fresh = sorted(p.name for p in (out / "cases").glob("*.json"))
    committed = sorted(p.name for p in (VECTORS / "cases").glob("*.json"))
    assert fresh == committed, "run: chanspec vectors --out vectors"
    for name in fresh:
        assert (out / "cases" / name).read_text(encoding="utf-8") == (
            VECTORS / "cases" / name).read_text(encoding="utf-8"), (
            f"{name} is stale; run: chanspec vectors --out vectors")
    for name in ("index.json", "README.md"):
        assert (out / name).read_text(encoding="utf-8") == (VECTORS / name).read_text(
            encoding="utf-8"), f"{name} is stale; run: chanspec vectors --out vectors"


def test_check_rebuilds_from_inputs_and_finds_stale_cases(tmp_path: Path) -> None:
    assert vectors.check(VECTORS).ok
    copy = tmp_path / "v"
    shutil.copytree(VECTORS, copy)
    victim = sorted((copy / "cases").glob("*.json"))[3]
    doc = json.loads(victim.read_text(encoding="utf-8"))
    step = next(s for s in doc["steps"] if s["valid"] and len(next(iter(s["legal"].values()))) > 1)
    seat = next(iter(step["legal"]))
    step["legal"][seat] = step["legal"][seat][1:]
    victim.write_text(vectors.dumps_case(doc), encoding="utf-8")
    res = vectors.check(copy)
    assert res.stale == [doc["id"]] and not res.broken
    step["valid"] = False  # inputs that no longer play: a legal action marked invalid
    victim.write_text(vectors.dumps_case(doc), encoding="utf-8")
    res = vectors.check(copy)
    assert len(res.broken) == 1 and "marks it invalid" in res.broken[0]


def test_cases_match_their_schema_and_the_log_schema() -> None:
    case_schema = json.loads((VECTORS / "vector.schema.json").read_text(encoding="utf-8"))
    log_schema = json.loads((VECTORS / "log.schema.json").read_text(encoding="utf-8"))
    cv = jsonschema.Draft202012Validator(case_schema)
    lv = jsonschema.Draft202012Validator(log_schema)
    docs = vector_docs()
    assert docs
    for d in docs:
        errors = list(cv.iter_errors(d))
        assert not errors, (d["id"], errors[0].message, list(errors[0].path))
        for s in d["steps"]:
            for line in [s["action"], *s.get("then", [])]:
                assert lv.is_valid(line), (d["id"], line)


def test_every_row_and_option_value_is_exercised() -> None:
    t = table.load("family")
    docs = vector_docs()
    cov = vectors.coverage(t, docs)
    assert cov.uncovered_rows(t) == sorted(vectors.NOT_EXERCISABLE, key=list(t.rows).index)
    assert cov.uncovered_values(t) == []
    # each option value is exercised by a case run under that value
    for name, values in t.option_space():
        for v in values:
            for cid in cov.options[name][v]:
                d = next(x for x in docs if x["id"] == cid)
                assert d["start"]["options"][name] == v
    index = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in index["cases"]] == [d["id"] for d in docs]
    assert index["coverage"]["uncovered"] == list(vectors.NOT_EXERCISABLE)
    readme = (VECTORS / "README.md").read_text(encoding="utf-8")
    readme = readme[readme.index(vectors.COVERAGE_START):readme.index(vectors.COVERAGE_END)]
    for rid in t.rows:
        row = re.search(rf"^\| `{re.escape(rid)}` \|.*$", readme, re.M)
        assert row, rid
        cited = int(row.group(0).split("|")[4])
        assert cited == len(cov.rows[rid])
    total = sum(p.stat().st_size for p in (VECTORS).rglob("*") if p.is_file())
    assert total < 5 * 1024 * 1024


def test_every_case_runs_through_the_protocol() -> None:
    # what an implementer does with the vectors, with the reference behind the protocol
    for d in vector_docs():
        eng = Session()
        s = d["start"]
        assert eng.handle({"op": "start", **s})["ok"]

        def legal_now(eng: Session = eng, n: int = s["players"]) -> dict[str, set[str]]:
            out = {}
            for seat in range(n):
                r = eng.handle({"op": "legal", "seat": seat})
                assert r["ok"]
                acts = {" ".join(filter(None, [a["type"], a.get("card")])) for a in r["actions"]}
                if acts:
                    out[str(seat)] = acts
            return out

        for i, step in enumerate(d["steps"]):
            want = {k: set(v) for k, v in step["legal"].items()}
            assert legal_now() == want, (d["id"], i)
            r = eng.handle({"op": "apply", "action": step["action"]})
            assert r["ok"] == step["valid"], (d["id"], i, r)
            if not step["valid"]:
                assert legal_now() == want, "a refused action changes nothing"
        end = d["end"]
        out = eng.handle({"op": "outcome"})
        assert out["terminal"] == end["terminal"]
        if end["terminal"]:
            assert out["outcome"] == end["outcome"]
        else:
            assert legal_now() == {k: set(v) for k, v in end["legal"].items() if v}
            assert end["stuck"] == (not any(end["legal"].values()))


def test_the_readme_example_runs() -> None:
    readme = (VECTORS / "README.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(code) == 1
    exec(compile(code[0].replace('"vectors/cases"', repr(str(VECTORS / "cases"))),
                 "README.md", "exec"), {})


@pytest.mark.parametrize("value", ["none", "ca-same-face", "eat-same-face"])
def test_pass_ca_chiu_allowed_is_vacuous(value: str) -> None:
    # The reason vectors/README.md gives for pass-ca-chiu-allowed: a seat that let a card
    # go when it could eat it as a cạ can never take that face by chíu later (it held
    # fewer than three copies, and concealed hands never grow; or it held a copy and the
    # same pass triggered pass-chan-ban, which bans the chíu).
    passed_ca = 0
    for seed in range(60):
        rules = table.rules("family", 4 + seed % 2, {"pass-ca-ban": value})
        st = State.new(rules, seed=seed)
        rng = random.Random(seed)
        let_go: set[tuple[int, int]] = set()
        while not st.is_terminal():
            acts = st.legal_actions()
            if not acts:
                break
            w = st.window
            if w is not None:
                for seat, face in let_go:
                    if w.card == face:
                        assert Action("chiu", seat) not in acts, (seed, seat, face)
                        assert Action("chiu-u", seat) not in acts, (seed, seat, face)
            passes = [a for a in acts if a.kind == "pass"]
            a = rng.choice(passes) if passes and rng.random() < 0.6 else rng.choice(acts)
            if a.kind == "pass" and w is not None and a.seat == w.turn and any(
                    e.kind == "eat" and e.seat == a.seat and e.card != w.card for e in acts):
                let_go.add((a.seat, w.card))
                passed_ca += 1
            st.apply(a)
    assert passed_ca > 100


def test_cli(tmp_path: Path, capsys: Any) -> None:
    from chanspec.checks.cli import app as cli

    assert cli.main(["vectors", "--out", str(VECTORS), "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    out = tmp_path / "v"
    assert cli.main(["vectors", "--out", str(out), "--seeds", "1", "--extra-seeds", "3",
                     "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cases"] == len(list((out / "cases").glob("*.json"))) > 5
    assert (out / "README.md").read_text(encoding="utf-8").count("<!-- coverage:") == 2
    assert logs.FORMAT in (VECTORS / "README.md").read_text(encoding="utf-8")
