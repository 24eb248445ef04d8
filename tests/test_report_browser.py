"""The report in a real browser: headless Chromium from Debian, driven over the Chrome
DevTools Protocol through ``--remote-debugging-pipe`` (file descriptors 3 and 4), so only
the standard library is needed: no websocket package, nothing downloaded.

Opens the site from file://, switches the language, opens a scenario, uses the hand
explorer, takes screenshots at 360 px and 1280 px (checked not blank with a small PNG
decoder), and fails on script errors, console errors and broken links.
Set CHANSPEC_SCREENSHOTS=DIR to keep the screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from chanspec.checks.findings import questions
from chanspec.checks.report import site as report
from chanspec.model.chan import cards, table
from conftest import chromium, needs_chromium

CHROMIUM = chromium()
pytestmark = needs_chromium

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--hide-scrollbars", "--mute-audio"]


class Browser:
    """A Chromium process and one page, spoken to over the DevTools pipe."""

    def __init__(self, exe: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="chanspec-chromium-")
        cmd_r, cmd_w = os.pipe()  # our commands -> the browser's fd 3
        res_r, res_w = os.pipe()  # the browser's fd 4 -> our replies

        def child_fds() -> None:
            a, b = os.dup(cmd_r), os.dup(res_w)  # move out of the way of 3 and 4 first
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(os.path.join(self.profile, "chromium.log"), "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=child_fds, close_fds=False)
        os.close(cmd_r)
        os.close(res_w)
        self.w, self.r = cmd_w, res_r
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.w, self.r):
            os.close(fd)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = True, timeout: float = 30) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            m = self._read(end)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def _read(self, end: float) -> dict[str, Any]:
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe (did it crash?)")
                self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def js(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True})
        if "exceptionDetails" in res:
            raise AssertionError(f"script failed: {expression}\n{res['exceptionDetails']}")
        return res["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.js(expression)
            if v:
                return v
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for: {expression}")

    def open(self, url: str) -> None:
        """Load url afresh (through about:blank, so a change of #hash reloads too)."""
        self.call("Page.navigate", {"url": "about:blank"})
        self.wait_for("location.href === 'about:blank'")
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && document.body "
                      "&& document.body.dataset.ready === '1'")

    def viewport(self, width: int, height: int = 900) -> None:
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": width < 600})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])

    def problems(self) -> list[str]:
        """Script exceptions, console errors and failed loads seen so far."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(f"exception: {p['exceptionDetails'].get('text')} "
                           f"{p['exceptionDetails'].get('exception', {}).get('description')}")
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(f"console.{p['type']}: {p.get('args')}")
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out


# --------------------------------------------------------------------------- PNG


def decode_png(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, raw pixel rows) of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, []
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev, strict=True))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        else:
            assert f == 0, f"bad PNG filter {f}"
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, bpp, bytes(out)


def ink_share(png: bytes) -> tuple[int, float]:
    """(width, share of pixels that differ from the most common colour)."""
    w, h, bpp, px = decode_png(png)
    pixels = Counter(px[i:i + 3] for i in range(0, len(px), bpp))
    return w, 1 - pixels.most_common(1)[0][1] / (w * h)


def test_png_decoder_reads_a_known_image() -> None:
    rows = [b"\x00" + bytes([255, 0, 0, 0, 0, 255]), b"\x02" + bytes([0, 0, 0, 0, 0, 0])]
    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
           + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
    assert decode_png(png) == (2, 2, 3, bytes([255, 0, 0, 0, 0, 255] * 2))
    assert ink_share(png) == (2, 0.5)


# --------------------------------------------------------------------------- the site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-site")
    svg = out.parent / "flow.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80">'
                   '<rect width="200" height="80" fill="#36c"/></svg>', encoding="utf-8")
    steps = [
        {"seat": 0, "action": {"vi": "Ghế 0 bốc Bát Vạn.", "en": "Seat 0 draws Bát Vạn."},
         "cards": ["8v"], "hands": {0: ["8v", "8v", "8v"], 1: ["8s", "9n"]},
         "gates": {0: ["8v"], 1: []}},
        {"seat": 0, "action": {"vi": "Ghế 0 Chíu.", "en": "Seat 0 takes it by chíu."},
         "hands": {0: [], 1: ["8s", "9n"]}, "laid": {0: [["8v"] * 4]}, "gates": {0: []}},
    ]
    findings = {
        "lao-thang": {"scenarios": [{"steps": steps}], "frequency": 0.5},
        "timeout": questions.Finding(steps_vi=("Ghế 1 im lặng.",),
                                     steps_en=("Seat 1 stays silent.",)),
    }
    report.build_report(out / "site", findings=findings, svgs=[svg])
    return out / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    b = Browser(CHROMIUM)
    try:
        yield b
    finally:
        b.close()


def url(site: Path, name: str, frag: str = "") -> str:
    return site.joinpath(name).as_uri() + (f"#{frag}" if frag else "")


def visible_text(b: Browser, selector: str) -> str:
    return b.js(f"document.querySelector({json.dumps(selector)}).innerText")


def test_language_switch_is_remembered(browser: Browser, site: Path) -> None:
    b = browser
    b.viewport(1280)
    b.open(url(site, "index.html"))
    assert b.js("localStorage.removeItem('chanspec-lang') || true")
    b.open(url(site, "index.html"))
    assert b.js("document.documentElement.dataset.lang") == "vi"
    assert visible_text(b, "h1") == "Luật chơi"
    assert "Bốn người" in visible_text(b, "#r-deal-4")
    b.js("document.getElementById('lang-switch').click()")
    assert b.js("document.documentElement.lang") == "en"
    assert visible_text(b, "h1") == "Rulebook"
    assert "Four players" in visible_text(b, "#r-deal-4")
    assert "lang=en" in b.js("location.hash")
    assert b.js("document.querySelector('a[href^=\"questions.html\"]').getAttribute('href')") \
        .endswith("lang=en")
    # remembered across pages (localStorage), and given by the hash too
    b.open(url(site, "questions.html"))
    assert visible_text(b, "h1") == "Open questions"
    b.open(url(site, "explorer.html", "lang=vi"))
    assert visible_text(b, "h1") == "Thử bài ù"
    assert b.js("document.title").startswith("Thử bài ù")
    b.js("document.getElementById('lang-switch').click()")  # back to English...
    b.js("document.getElementById('lang-switch').click()")  # ...and Vietnamese again
    assert b.js("localStorage.getItem('chanspec-lang')") == "vi"
    assert b.problems() == []


def test_scenario_opens_and_shows_the_table(browser: Browser, site: Path) -> None:
    b = browser
    b.viewport(1280)
    b.open(url(site, "questions.html", "lang=vi"))
    assert b.js("document.getElementById('sc-lao-thang-1').open") is False
    b.js("document.querySelector('#sc-lao-thang-1 > summary').click()")
    assert b.js("document.getElementById('sc-lao-thang-1').open") is True
    # a link to a question (as the rulebook makes) opens its scenario and scrolls to it
    b.open(url(site, "questions.html", "q-lao-thang&lang=vi"))
    assert b.js("document.getElementById('sc-lao-thang-1').open") is True
    assert b.js("window.scrollY") > 0
    text = visible_text(b, "#sc-lao-thang-1")
    assert "Ghế 0 bốc Bát Vạn." in text and "Cửa của Ghế 0 (mời Ghế 1)" in text
    assert "Seat 0 draws" not in text  # English hidden while Vietnamese is chosen
    red = b.js("""(() => { const t = document.querySelector('#sc-lao-thang-1 .tile.red');
        const r = t.getBoundingClientRect(); const s = getComputedStyle(t);
        return {h: r.height, w: r.width, color: s.color, text: t.innerText,
                label: t.getAttribute('aria-label'), border: s.borderTopStyle}; })()""")
    assert red["h"] > 20 and red["w"] > 20
    assert red["color"] == "rgb(179, 0, 27)" and red["border"] == "double"
    assert "◆đỏ" in red["text"] and red["label"] == "Bát Vạn, quân đỏ"
    # a question without a scenario says so
    assert "Chưa tính được" in visible_text(b, "#q-reclaim-deadline")
    assert "Ghế 1 im lặng." in visible_text(b, "#q-timeout")
    b.js("document.getElementById('lang-switch').click()")
    assert "Seat 0 draws Bát Vạn." in visible_text(b, "#sc-lao-thang-1")
    assert b.js("document.querySelector('#sc-lao-thang-1 .tile.red')"
                ".getAttribute('aria-label')") == "Bát Vạn, red card"
    b.js("document.getElementById('lang-switch').click()")
    assert b.problems() == []


def _pick(b: Browser, codes: str, cand: str | None, players: int = 4) -> list[dict[str, Any]]:
    b.js("document.getElementById('clear').click()")
    b.js(f"document.querySelector('input[name=players][value=\"{players}\"]').click()")
    for f in cards.parse_many(codes):
        b.js(f"document.querySelector('button.add[data-face=\"{f}\"]').click()")
    value = "" if cand is None else str(cards.parse(cand))
    b.js(f"(() => {{ const s = document.getElementById('cand'); s.value = {json.dumps(value)};"
         " s.dispatchEvent(new Event('change')); })()")
    return b.js("""[...document.querySelectorAll('#verdict-body .verdict')].map(v => ({
        win: v.dataset.win, chan: v.dataset.chan, text: v.innerText}))""")


def test_hand_explorer_gives_a_verdict_per_open_rule(browser: Browser, site: Path) -> None:
    b = browser
    b.viewport(1280)
    b.open(url(site, "explorer.html", "lang=vi"))
    nhat = "1v 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n 4n"
    got = _pick(b, nhat, "1n")
    assert b.js("document.getElementById('count-1').textContent") == "×2"
    assert "Đã chọn 23 quân" in visible_text(b, "#hand-status")
    assert len(got) == 4
    by = {("yeu-only" in v["text"], "lao-thang = on" in v["text"]): v for v in got}
    assert by[(True, True)]["win"] == "true" and by[(True, True)]["chan"] == "11"
    assert "Ù được" in by[(True, True)]["text"] and "Chắn" in by[(True, True)]["text"]
    assert by[(False, True)]["win"] == "false"
    assert "Cạ đặc biệt không được làm đôi cuối" in by[(False, True)]["text"]
    assert "phụ thuộc vào luật còn mở" in visible_text(b, "#verdict-body")
    # clicking − takes a card away; a card short is explained
    b.js("document.querySelector('button.sub[data-face=\"1\"]').click()")
    assert "không thể thành 12 đôi" in visible_text(b, "#verdict-body")
    # five players, the sample hand wins everywhere
    b.js("document.querySelector('input[name=players][value=\"5\"]').click()")
    b.js("document.getElementById('sample').click()")
    wins = b.js("[...document.querySelectorAll('#verdict-body .verdict')]"
                ".map(v => v.dataset.win)")
    assert wins == ["true"] * 4
    assert "cùng một kết quả" in visible_text(b, "#verdict-body")
    # Chi Chi never completes ù
    got = _pick(b, nhat.replace("1v ", "chi "), "chi")
    assert [v["win"] for v in got] == ["false"] * 4
    assert all("không bao giờ được là quân hoàn thành Ù" in v["text"] for v in got)
    assert b.problems() == []


def _live_refs(b: Browser) -> list[str]:
    return b.js("[...document.querySelectorAll('[href],[src]')]"
                ".map(e => e.href || e.src)")


@pytest.mark.parametrize("width", [360, 1280])
def test_pages_render_at_phone_and_desktop_widths(browser: Browser, site: Path,
                                                  width: int) -> None:
    b = browser
    keep = os.environ.get("CHANSPEC_SCREENSHOTS")
    b.viewport(width)
    for name, _, _ in report.PAGES:
        b.open(url(site, name, "lang=vi"))
        if name == "explorer.html":
            b.js("document.getElementById('sample').click()")
        if name == "questions.html":
            b.js("document.querySelector('#sc-lao-thang-1 > summary').click()")
        b.wait_for("[...document.images].every(i => i.complete)")
        png = b.screenshot()
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            Path(keep, f"{name[:-5]}-{width}.png").write_bytes(png)
        w, ink = ink_share(png)
        assert w == width
        assert ink > 0.03, f"{name} at {width} px looks blank ({ink:.1%} ink)"
        # nothing wider than the screen (no sideways scrolling at 360 px)
        assert b.js("document.documentElement.scrollWidth") <= width, name
        # every link and source in the live page (after scripts ran) is a file of the site
        for ref in _live_refs(b):
            u = urlparse(ref)
            assert u.scheme == "file", f"{name}: {ref} leaves the site"
            assert Path(unquote(u.path)).is_file(), f"{name}: broken link {ref}"
        # pictures loaded
        assert b.js("[...document.images].every(i => i.naturalWidth > 0)"), name
    assert b.problems() == []


def test_tiles_have_text_alternatives(browser: Browser, site: Path) -> None:
    b = browser
    b.viewport(360)
    b.open(url(site, "explorer.html", "lang=vi"))
    labels = b.js("[...document.querySelectorAll('.tile')].map(t => t.getAttribute('aria-label'))")
    red = table.load("family").resolve(4).red
    assert labels == [cards.name(f) + (", quân đỏ" if f in red else "") for f in range(30)]
    assert "Bát Vạn, quân đỏ" in labels and "Chi Chi, quân đỏ" in labels
    assert "Tam Văn" in labels
    # the red mark is text in the tile, not colour only
    assert b.js("[...document.querySelectorAll('.tile.red')].every(t => "
                "t.innerText.includes('◆đỏ'))")
    buttons = b.js("[...document.querySelectorAll('button')].map(x => "
                   "x.getAttribute('aria-label') || x.innerText.trim())")
    assert all(buttons)
    assert b.problems() == []


def test_diagrams_pan_zoom_and_have_a_description(browser: Browser, site: Path) -> None:
    """In the browser: the wheel zooms a diagram at the pointer, a drag moves it, 0 fits
    it again; the picture is described for screen readers."""
    b = browser
    b.viewport(1280)
    b.open(url(site, "diagrams.html", "lang=vi"))
    b.wait_for("[...document.images].every(i => i.complete)")
    fig = "document.querySelector('figure.diagram')"
    assert b.js(f"{fig}.panZoom.state()") == [1, 0, 0]  # 200 px fits
    b.js(f"{fig}.querySelector('.zoom').dispatchEvent(new WheelEvent('wheel', "
         "{deltaY: -100, clientX: 0, clientY: 0, bubbles: true, cancelable: true}))")
    s, _, _ = b.js(f"{fig}.panZoom.state()")
    assert s == pytest.approx(1.2)
    assert "scale(1.2)" in b.js(f"{fig}.querySelector('img').style.transform")
    b.js(f"{fig}.querySelector('[data-zoom=in]').click()")
    assert b.js(f"{fig}.panZoom.state()")[0] == pytest.approx(1.44)
    b.js(f"{fig}.querySelector('.zoom').dispatchEvent(new KeyboardEvent('keydown', "
         "{key: '0', bubbles: true}))")
    assert b.js(f"{fig}.panZoom.state()") == [1, 0, 0]
    img_desc = b.js(f"{fig}.querySelector('img').getAttribute('aria-describedby')")
    assert b.js(f"document.getElementById('{img_desc}').textContent") != ""
    assert b.problems() == []


@pytest.fixture(scope="module")
def saved_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The family's report built from its saved findings (OPEN_QUESTIONS.json)."""
    from chanspec.checks.findings import compute, render

    fam = table.load("family")
    found = render.report_findings(compute.load(), fam)
    assert found, "the saved findings are fresh"
    out = tmp_path_factory.mktemp("saved-site") / "site"
    report.build_report(out, table=fam, findings=found)
    return out


def _keep(name: str, png: bytes) -> Path:
    """Screenshots go to CHANSPEC_SCREENSHOTS, or to a folder under the system's tmp."""
    where = Path(os.environ.get("CHANSPEC_SCREENSHOTS")
                 or Path(tempfile.gettempdir()) / "chanspec-screenshots")
    where.mkdir(parents=True, exist_ok=True)
    path = where / name
    path.write_bytes(png)
    return path


def test_the_rulebook_heads_rows_by_title_in_chromium(browser: Browser, saved_site: Path
                                                      ) -> None:
    b = browser
    b.viewport(1280)
    b.open(url(saved_site, "index.html", "lang=vi"))
    heads = b.js("[...document.querySelectorAll('article.rule h3')].map(h => h.innerText)")
    fam = table.load("family")
    assert len(heads) == len(fam.rows)
    assert not any(rid in h.split() for h in heads for rid in fam.rows)
    assert heads[0].startswith(fam.rows["deck"].title_vi)
    where = visible_text(b, "#r-deck .where")
    assert "§1, đoạn đầu" in where and "first paragraph" not in where
    anchor = b.js("""(() => { const a = document.querySelector('#r-deck a.rid');
        const s = getComputedStyle(a); return {text: a.innerText,
        size: parseFloat(s.fontSize), code: !!a.querySelector('code')}; })()""")
    base = b.js("parseFloat(getComputedStyle(document.body).fontSize)")
    assert anchor["text"] == "deck" and anchor["code"] and anchor["size"] < base
    png = b.screenshot()
    _keep("rulebook-1280.png", png)
    assert ink_share(png)[1] > 0.03
    assert b.problems() == []


def test_a_question_draws_hands_as_cards_and_frequencies_as_squares(browser: Browser,
                                                                    saved_site: Path) -> None:
    b = browser
    b.viewport(1280, 2400)
    b.open(url(saved_site, "questions.html", "q-lao-thang&lang=vi"))
    b.js("document.querySelectorAll('#q-lao-thang details.scenario').forEach(d => d.open = true)")
    rows = b.js("""[...document.querySelectorAll('#q-lao-thang .deal')][0] ?
        [...[...document.querySelectorAll('#q-lao-thang .deal')][0]
          .querySelectorAll('.deal-row')].map(r => { const ts = r.querySelectorAll('.tile');
            const t = ts[0].getBoundingClientRect(), u = ts[ts.length - 1].getBoundingClientRect();
            return {n: ts.length, w: t.width, h: t.height, label: r.getAttribute('aria-label'),
                    wrapped: u.top > t.top}; }) : []""")
    # one row per seat of the scenario's hand (the full-size witness: the earliest parting
    # over every trial run, here at whichever player count it came from), each seat's cards
    from chanspec.checks.findings import compute as saved

    q = saved.load()["questions"]["lao-thang"]
    w = q.get("full_witness") or q["witness"]
    assert len(rows) == int(w["players"]), rows
    assert sorted(r["n"] for r in rows) == sorted(len(h) for h in w["deal"]["hands"])
    assert all(r["w"] > 20 and r["h"] > 30 for r in rows)
    assert all(r["label"].startswith(f"Ghế {s}") for s, r in enumerate(rows))
    # its words are there for a screen reader, folded for the eye
    assert b.js("document.querySelector('#q-lao-thang .deal + details').open") is False
    b.js("document.querySelectorAll('#q-lao-thang details.otherwise').forEach(d => d.open = true)")
    figs = b.js("""[...document.querySelectorAll('#q-lao-thang svg.per100')].map(s => {
        const r = s.getBoundingClientRect(); return {w: r.width, h: r.height,
        on: s.querySelectorAll('rect.on').length, all: s.querySelectorAll('rect').length,
        title: s.querySelector('title').textContent,
        beside: s.parentElement.querySelector('figcaption').innerText,
        otherwise: !!s.closest('details.otherwise')}; })""")
    # two measures for each player at each player count (greedy and uniform, 4 and 5
    # players), then, read otherwise (greedy player), the table as it is and each reading
    # of another row that changes this question
    from chanspec.checks.findings import compute
    from chanspec.checks.report import figures

    f = compute.load()["questions"]["lao-thang"]["frequency"]["off"]
    runs = compute.measured(f)
    n_other = 2 * (1 + len(f.get("blame") or [])) if f.get("blame") else 0
    assert [x["otherwise"] for x in figs] == [False] * (2 * len(runs)) + [True] * n_other, figs
    assert all(x["w"] >= 80 and x["h"] >= 80 and x["all"] >= 100 for x in figs)
    want = [figures.filled_squares(x) for pf in runs
            for x in (pf["per_10000"], pf["changed_per_10000"])]
    if f.get("blame"):
        want += want[:2] + [figures.filled_squares(x) for b0 in f["blame"]
                            for x in (b0["per_10000"], b0["changed_per_10000"])]
    assert [x["on"] for x in figs] == want
    # the placebo beside each "changes the result", in the picture's words too
    assert all("may rủi" in x["beside"] and "do may rủi" in x["title"] for x in figs[1::2])
    assert all("may rủi" not in x["beside"] for x in figs[0::2])
    assert "gặp ở" in figs[0]["beside"] and "/ 10.000" in figs[0]["beside"]
    assert "trên 100 ván" in figs[0]["title"]
    b.js("document.getElementById('q-lao-thang').scrollIntoView()")
    png = b.screenshot()
    _keep("question-lao-thang-1280.png", png)
    assert ink_share(png)[1] > 0.03
    b.viewport(360)
    b.open(url(saved_site, "questions.html", "q-lao-thang&lang=vi"))
    assert b.js("document.documentElement.scrollWidth") <= 360
    _keep("question-lao-thang-360.png", b.screenshot())
    assert b.problems() == []
