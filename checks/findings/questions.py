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

from chanspec.model.table import Row, Table

FILE_NAME = "OPEN_QUESTIONS.md"

STATUS_TEXT = {
    "open": ("còn mở — gia đình chưa quyết", "open — the family has not decided"),
    "provisional": ("tạm thời — đang dùng mặc định, chờ xác nhận",
                    "provisional — a default is in use, awaiting confirmation"),
}
FOUND_BY_TEXT = {
    "family": ("gia đình tự nêu trong văn bản", "the family, in their own text"),
    "checker": ("máy kiểm tra phát hiện (văn bản không nói)",
                "found by the checker (the text does not say)"),
    "reading": ("đọc kỹ từng câu của văn bản: lời văn cho phép hơn một cách hiểu",
                "a sentence-by-sentence reading: the words allow more than one reading"),
}


@dataclass(frozen=True)
class Effect:
    """What one option value does in a finding's scenario."""

    vi: str
    en: str


@dataclass(frozen=True)
class Finding:
    """Extra content for one question, produced by a checker.

    ``steps_vi``/``steps_en`` are the scenario's steps (same length); ``frequency_vi``/
    ``frequency_en`` say how often the situation arises (e.g. from random games);
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


def _label(lang: str, vi: str, en: str) -> str:
    """A short label: ``vi / en``, or ``en`` alone in English."""
    return en if lang == "en" else f"{vi} / {en}"


def _text(lang: str, vi: str, en: str, sep: str = " — ") -> str:
    """Vietnamese text with its English in italics, or the English alone."""
    return en if lang == "en" else f"{vi}{sep}*{en}*"


def _render_finding(row: Row, f: Finding, lang: str = "vi") -> list[str]:
    out = ["", f"#### {_label(lang, 'Tình huống', 'Scenario')}", ""]
    for i, (vi, en) in enumerate(zip(f.steps_vi, f.steps_en, strict=True), 1):
        if lang == "en":
            out.append(f"{i}. {en}")
            continue
        out.append(f"{i}. {vi}  ")
        out.append(f"   *{en}*")
    if f.frequency_vi or f.frequency_en:
        out.append("")
        if lang == "en":
            out.append(f"**How often:** {f.frequency_en or ''}")
        else:
            out.append(f"**Mức thường gặp / How often:** {f.frequency_vi or ''}"
                       + (f" — *{f.frequency_en}*" if f.frequency_en else ""))
    if f.blame_en:
        out.append("")
        if lang == "en":
            out.append(f"**Depends on:** {f.blame_en}")
        else:
            out.append(f"**Phụ thuộc / Depends on:** {f.blame_vi or ''} — *{f.blame_en}*")
    if f.frequency_blame_en:
        out.append("")
        if lang == "en":
            out.append(f"**How often, read otherwise:** {f.frequency_blame_en}")
        else:
            out.append(f"**Nếu hiểu khác / How often, read otherwise:** "
                       f"{f.frequency_blame_vi or ''} — *{f.frequency_blame_en}*")
    if f.effects:
        out.append("")
        out.append(f"| {_label(lang, 'giá trị', 'value')} | "
                   f"{_label(lang, 'điều xảy ra', 'what happens')} |")
        out.append("|---|---|")
        known = [(v, "") for v in row.values if v in f.effects]
        known += [(v, " (?)") for v in f.effects if v not in row.values]
        for value, mark in known:
            eff = f.effects[value]
            out.append(f"| `{value}`{mark} | "
                       f"{_text(lang, _one_line(eff.vi), _one_line(eff.en), '<br>')} |")
    if f.mermaid:
        title = _label(lang, "Sơ đồ: nơi các cách hiểu tách ra",
                       "Diagram: where the readings part")
        out += ["", f"#### {title}", "", "```mermaid", *f.mermaid.rstrip("\n").split("\n"),
                "```"]
    if f.source:
        out.append("")
        out.append(f"{_label(lang, 'Nguồn', 'source')}: `{f.source}`")
    return out


def render(table: Table, findings: Mapping[str, Finding] | None = None,
           extra: Sequence[str] = (), lang: str = "vi") -> str:
    """The whole OPEN_QUESTIONS.md for `table` (deterministic: no dates, no paths).

    `extra` is Markdown lines appended at the end (what a checker found beyond the
    table's rows, e.g. questions the text leaves open that have no row yet).  `lang`
    ``vi`` (the committed file) is Vietnamese with English beside it; ``en`` is English
    only, for reading on a terminal."""
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
        out = [
            "# Câu hỏi còn mở / Open questions",
            "",
            f"**{table.title_vi}** — *{table.title_en}* (`{table.id}`)",
            "",
            "Tệp này được tạo tự động từ bảng luật; đừng sửa tay. Để trả lời một câu hỏi, chạy "
            "`chanspec settle MÃ=GIÁ-TRỊ --note \"…\"`: lệnh chốt dòng luật trong bảng, ghi "
            "lại quyết định, viết lại tệp này và cho biết quyết định thay đổi điều gì "
            "(`chanspec settle --undo MÃ` để bỏ). Muốn thử một lựa chọn khác mà không sửa "
            "bảng, dùng `--option MÃ=GIÁ-TRỊ` với các lệnh của chanspec.",
            "",
            f"*{intro_en}*",
            "",
            f"{len(rows)} câu hỏi / questions: {n_open} còn mở / open, {n_prov} tạm thời / "
            f"provisional; {n_family} do gia đình nêu / raised by the family, {n_checker} do "
            f"máy phát hiện / found by the checker, {n_reading} do đọc kỹ văn bản / found by "
            "reading the text.",
        ]
    out += [
        "",
        f"| {_label(lang, 'mã', 'id')} | {_label(lang, 'mục', 'section')} | "
        f"{_label(lang, 'trạng thái', 'status')} | {_label(lang, 'ai nêu', 'found by')} "
        f"| {_label(lang, 'mặc định', 'default')} |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(f"| [`{r.id}`](#{r.id}) | {_one_line(r.section)} | {r.status} | "
                   f"{r.found_by} | `{r.default}` |")
    for r in rows:
        svi, sen = STATUS_TEXT[r.status]
        fvi, fen = FOUND_BY_TEXT.get(r.found_by, (r.found_by, r.found_by))
        out += [
            "",
            f'<a id="{r.id}"></a>',
            f"### `{r.id}`",
            "",
            f"- **{_label(lang, 'Mục', 'Section')}:** {r.section}",
            f"- **{_label(lang, 'Trạng thái', 'Status')}:** {_text(lang, svi, sen)}",
            f"- **{_label(lang, 'Ai nêu', 'Found by')}:** {_text(lang, fvi, fen)}",
            f"- **{_label(lang, 'Tùy chọn', 'Option')}:** `--option {r.id}=…`",
            "",
        ]
        if lang == "en":
            out += [f"**Question:** {r.en}", ""]
        else:
            out += [f"**Câu hỏi:** {r.vi}", "", f"*Question: {r.en}*", ""]
        out += [
            f"| {_label(lang, 'giá trị', 'value')} | {_label(lang, 'ý nghĩa', 'meaning')} |",
            "|---|---|",
        ]
        for value in r.values:
            text = r.value_text.get(value, {})
            mark = f" **({_label(lang, 'mặc định', 'default')})**" if value == r.default else ""
            meaning = _text(lang, _one_line(text.get("vi", "")), _one_line(text.get("en", "")),
                            "<br>")
            out.append(f"| `{value}`{mark} | {meaning} |")
        if r.id in findings:
            out += _render_finding(r, findings[r.id], lang)
    unknown = sorted(set(findings) - {r.id for r in rows})
    if unknown:
        raise ValueError(f"findings for rows that are not open questions: {', '.join(unknown)}")
    if extra:
        out += ["", f"## {_label(lang, 'Máy kiểm tra tìm thêm', 'Found by the checker')}",
                *extra]
    return "\n".join(out) + "\n"


def default_path() -> Path:
    """OPEN_QUESTIONS.md at the top of the checkout when running from one, else ./"""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "spec" / "family.toml").is_file():
        return root / FILE_NAME
    return Path(FILE_NAME)
