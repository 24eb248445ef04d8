"""Every Mermaid diagram chanspec writes parses: by a grammar of the flowchart subset it
emits (tests/mermaid_grammar.py), and by the Mermaid CLI where it is installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import mermaid_grammar as grammar
import pytest
from chanspec.checks.findings import compute, divergence, mermaid
from chanspec.checks.findings import questions as questions_mod
from chanspec.checks.report import diagrams, play_flow
from chanspec.model import kinds
from chanspec.model.chan import table
from hypothesis import given, settings
from hypothesis import strategies as st

BASE = table.load("family")
ROOT = Path(__file__).resolve().parents[1]


def _all_blocks() -> list[tuple[str, str]]:
    md = (ROOT / "OPEN_QUESTIONS.md").read_text(encoding="utf-8")
    out = [(f"OPEN_QUESTIONS.md block {i}", b) for i, b in enumerate(grammar.blocks(md))]
    out += [(f"docs/diagrams.md block {i}", b) for i, b in enumerate(grammar.blocks(
        (ROOT / "docs" / "diagrams.md").read_text(encoding="utf-8")))]
    out.append(("flow", diagrams.flow_mermaid(BASE)))
    for name, players in (("tan", 3), ("chiha", 3), ("family", 4)):  # chanspec flow
        rules = kinds.rules(name, players)
        out.append((f"play flow {name}",
                    diagrams.graph_mermaid(play_flow.graph(play_flow.observe(rules, 4, 0)))))
    return out


def test_open_questions_has_one_parsing_mermaid_block_per_witness() -> None:
    doc = compute.load()
    assert doc is not None
    md = (ROOT / "OPEN_QUESTIONS.md").read_text(encoding="utf-8")
    blocks = grammar.blocks(md)
    # a scaled-down witness or, when none was found, a hand of the full-size game
    with_witness = [rid for rid, q in doc["questions"].items()
                    if (q.get("witness") or q.get("full_witness")) and rid in BASE.rows
                    and BASE.rows[rid].status in ("open", "provisional")]
    assert len(blocks) == len(with_witness) >= 10
    for rid in with_witness:  # each question's block sits in its own section
        section = md.split(f'<a id="{rid}"></a>', 1)[1].split('<a id="', 1)[0]
        assert "```mermaid" in section and f"{rid}=" in section, rid


@pytest.mark.parametrize("name,text", _all_blocks(), ids=lambda x: x[:40])
def test_every_emitted_block_parses(name: str, text: str) -> None:
    assert grammar.problems(text) == [], name


def test_the_grammar_rejects_what_mermaid_would_reject() -> None:
    good = diagrams.flow_mermaid(BASE)
    assert grammar.problems(good) == []
    bad = {
        "raw quote": good.replace("chia bài / deal", 'chia "bài"'),
        "raw bracket": good.replace("#91;deck#93;", "[deck]"),
        "undefined node": good + "    n_deal --> n_nowhere\n",
        "unclosed subgraph": good.replace("flowchart TD\n", 'flowchart TD\n  subgraph s["x"]\n'),
        "keyword id": good + '    end["x"]\n',
        "no header": good.replace("flowchart TD", "flow TD"),
        "class without classDef": good + "    class n_deal nothing\n",
    }
    for what, text in bad.items():
        assert grammar.problems(text), what


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=40),
       st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=40))
def test_any_text_makes_a_valid_label_that_reads_back(a: str, b: str) -> None:
    fc = mermaid.Flowchart()
    fc.node("x1", a)
    fc.node("x2", b, "hexagon")
    fc.edge("x1", "x2", a + "\n" + b)
    text = fc.text()
    assert grammar.problems(text) == []
    label = text.split("\n")[1].split("[", 1)[1][:-1]
    assert grammar.unescape(label) == " ".join(a.split())


def test_vietnamese_and_punctuation_survive() -> None:
    s = 'Ghế 0 ăn "Nhất Văn" [cạ] #1 <ù> | `x` {y}'
    assert grammar.unescape('"' + mermaid.escape(s) + '"') == s


def test_divergence_pictures_end_in_what_differs() -> None:
    doc = compute.load()
    assert doc is not None
    pic = divergence.picture(BASE, doc["questions"]["empty-hand"]["witness"])
    ends = {b["value"]: b["end"]["kind"] for b in pic["branches"]}
    assert ends["as-written"] == "stuck" and ends["forbid"] == "win", ends
    # stuck-discard's shortest witness is now its third reading (forbid-claim refuses an
    # eat that would strand the eater): the branches part on the very first step
    w = doc["questions"]["stuck-discard"]["witness"]
    pic = divergence.picture(BASE, w)
    first = {b["value"]: b["steps"][0]["code"] for b in pic["branches"]}
    assert first[w["value_a"]] in w["only_a"] and first[w["value_b"]] in w["only_b"], first
    pic = divergence.picture(BASE, doc["questions"]["claim-seat-order"]["witness"])
    winners = {b["value"]: b["end"]["winner"] for b in pic["branches"]}
    assert winners["owner-first"] != winners["receiver-first"]
    for rid, q in doc["questions"].items():
        w = q.get("witness")
        if not w:
            continue
        pic = divergence.picture(BASE, w)
        assert [b["value"] for b in pic["branches"]] == [w["value_a"], w["value_b"]]
        assert [s["code"] for s in pic["common"]] == w["path"]
        for b in pic["branches"]:
            for s in b["steps"]:
                assert s["rules"] and all(r in BASE.rows for r in s["rules"]), (rid, s)
            if b["only"] and any(x.split(":")[1] not in ("pass", "timeout") for x in b["only"]):
                assert b["steps"][0]["code"] in b["only"], (rid, b)
        dot = diagrams.divergence_dot(pic, rid)
        assert dot.startswith("digraph") and f"{rid}={w['value_b']}" in dot


def test_finding_renders_its_mermaid_block() -> None:
    row = next(r for r in BASE.rows.values() if r.status == "open")
    f = questions_mod.Finding(mermaid='flowchart TD\n    a["x"]\n')
    md = questions_mod.render(BASE, {row.id: f})
    assert grammar.blocks(md) == ['flowchart TD\n    a["x"]\n']


def _mermaid_dir() -> str | None:
    """A folder whose node_modules has the Mermaid package and jsdom (CHANSPEC_MERMAID_DIR,
    or this checkout), when Node.js can load them."""
    if shutil.which("node") is None:
        return None
    for d in (os.environ.get("CHANSPEC_MERMAID_DIR"), str(ROOT)):
        if d and (Path(d) / "node_modules" / "mermaid").is_dir() and (
                Path(d) / "node_modules" / "jsdom").is_dir():
            return d
    return None


@pytest.mark.skipif(_mermaid_dir() is None, reason="Node.js with the npm packages mermaid and "
                    "jsdom is not available (npm install mermaid jsdom in a folder, then set "
                    "CHANSPEC_MERMAID_DIR to it); the grammar test above covers the emitted "
                    "subset")
def test_the_mermaid_package_parses_every_block() -> None:
    texts = [t for _, t in _all_blocks()] + ['flowchart TD\n    a["x"] -->\n']
    r = subprocess.run(["node", str(ROOT / "tests" / "mermaid_parse.mjs")],
                       input=json.dumps(texts), capture_output=True, text=True, timeout=300,
                       env={**os.environ, "CHANSPEC_MERMAID_DIR": str(_mermaid_dir())})
    assert r.returncode == 0, r.stderr[-2000:]
    verdicts = json.loads(r.stdout)
    assert verdicts[:-1] == [None] * (len(texts) - 1), [
        (name, v) for (name, _), v in zip(_all_blocks(), verdicts, strict=False) if v]
    assert verdicts[-1] is not None  # and it does reject a broken one


def _mmdc() -> str | None:
    return shutil.which("mmdc") or next((str(p) for p in [ROOT / "node_modules/.bin/mmdc"]
                                         if p.exists()), None)


@pytest.mark.skipif(_mmdc() is None, reason="the Mermaid CLI (mmdc, npm package "
                    "@mermaid-js/mermaid-cli, needs Node.js and a headless browser) is not "
                    "installed; the grammar test above covers the emitted subset")
def test_mermaid_cli_renders_every_block(tmp_path: Path) -> None:
    exe = _mmdc()
    assert exe is not None
    for i, (name, text) in enumerate(_all_blocks()):
        src = tmp_path / f"d{i}.mmd"
        src.write_text(text, encoding="utf-8")
        r = subprocess.run([exe, "-i", str(src), "-o", str(tmp_path / f"d{i}.svg")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, (name, r.stderr[-2000:])


def test_diagrams_page_shows_the_current_flow_as_mermaid() -> None:
    readme = (ROOT / "docs" / "diagrams.md").read_text(encoding="utf-8")
    marker = "<!-- flow-mermaid:"
    assert marker in readme
    block = grammar.blocks(readme.split(marker, 1)[1])[0]
    want = diagrams.flow_mermaid(BASE)
    assert block == want, ("docs/diagrams.md's flow diagram is stale; replace the ```mermaid block "
                           "after '<!-- flow-mermaid:' with:\n" + want)
