"""Frequencies as pictures: a share of hands drawn as 100 squares, one per 100 hands.

The findings count hands per 10,000 (`chanspec.checks.findings.render.how_often`).  A
family reads "81 of every 100 hands" from a 10×10 grid faster than "8.133 (7.990–8.269)":
`per_hundred_svg` draws the grid, filled row by row for the share (`filled_squares`),
with the chance level marked when the findings give one, and `figure_html` sets the
numbers beside it, with an accessible text.

The chance level of "changes the result" is its *placebo* (checks/findings/witness.py):
the table's own reading played on from the same parting points with the players' choices
drawn afresh, i.e. how often chance alone changes the result.  A measure that carries
``floor_per_10000`` (and ``floor_ci95``) gets the mark and the placebo's figure beside
its own, and, when the two 95% intervals overlap (``chance``), the words
`render.CHANCE_MARK`; one without it (how often a choice comes up) gets none, and its
text says that no chance level applies, rather than a mark made up here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from chanspec.checks.findings.render import CHANCE_MARK, whole
from chanspec.checks.report.markup import bi, esc

SIDE = 10        # squares per row and per column
CELL = 9         # px per square, gap included
GAP = 1


def filled_squares(per_10000: float) -> int:
    """The squares filled for a rate per 10,000 hands: its share of 100, rounded half up
    (8,133 -> 81, 50 -> 1, 49 -> 0), within 0..100."""
    if not math.isfinite(per_10000):
        raise ValueError(f"a rate per 10,000 hands must be a finite number, not {per_10000}")
    return max(0, min(SIDE * SIDE, math.floor(per_10000 / 100 + 0.5)))


def _xy(k: int) -> tuple[int, int]:
    return (k % SIDE) * CELL, (k // SIDE) * CELL


def per_hundred_svg(per_10000: float, label: str,
                    floor_per_10000: float | None = None) -> str:
    """The 10×10 grid as inline SVG: `filled_squares` squares filled (class ``on``), the
    rest empty (``off``); a share above zero that rounds to no square shows one square
    half filled (``part``), so that "rare" never looks like "never".  With
    `floor_per_10000`, the square where the chance level ends gets a mark (``floor``).
    `label` is the picture's accessible name (its <title>)."""
    on = filled_squares(per_10000)
    squares = []
    for k in range(SIDE * SIDE):
        x, y = _xy(k)
        cls = "on" if k < on else "off"
        squares.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{CELL - GAP}" '
                       f'height="{CELL - GAP}"/>')
    if on == 0 and per_10000 > 0:
        squares.append(f'<rect class="part" x="0" y="0" width="{(CELL - GAP) / 2}" '
                       f'height="{CELL - GAP}"/>')
    if floor_per_10000 is not None:
        k = filled_squares(floor_per_10000)
        x, y = _xy(min(k, SIDE * SIDE - 1))
        if k == SIDE * SIDE:
            x += CELL
        squares.append(f'<line class="floor" x1="{x - GAP / 2}" y1="{y - 1}" '
                       f'x2="{x - GAP / 2}" y2="{y + CELL}"/>')
    size = SIDE * CELL
    return (f'<svg class="per100" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="-1 -1 {size + 2} {size + 2}" width="{size + 2}" height="{size + 2}">'
            f"<title>{esc(label)}</title>{''.join(squares)}</svg>")


def _range(m: Mapping[str, Any], lang: str) -> str:
    lo, hi = m.get("ci95") or (m["per_10000"], m["per_10000"])
    return f"{whole(lo, lang)}–{whole(hi, lang)}"


def _floor_range(m: Mapping[str, Any], lang: str) -> str:
    lo, hi = m.get("floor_ci95") or (m["floor_per_10000"], m["floor_per_10000"])
    return f"{whole(lo, lang)}–{whole(hi, lang)}"


def figure_text(m: Mapping[str, Any], lang: str) -> str:
    """The picture in words: the measure, its share of 100 and its figure per 10,000
    with the 95% interval, and the chance level (the placebo, with its interval, and the
    chance mark when the intervals overlap) or that there is none."""
    n = filled_squares(m["per_10000"])
    floor = m.get("floor_per_10000")
    mark = f", {CHANCE_MARK[1 if lang == 'en' else 0]}" if m.get("chance") else ""
    if lang == "en":
        chance = (f"; by chance alone (placebo) about {filled_squares(floor)} in 100 "
                  f"({whole(floor, 'en')} in 10,000, {_floor_range(m, 'en')}){mark}"
                  if floor is not None else "; no chance level measured")
        return (f"{m['en']} about {n} of every 100 hands ({whole(m['per_10000'], 'en')} in "
                f"10,000, 95% interval {_range(m, 'en')}){chance}")
    chance = (f"; do may rủi chừng {filled_squares(floor)} trên 100 ({whole(floor, 'vi')} "
              f"trên 10.000, {_floor_range(m, 'vi')}){mark}"
              if floor is not None else "; chưa đo mức may rủi")
    return (f"{m['vi']} khoảng {n} trên 100 ván ({whole(m['per_10000'], 'vi')} trên 10.000 "
            f"ván, khoảng tin cậy 95% {_range(m, 'vi')}){chance}")


def figure_html(m: Mapping[str, Any]) -> str:
    """One measure (``vi``/``en`` words such as "gặp ở", ``per_10000``, ``ci95``, maybe
    ``floor_per_10000``): the grid with the numbers beside it.  The picture's <title>
    and the figure's label switch with the page's language (``data-label-*``)."""
    tvi, ten = figure_text(m, "vi"), figure_text(m, "en")
    svg = per_hundred_svg(m["per_10000"], tvi, m.get("floor_per_10000"))
    n = filled_squares(m["per_10000"])
    nums = bi(f"{m['vi']} ~{n}/100 ván", f"{m['en']} ~{n}/100 hands")
    fine = bi(f"{whole(m['per_10000'], 'vi')} / 10.000 ({_range(m, 'vi')})",
              f"{whole(m['per_10000'], 'en')} in 10,000 ({_range(m, 'en')})")
    if m.get("floor_per_10000") is not None:  # the placebo beside the figure
        fine += " " + bi(f"may rủi {whole(m['floor_per_10000'], 'vi')} "
                         f"({_floor_range(m, 'vi')})",
                         f"placebo {whole(m['floor_per_10000'], 'en')} "
                         f"({_floor_range(m, 'en')})")
    if m.get("chance"):
        fine += f' <span class="chance">{bi(*CHANCE_MARK)}</span>'

    return (f'<figure class="freqfig" role="group" aria-label="{esc(tvi)}" '
            f'data-label-vi="{esc(tvi)}" data-label-en="{esc(ten)}">{svg}'
            f'<figcaption><span class="big">{nums}</span> <span class="fine">{fine}</span>'
            f"</figcaption></figure>")


def figures_html(figures: Mapping[str, Any]) -> str:
    """A question's frequencies (`chanspec.checks.findings.render.frequency_figures`):
    what the figures are, then per reading and per player its pictures."""
    items = []
    for v in figures["values"]:
        players = []
        for p in v["players"]:
            figs = "".join(figure_html(m) for m in p["measures"])
            players.append(f'<div class="freqrow"><span class="lbl">'
                           f'{bi(p["vi"], p["en"])}</span>{figs}</div>')
        other = v.get("otherwise") or []
        if other:
            rows = "".join(f'<div class="freqrow"><span class="lbl">{bi(o["vi"], o["en"])}'
                           f'</span>{"".join(figure_html(m) for m in o["measures"])}</div>'
                           for o in other)
            head = bi("Nếu hiểu khác (người chơi tham)", "Read otherwise (greedy player)")
            players.append(f'<details class="otherwise"><summary>{head}</summary>'
                           f"{rows}</details>")
        items.append(f"<li>«{bi(v['vi'], v['en'])}»{''.join(players)}</li>")
    legend = figures.get("legend") or {}
    return (f"<p>{bi(legend.get('vi', ''), legend.get('en', ''))}</p>"
            f"<ul class='freqs'>{''.join(items)}</ul>")

