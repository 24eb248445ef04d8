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
    command or seed produced it, so anyone can reproduce it.
    """

    steps_vi: Sequence[str] = ()
    steps_en: Sequence[str] = ()
    frequency_vi: str | None = None
    frequency_en: str | None = None
    effects: Mapping[str, Effect] = field(default_factory=dict)
    source: str | None = None

    def __post_init__(self) -> None:
        if len(self.steps_vi) != len(self.steps_en):
            raise ValueError("a finding needs as many English steps as Vietnamese ones")


def question_rows(table: Table) -> list[Row]:
    """The open and provisional rows, in table order."""
    return [r for r in table.rows.values() if r.status in ("open", "provisional")]


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _render_finding(row: Row, f: Finding) -> list[str]:
    out = ["", "#### Tình huống / Scenario", ""]
    for i, (vi, en) in enumerate(zip(f.steps_vi, f.steps_en, strict=True), 1):
        out.append(f"{i}. {vi}  ")
        out.append(f"   *{en}*")
    if f.frequency_vi or f.frequency_en:
        out.append("")
        out.append(f"**Mức thường gặp / How often:** {f.frequency_vi or ''}"
                   + (f" — *{f.frequency_en}*" if f.frequency_en else ""))
    if f.effects:
        out.append("")
        out.append("| giá trị / value | điều xảy ra / what happens |")
        out.append("|---|---|")
        for value in row.values:
            eff = f.effects.get(value)
            if eff is not None:
                out.append(f"| `{value}` | {_one_line(eff.vi)}<br>*{_one_line(eff.en)}* |")
        for value, eff in f.effects.items():
            if value not in row.values:
                out.append(f"| `{value}` (?) | {_one_line(eff.vi)}<br>*{_one_line(eff.en)}* |")
    if f.source:
        out.append("")
        out.append(f"Nguồn / source: `{f.source}`")
    return out


def render(table: Table, findings: Mapping[str, Finding] | None = None,
           extra: Sequence[str] = ()) -> str:
    """The whole OPEN_QUESTIONS.md for `table` (deterministic: no dates, no paths).

    `extra` is Markdown lines appended at the end (what a checker found beyond the
    table's rows, e.g. questions the text leaves open that have no row yet)."""
    findings = findings or {}
    rows = question_rows(table)
    out: list[str] = [
        "# Câu hỏi còn mở / Open questions",
        "",
        f"**{table.title_vi}** — *{table.title_en}* (`{table.id}`)",
        "",
        "Tệp này được tạo tự động từ bảng luật; đừng sửa tay. Để trả lời một câu hỏi, sửa "
        "dòng luật tương ứng trong bảng (đổi `default`, hoặc đổi `status` thành `settled`) "
        "rồi chạy `chanspec questions --write`. Muốn thử một lựa chọn khác mà không sửa "
        "bảng, dùng `--option MÃ=GIÁ-TRỊ` với các lệnh của chanspec.",
        "",
        "*This file is generated from the rule table; do not edit it by hand. To answer a "
        "question, edit its row in the table (change `default`, or set `status` to "
        "`settled`) and run `chanspec questions --write`. To try another choice without "
        "editing the table, pass `--option ID=VALUE` to chanspec commands.*",
        "",
        f"{len(rows)} câu hỏi / questions: "
        f"{sum(r.status == 'open' for r in rows)} còn mở / open, "
        f"{sum(r.status == 'provisional' for r in rows)} tạm thời / provisional; "
        f"{sum(r.found_by == 'family' for r in rows)} do gia đình nêu / raised by the family, "
        f"{sum(r.found_by == 'checker' for r in rows)} do máy phát hiện / found by the checker, "
        f"{sum(r.found_by == 'reading' for r in rows)} do đọc kỹ văn bản / found by reading "
        "the text.",
        "",
        "| mã / id | mục / section | trạng thái / status | ai nêu / found by "
        "| mặc định / default |",
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
            f"- **Mục / Section:** {r.section}",
            f"- **Trạng thái / Status:** {svi} — *{sen}*",
            f"- **Ai nêu / Found by:** {fvi} — *{fen}*",
            f"- **Tùy chọn / Option:** `--option {r.id}=…`",
            "",
            f"**Câu hỏi:** {r.vi}",
            "",
            f"*Question: {r.en}*",
            "",
            "| giá trị / value | ý nghĩa / meaning |",
            "|---|---|",
        ]
        for value in r.values:
            text = r.value_text.get(value, {})
            mark = " **(mặc định / default)**" if value == r.default else ""
            out.append(f"| `{value}`{mark} | {_one_line(text.get('vi', ''))}<br>"
                       f"*{_one_line(text.get('en', ''))}* |")
        if r.id in findings:
            out += _render_finding(r, findings[r.id])
    unknown = sorted(set(findings) - {r.id for r in rows})
    if unknown:
        raise ValueError(f"findings for rows that are not open questions: {', '.join(unknown)}")
    if extra:
        out += ["", "## Máy kiểm tra tìm thêm / Found by the checker", *extra]
    return "\n".join(out) + "\n"


def default_path() -> Path:
    """OPEN_QUESTIONS.md at the top of the checkout when running from one, else ./"""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "spec" / "family.toml").is_file():
        return root / FILE_NAME
    return Path(FILE_NAME)
