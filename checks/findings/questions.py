"""OPEN_QUESTIONS.md: the table's open and provisional rows, as questions for the family.

`render(table, findings)` is a pure function of the table (and of optional extra
content per row id), so the file is reproducible and a test can tell when it is stale.

A `Finding` is what a checker learnt about one question: a scenario that reaches it
(steps, in both languages), how often it comes up, and what each option value does
there.  Commands that explore games pass findings in; rows without one are rendered
from the table alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chanspec.model.chan.table import Table
from chanspec.model.source import cite_section
from chanspec.model.table import Row

FILE_NAME = "OPEN_QUESTIONS.md"

STATUS_TEXT = {
    "open": ("còn mở — gia đình chưa quyết", "open — the family has not decided"),
    "provisional": ("tạm thời — đang dùng mặc định, chờ xác nhận",
                    "provisional — a default is in use, awaiting confirmation"),
}
STATUS_SHORT = {"open": ("còn mở", "open"), "provisional": ("tạm thời", "provisional")}
FOUND_BY_TEXT = {
    "family": ("gia đình tự nêu trong văn bản", "the family, in their own text"),
    "checker": ("máy kiểm tra phát hiện (văn bản không nói)",
                "found by the checker (the text does not say)"),
    "reading": ("đọc kỹ từng câu của văn bản: lời văn cho phép hơn một cách hiểu",
                "a sentence-by-sentence reading: the words allow more than one reading"),
}
FOUND_BY_SHORT = {"family": ("gia đình", "the family"), "checker": ("máy kiểm tra", "the checker"),
                  "reading": ("đọc kỹ văn bản", "a close reading")}
LANGS = ("vi", "en", "vi-only")


@dataclass(frozen=True)
class Effect:
    """What one option value does in a finding's scenario."""

    vi: str
    en: str


@dataclass(frozen=True)
class Finding:
    """Extra content for one question, produced by a checker.

    ``steps_vi``/``steps_en`` are the scenario's steps (same length); ``frequency_vi``/
    ``frequency_en`` say how often the situation arises (e.g. from random games): a first
    line, then one line per reading (shown as a list);
    ``effects`` maps option values to what happens under each; ``source`` says which
    command or seed produced it, so anyone can reproduce it; ``mermaid`` is the
    divergence picture (checks/findings/divergence.py), embedded as a ```mermaid block.
    """

    steps_vi: Sequence[str] = ()
    steps_en: Sequence[str] = ()
    frequency_vi: str | None = None
    frequency_en: str | None = None
    effects: Mapping[str, Effect] = field(default_factory=dict)
    source: str | None = None
    mermaid: str | None = None  # the divergence picture as a Mermaid flowchart
    weight: float = 0.0  # how often the question changes a hand's result (per 10,000)
    blame_vi: str | None = None  # the other rows' readings the scenario rests on
    blame_en: str | None = None
    footnote: str | None = None  # the ids behind it, one small line (``<sub>…</sub>``)
    # how often, as the table reads today and under each of those readings
    frequency_blame_vi: str | None = None
    frequency_blame_en: str | None = None

    def __post_init__(self) -> None:
        if len(self.steps_vi) != len(self.steps_en):
            raise ValueError("a finding needs as many English steps as Vietnamese ones")


def question_rows(table: Table) -> list[Row]:
    """The open and provisional rows, in table order."""
    return [r for r in table.rows.values() if r.status in ("open", "provisional")]


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def label(lang: str, vi: str, en: str) -> str:
    """A short label: ``vi / en``; ``en`` alone in English, ``vi`` alone in vi-only."""
    return en if lang == "en" else vi if lang == "vi-only" else f"{vi} / {en}"


def text(lang: str, vi: str, en: str, sep: str = " — ") -> str:
    """Vietnamese text with its English in italics, or one of them alone."""
    return en if lang == "en" else vi if lang == "vi-only" else f"{vi}{sep}*{en}*"


_label, _text = label, text


def title(row: Row, lang: str) -> str:
    """A question's title: ``title_vi — *title_en*``, or one of them alone."""
    return text(lang, row.title("vi"), row.title("en"))


def value_cell(row: Row, value: str, lang: str) -> str:
    """A reading named by its label (never its id), marked when it is the default."""
    lab = label(lang, row.label(value, "vi"), row.label(value, "en"))
    mark = f" **({label(lang, 'mặc định', 'default')})**" if value == row.default else ""
    return f"«{lab}»{mark}"


def steps(lang: str, vis: Sequence[str], ens: Sequence[str], start: int = 1) -> list[str]:
    """Numbered scenario lines from `start`: English only, Vietnamese only, or each
    Vietnamese line with its English below (``vi``)."""
    out = []
    for i, (vi, en) in enumerate(zip(vis, ens, strict=True), start):
        if lang == "en":
            out.append(f"{i}. {en}")
        elif lang == "vi-only":
            out.append(f"{i}. {vi}")
        else:
            out.append(f"{i}. {vi}  ")
            out.append(f"   *{en}*")
    return out


def _render_finding(row: Row, f: Finding, lang: str = "vi") -> list[str]:
    out = ["", f"#### {label(lang, 'Tình huống', 'Scenario')}", ""]
    out += steps(lang, f.steps_vi, f.steps_en)
    if f.frequency_vi or f.frequency_en:
        # the first line says what the figures are; each further line is one reading
        vis = (f.frequency_vi or "").split("\n")
        ens = (f.frequency_en or "").split("\n")
        ens += [""] * (len(vis) - len(ens))
        vis += [""] * (len(ens) - len(vis))
        out.append("")
        out.append(f"**{label(lang, 'Mức thường gặp', 'How often')}:** "
                   + text(lang, vis[0], ens[0]))
        if len(vis) > 1:
            out.append("")
            out += [f"- {text(lang, v, e)}" for v, e in zip(vis[1:], ens[1:], strict=True)]
    if f.blame_en:
        out.append("")
        out.append(f"**{label(lang, 'Phụ thuộc', 'Depends on')}:** "
                   + text(lang, f.blame_vi or "", f.blame_en))
    if f.frequency_blame_en:
        out.append("")
        out.append(f"**{label(lang, 'Nếu hiểu khác', 'How often, read otherwise')}:** "
                   + text(lang, f.frequency_blame_vi or "", f.frequency_blame_en))
    if f.effects:
        out.append("")
        out.append(f"| {label(lang, 'cách hiểu', 'reading')} | "
                   f"{label(lang, 'điều xảy ra', 'what happens')} |")
        out.append("|---|---|")
        known = [(v, "") for v in row.values if v in f.effects]
        known += [(v, " (?)") for v in f.effects if v not in row.values]
        for value, mark in known:
            eff = f.effects[value]
            out.append(f"| {value_cell(row, value, lang)}{mark} | "
                       f"{text(lang, _one_line(eff.vi), _one_line(eff.en), '<br>')} |")
    if f.mermaid:
        head = label(lang, "Sơ đồ: nơi các cách hiểu tách ra", "Diagram: where the readings part")
        out += ["", f"#### {head}", "", "```mermaid", *f.mermaid.rstrip("\n").split("\n"),
                "```"]
    if f.source:
        out.append("")
        out.append(f"{label(lang, 'Nguồn', 'source')}: `{f.source}`")
    return out


def _row_footnote(row: Row, lang: str) -> str:
    """The ids of a question without findings, for typing commands."""
    vals = ", ".join(f"{v}{' (default)' if v == row.default else ''}" for v in row.values)
    return (f"<sub>{label(lang, 'mã', 'ids')} — question: {row.id} = {vals} · try: "
            f"--option {row.id}=…</sub>")


def render(table: Table, findings: Mapping[str, Finding] | None = None,
           extra: Sequence[str] = (), lang: str = "vi") -> str:
    """The whole OPEN_QUESTIONS.md for `table` (deterministic: no dates, no paths).

    `extra` is Markdown lines appended at the end, with their own headings (what a
    checker found beyond the table's rows, e.g. questions the text leaves open that have
    no row yet).  `lang`
    ``vi`` (the committed file) is Vietnamese with English beside it; ``en`` is English
    only, for reading on a terminal; ``vi-only`` the Vietnamese alone.  Questions and
    readings are named by their titles and labels; ids only in each question's footnote."""
    findings = findings or {}
    # the questions that change results most often first (table order among equals)
    rows = sorted(question_rows(table),
                  key=lambda r: -findings[r.id].weight if r.id in findings else 0.0)
    n_open = sum(r.status == "open" for r in rows)
    n_prov = sum(r.status == "provisional" for r in rows)
    n_family = sum(r.found_by == "family" for r in rows)
    n_checker = sum(r.found_by == "checker" for r in rows)
    n_reading = sum(r.found_by == "reading" for r in rows)
    intro_en = ("This file is generated from the rule table; do not edit it by hand. To "
                "answer a question, run `chanspec settle ID=VALUE --note \"…\"`: it settles "
                "the row in the table, records the decision, rewrites this file and says what "
                "the decision changes (`chanspec settle --undo ID` takes it back). To try "
                "another choice without editing the table, pass `--option ID=VALUE` to "
                "chanspec commands.")
    if lang == "en":
        out: list[str] = [
            "# Open questions", "", f"**{table.title_en}** (`{table.id}`)", "", intro_en, "",
            f"{len(rows)} questions: {n_open} open, {n_prov} provisional; {n_family} raised "
            f"by the family, {n_checker} found by the checker, {n_reading} found by reading the "
            "text.",
        ]
    else:
        vi_intro = (
            "Tệp này được tạo tự động từ bảng luật; đừng sửa tay. Để trả lời một câu hỏi, "
            "chạy `chanspec settle MÃ=GIÁ-TRỊ --note \"…\"`: lệnh chốt dòng luật trong bảng, "
            "ghi lại quyết định, viết lại tệp này và cho biết quyết định thay đổi điều gì "
            "(`chanspec settle --undo MÃ` để bỏ). Muốn thử một lựa chọn khác mà không sửa "
            "bảng, dùng `--option MÃ=GIÁ-TRỊ` với các lệnh của chanspec. Mã của mỗi câu hỏi "
            "và của mỗi cách hiểu nằm ở dòng chữ nhỏ cuối câu hỏi đó.")
        counts_vi = (f"{len(rows)} câu hỏi: {n_open} còn mở, {n_prov} tạm thời; {n_family} do "
                     f"gia đình nêu, {n_checker} do máy phát hiện, {n_reading} do đọc kỹ văn "
                     "bản.")
        counts_en = (f"{len(rows)} questions: {n_open} open, {n_prov} provisional; {n_family} "
                     f"raised by the family, {n_checker} found by the checker, {n_reading} "
                     "found by reading the text.")
        if lang == "vi-only":
            out = ["# Câu hỏi còn mở", "", f"**{table.title_vi}**", "", vi_intro, "",
                   counts_vi]
        else:
            out = ["# Câu hỏi còn mở / Open questions", "",
                   f"**{table.title_vi}** — *{table.title_en}* (`{table.id}`)", "", vi_intro,
                   "", f"*{intro_en} The ids of each question and reading are in the small "
                   "line at its end.*", "", f"{counts_vi} — *{counts_en}*"]
    out += [
        "",
        f"| {label(lang, 'câu hỏi', 'question')} | {label(lang, 'mục', 'section')} | "
        f"{label(lang, 'trạng thái', 'status')} | {label(lang, 'ai nêu', 'found by')} "
        f"| {label(lang, 'mặc định', 'default')} |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        head = r.title("en") if lang == "en" else r.title("vi")
        dflt = label(lang, r.label(r.default or "", "vi"), r.label(r.default or "", "en"))
        found = FOUND_BY_SHORT.get(r.found_by, (r.found_by, r.found_by))
        sec = label(lang, cite_section(r.section, "vi").removeprefix("Bài Chắn "),
                    cite_section(r.section).removeprefix("Bài Chắn "))
        out.append(f"| [{_one_line(head)}](#{r.id}) | {_one_line(sec)} | "
                   f"{label(lang, *STATUS_SHORT[r.status])} | {label(lang, *found)} | "
                   f"«{dflt}» |")
    for r in rows:
        svi, sen = STATUS_TEXT[r.status]
        fvi, fen = FOUND_BY_TEXT.get(r.found_by, (r.found_by, r.found_by))
        out += [
            "",
            f'<a id="{r.id}"></a>',
            f"### {title(r, lang)}",
            "",
            f"- **{label(lang, 'Mục', 'Section')}:** "
            f"{label(lang, cite_section(r.section, 'vi'), cite_section(r.section))}",
            f"- **{label(lang, 'Trạng thái', 'Status')}:** {text(lang, svi, sen)}",
            f"- **{label(lang, 'Ai nêu', 'Found by')}:** {text(lang, fvi, fen)}",
            "",
        ]
        if lang == "en":
            out += [f"**Question:** {r.en}", ""]
        elif lang == "vi-only":
            out += [f"**Câu hỏi:** {r.vi}", ""]
        else:
            out += [f"**Câu hỏi:** {r.vi}", "", f"*Question: {r.en}*", ""]
        out += [
            f"| {label(lang, 'cách hiểu', 'reading')} | {label(lang, 'ý nghĩa', 'meaning')} |",
            "|---|---|",
        ]
        for value in r.values:
            vt = r.value_text.get(value, {})
            meaning = text(lang, _one_line(vt.get("vi", "")), _one_line(vt.get("en", "")),
                           "<br>")
            out.append(f"| {value_cell(r, value, lang)} | {meaning} |")
        f = findings.get(r.id)
        if f is not None:
            out += _render_finding(r, f, lang)
        out += ["", (f.footnote if f is not None and f.footnote else _row_footnote(r, lang))]
    unknown = sorted(set(findings) - {r.id for r in rows})
    if unknown:
        raise ValueError(f"findings for rows that are not open questions: {', '.join(unknown)}")
    out += list(extra)
    return "\n".join(out) + "\n"


def file_name(ruleset: str = "family") -> str:
    """OPEN_QUESTIONS.md for the family's table, OPEN_QUESTIONS-<id>.md for another
    built-in table (``OPEN_QUESTIONS-classic.md``)."""
    return FILE_NAME if ruleset == "family" else f"OPEN_QUESTIONS-{ruleset}.md"


def default_path(ruleset: str = "family") -> Path:
    """The open questions of a built-in table at the top of the checkout when running
    from one, else ./ (`file_name`)."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "spec" / "family.toml").is_file():
        return root / file_name(ruleset)
    return Path(file_name(ruleset))
