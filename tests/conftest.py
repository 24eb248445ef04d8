"""What the tests need beyond Python, said once.

The README's test command must pass on a machine with Python only.  Diagrams are drawn
by the `graphviz-pure` wheel (a dependency) or by Graphviz's ``dot``; the report's
JavaScript engine runs in `mini-racer` (embedded V8, a dev dependency) or in Node.js;
the browser test needs Chromium.  A test that needs one of them and finds none skips,
and the reason names what to install.  CI (.ci/run) installs Graphviz, Node.js and
Chromium, so there nothing skips.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from chanspec.checks.report import diagrams

needs_renderer = pytest.mark.skipif(
    diagrams.renderer() is None,
    reason="needs a DOT renderer: the graphviz-pure wheel (pip install graphviz-pure, a "
           "dependency of chanspec) or Graphviz's dot (apt install graphviz)")

needs_node = pytest.mark.skipif(
    shutil.which("node") is None, reason="needs Node.js's node (apt install nodejs)")


def _have_mini_racer() -> bool:
    try:
        import py_mini_racer  # noqa: F401
    except ImportError:
        return False
    return True


needs_mini_racer = pytest.mark.skipif(
    not _have_mini_racer(),
    reason="needs mini-racer (embedded V8: pip install mini-racer, in chanspec's dev extras)")


def chromium() -> str | None:
    """The Chromium executable on PATH, if any (PATH alone decides, so a PATH without it
    simulates a machine without it)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


needs_chromium = pytest.mark.skipif(
    chromium() is None,
    reason="needs Chromium (apt install chromium; .ci/run installs it)")

# The JavaScript runtimes the report's engine is tested in: each test runs in both,
# and each skips (naming what it needs) where that runtime is missing.
JS_RUNTIMES = [pytest.param("mini-racer", marks=needs_mini_racer, id="mini-racer"),
               pytest.param("node", marks=needs_node, id="node")]


def run_js(runtime: str, script: str, data: object, tmp_path: Path) -> object:
    """Run `script` with the report's win.js loaded as ``W`` and the JSON-able `data` as
    ``D``; the script's last expression is its result (JSON-able)."""
    from chanspec.checks.report import site

    win_js = Path(site.__file__).parent / "assets" / "win.js"
    if runtime == "mini-racer":
        from py_mini_racer import MiniRacer

        # a context that is not closed keeps the interpreter from exiting: `with`
        with MiniRacer() as ctx:
            ctx.eval(win_js.read_text(encoding="utf-8"))
            ctx.eval(f"var W = ChanWin; var D = {json.dumps(data)};")
            return json.loads(str(ctx.eval(f"JSON.stringify((function () {{ return {script}; "
                                            "})())")))
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    runner = (f"const W = require({json.dumps(str(win_js))}); const D = JSON.parse(require('fs')"
              f".readFileSync({json.dumps(str(tmp_path / 'data.json'))}, 'utf8'));\n"
              f"process.stdout.write(JSON.stringify({script}));\n")
    res = subprocess.run(["node", "-e", runner], check=True, capture_output=True, text=True,
                         timeout=300)
    return json.loads(res.stdout)
