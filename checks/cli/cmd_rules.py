"""``chanspec rules``: every row of a rule table, with what the machine uses it for.

    chanspec rules [--ruleset family] [--row ID] [--status open,provisional]
                   [--games N] [--seed S] [--json] [--lang vi|en|vi-only]

For each row: its id, status, who found it, the section of the family's text it cites and
its locator (where its words are: seed file, part, paragraph or bullet, sentences; the
text itself is never printed), its paraphrase in Vietnamese and English, for an option row
every value with its meaning, the default and the decisions the family recorded; and the
decisions of the machine that cite it, measured on seeded games
(`chanspec.checks.conform.usage`), with the places of the table's structure that name it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from typing import Any

from chanspec.checks.cli.options import add_command, load_table
from chanspec.checks.conform import usage as usage_mod
from chanspec.checks.output import pick, say
from chanspec.model import presets
from chanspec.model import table as shared_table
from chanspec.model.chan import table as table_mod

DEFAULT_GAMES = 2
# the rows' citations are measured on the Chắn machine only (`usage_mod.measure`)
UNMEASURED = ("số lần máy viện dẫn mỗi dòng mới chỉ đo được cho bảng Chắn",
              "the machine's citations of each row are measured for Chắn tables only")
DEFAULT_SEED = 1
MAX_GAMES = 10_000

STATUS_WORDS = {"settled": ("đã chốt", "settled"), "provisional": ("tạm thời", "provisional"),
                "open": ("còn mở", "open")}
FOUND_BY_WORDS = {"family": ("gia đình nêu", "raised by the family"),
                  "checker": ("máy kiểm tra tìm ra", "found by the checker"),
                  "reading": ("đọc kỹ văn bản tìm ra", "found by a close reading")}
USE_WORDS = {"allows": ("cho phép", "allows"), "refuses": ("cấm", "refuses"),
             "resolves": ("phân xử", "resolves"), "consequence": ("hệ quả", "consequence")}
KIND_WORDS = {
    "u": ("ù", "ù"), "chiu-u": ("chíu ù", "chíu-ù"), "chiu": ("chíu", "chíu"),
    "eat": ("ăn", "eat"), "reclaim": ("nhận lại", "reclaim"), "pass": ("bỏ qua", "pass"),
    "discard": ("đánh", "discard"), "return": ("trả cửa", "return"),
    "timeout": ("hết giờ", "timeout"), "start": ("bắt đầu", "start"),
    "claims": ("tranh quân", "competing claims"), "draw": ("bốc", "draw"),
    "laid": ("hạ quân", "cards laid down"), "returned": ("quân trả cửa", "card returned"),
    "passed-on": ("chuyển tiếp", "card passed on"), "dead": ("quân chết", "dead card"),
    "timeout-as": ("hết giờ coi như", "timeout taken as"),
    "declined": ("bỏ ù", "declined win"), "banned": ("bị cấm", "ban"),
    "end": ("hết ván", "end of the hand"),
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "rules",
        "mọi dòng của bảng luật: lời, chỗ trong văn bản, lựa chọn, và máy dùng nó để quyết "
        "định gì",
        "every row of the rule table: its words, where they are in the text, its values, and "
        "which decisions of the machine cite it",
        epilog=(
            "Ví dụ / examples:\n"
            "  chanspec rules\n"
            "  chanspec rules --status open,provisional --lang en\n"
            "  chanspec rules --row pass-chan-ban --games 5 --seed 7 --json"
        ),
    )
    p.add_argument("--ruleset", default="family", metavar="NAME|PATH",
                   help="bộ luật: tên có sẵn (family, classic, tan) hoặc đường dẫn .toml / "
                        "rule table: a built-in name (default: family; also classic, tan) or "
                        "a path to a .toml file")
    p.add_argument("--row", action="append", default=[], metavar="ID",
                   help="chỉ dòng này, lặp lại được / only this row (repeatable)")
    p.add_argument("--status", default=None, metavar="S[,S]",
                   help="chỉ các dòng có trạng thái này / only rows of these statuses: "
                        "settled, provisional, open (comma-separated)")
    p.add_argument("--games", default=str(DEFAULT_GAMES), metavar="N",
                   help=f"số ván mẫu cho mỗi cách chọn luật / sample games per choice of "
                        f"options: the defaults and each single non-default value "
                        f"(default {DEFAULT_GAMES})")
    p.add_argument("--seed", default=str(DEFAULT_SEED), metavar="S",
                   help=f"hạt giống của các ván mẫu / seed of the sample games "
                        f"(default {DEFAULT_SEED})")
    p.add_argument("--json", action="store_true",
                   help="in kết quả dạng JSON / print JSON instead of text")
    p.add_argument("--lang", choices=("vi", "en", "vi-only"), default="vi",
                   help="vi = tiếng Việt kèm tiếng Anh (mặc định), en = chỉ tiếng Anh, "
                        "vi-only = chỉ tiếng Việt / vi = Vietnamese with English (default), "
                        "en = English only, vi-only = Vietnamese only")
    p.set_defaults(func=run)


# --------------------------------------------------------------------------- input

class InputError(ValueError):
    def __init__(self, vi: str, en: str):
        super().__init__(en)
        self.vi, self.en = vi, en


def _whole(text: str, name: str, low: int, high: int) -> int:
    try:
        n = int(text)
    except ValueError:
        n = None
    if n is None or not low <= n <= high:
        raise InputError(f"{name} phải là số nguyên từ {low} đến {high}, không phải {text!r}",
                         f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return n


def _statuses(text: str | None) -> set[str] | None:
    if text is None:
        return None
    got = {s.strip() for s in text.split(",") if s.strip()}
    bad = sorted(got - set(shared_table.STATUSES))
    if bad or not got:
        shown = ", ".join(bad) or repr(text)
        raise InputError(f"--status: không có trạng thái {shown}; có: "
                         f"{', '.join(shared_table.STATUSES)}",
                         f"--status: no status {shown}; the statuses are: "
                         f"{', '.join(shared_table.STATUSES)}")
    return got


def _rows(table: table_mod.Table, ids: list[str]) -> list[str]:
    for rid in ids:
        if rid not in table.rows:
            near = difflib.get_close_matches(rid, sorted(table.rows), n=1)
            hint_vi = f" Có phải ý bạn là {near[0]!r}?" if near else ""
            hint_en = f" Did you mean {near[0]!r}?" if near else ""
            raise InputError(f"--row: bảng {table.id!r} không có dòng {rid!r}.{hint_vi} "
                             "(chanspec rules liệt kê mọi dòng)",
                             f"--row: table {table.id!r} has no row {rid!r}.{hint_en} "
                             "(chanspec rules lists every row)")
    return ids


# --------------------------------------------------------------------------- text

def _say(lang: str, vi: str, en: str, indent: str = "") -> str:
    return f"{indent}{vi}" if lang == "vi-only" else say(lang, vi, en, indent)


def _pick(lang: str, vi: str, en: str) -> str:
    return vi if lang == "vi-only" else pick(lang, vi, en)


def _words(table: dict[str, tuple[str, str]], key: str) -> tuple[str, str]:
    return table.get(key, (key, key))


def decision_words(d: dict[str, Any]) -> tuple[str, str]:
    """``cấm đánh`` / ``refuses discard``, ``hệ quả: bốc`` / ``consequence: draw``."""
    uvi, uen = _words(USE_WORDS, d["use"])
    kvi, ken = _words(KIND_WORDS, d["kind"])
    if d["use"] == "consequence":
        return f"{uvi}: {kvi}", f"{uen}: {ken}"
    return f"{uvi} {kvi}", f"{uen} {ken}"


def render(doc: dict[str, Any], lang: str) -> str:
    s = doc["sample"]
    # the table named by its id and its title (the game's own name, not always Chắn's)
    name_vi = f"{doc['ruleset']} ({doc['title_vi']})" if doc.get("title_vi") else doc["ruleset"]
    name_en = f"{doc['ruleset']} ({doc['title_en']})" if doc.get("title_en") else doc["ruleset"]
    out = [
        _say(lang,
             f"Bảng luật {name_vi}: {len(doc['rows'])} dòng. Mẫu đo: {s['games']} ván "
             f"({s['games_per_world']} ván cho mỗi cách chọn trong {s['worlds']}: mặc định và "
             f"từng giá trị khác của mỗi luật còn mở), hạt giống {s['seed']}.",
             f"Rule table {name_en}: {len(doc['rows'])} rows. Sample: {s['games']} games "
             f"({s['games_per_world']} for each of {s['worlds']} choices: the defaults and each "
             f"single non-default value of every open row), seed {s['seed']}."),
        _say(lang, "×N: số lần máy viện dẫn dòng đó trong mẫu, khi giải thích một nước có thể "
                   "đi của một người (cho phép hay cấm) hoặc một hệ quả.",
             "×N: how many times the machine cited the row in the sample, explaining a seat's "
             "candidate action (allowed or refused) or a consequence."),
        "",
    ]
    if s.get("not_played"):
        gap = s["not_played"]
        out[0:2] = [_say(lang, f"Bảng luật {name_vi}: {len(doc['rows'])} dòng. Không đo "
                               f"ván nào: {gap['vi']}.",
                         f"Rule table {name_en}: {len(doc['rows'])} rows. No games "
                         f"measured: {gap['en']}.")]
    for r in doc["rows"]:
        st_vi, st_en = _words(STATUS_WORDS, r["status"])
        fb_vi, fb_en = _words(FOUND_BY_WORDS, r["found_by"])
        title = _pick(lang, r.get("title_vi") or "", r.get("title_en") or "")
        named = f" «{title}»" if r.get("title_vi") else ""
        head = f"{r['id']}{named} — {_pick(lang, st_vi, st_en)}"
        if r["found_by"] != "family":
            head += f", {_pick(lang, fb_vi, fb_en)}"
        out.append(head)
        loc = f" · {r['locator']}" if r["locator"] else ""
        out.append(_say(lang, f"Chỗ trong văn bản: {r['cite_vi']}{loc}",
                        f"Where in the text: {r['cite']}{loc}", "  "))
        out.append(_say(lang, r["vi"], r["en"], "  "))
        if r["values"]:
            out.append(_say(lang, "Các giá trị:", "Values:", "  "))
            for v in r["values"]:
                mvi, men = (" (mặc định)", " (default)") if v["default"] else ("", "")
                # the id a user types, with the family's short label beside it
                lvi = f" «{v['label_vi']}»" if v.get("label_vi", v["value"]) != v["value"] else ""
                len_ = f" «{v['label_en']}»" if v.get("label_en", v["value"]) != v["value"] else ""
                out.append(_say(lang, f"- {v['value']}{lvi}{mvi}: {v['vi']}",
                                f"- {v['value']}{len_}{men}: {v['en']}", "    "))
        for d in r["settled_by"]:
            note = f" — {d['note']}" if d.get("note") else ""
            who = f" ({d['by']})" if d.get("by") else ""
            out.append(_say(
                lang, f"Gia đình quyết định {d.get('date', '?')}{who}: {d.get('value')} "
                      f"(trước là {d.get('was')}){note}",
                f"The family decided on {d.get('date', '?')}{who}: {d.get('value')} "
                f"(was {d.get('was')}){note}", "  "))
        if r["decisions"]:
            vi = "; ".join(f"{decision_words(d)[0]} ×{d['count']}" for d in r["decisions"])
            en = "; ".join(f"{decision_words(d)[1]} ×{d['count']}" for d in r["decisions"])
            out.append(_say(lang, f"Máy dùng dòng này để: {vi}",
                            f"Used by the machine to: {en}", "  "))
        elif not s.get("not_played"):  # no games measured: nothing to say of citations
            out.append(_say(
                lang, f"Không được viện dẫn trong {s['games']} ván: chỉ là lời văn, hoặc "
                      "không gặp trong mẫu này",
                f"Not cited in {s['games']} games: words only, or unreachable in this sample",
                "  "))
        if r["structure"]:
            places = ", ".join(r["structure"])
            out.append(_say(lang, f"Cấu trúc bảng nêu dòng này ở: {places}",
                            f"Named by the table's structure at: {places}", "  "))
        out.append("")
    out += _render_presets(doc, lang)
    return "\n".join(out)


def _render_presets(doc: dict[str, Any], lang: str) -> list[str]:
    """The table's named sets of option values (``--preset NAME``), if it has any."""
    if not doc["presets"]:
        return []
    out = [_say(lang, "Các bộ giá trị có tên (--preset TÊN; --option ghi đè từng giá trị):",
                "Named presets (--preset NAME; --option overrides single values):")]
    for p in doc["presets"]:
        out.append(f"{p['name']} — {_pick(lang, p['title_vi'], p['title_en'])}")
        out.append("  " + ", ".join(f"{k}={v}" for k, v in p["options"].items()))
    out.append("")
    return out


# --------------------------------------------------------------------------- run

def run(args: argparse.Namespace) -> int:
    try:
        games = _whole(args.games, "--games", 1, MAX_GAMES)
        seed = _whole(args.seed, "--seed", 0, 2**63 - 1)
        statuses = _statuses(args.status)
        table = load_table(args)
        ids = _rows(table, args.row)
    except InputError as exc:
        print("chanspec rules: " + _pick(args.lang, exc.vi, exc.en), file=sys.stderr)
        return 2
    machine_gap = getattr(table, "machine_gap", None)  # Chắn tables only
    # a turn the machine does not play, or a kind whose citations are not measured yet:
    # rows only, no games
    gap = machine_gap() if machine_gap else UNMEASURED
    usage = (usage_mod.measure(table, 0 if gap else games, seed) if machine_gap
             else usage_mod.Usage(seed=seed, games=0, worlds=[{}]))
    wanted = [r.id for r in table.rows.values()
              if (not ids or r.id in ids) and (statuses is None or r.status in statuses)]
    doc = usage_mod.rules_document(table, usage, wanted)
    if gap:
        doc["sample"]["not_played"] = {"vi": gap[0], "en": gap[1]}
        if not machine_gap:  # no games of this kind: the sample's policy is Chắn's words
            doc["sample"]["policy"] = None
    doc["presets"] = [{"name": p.name, "title_vi": p.title_vi, "title_en": p.title_en,
                       "options": dict(p.options)} for p in presets.presets_of(table).values()]
    if args.json:
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render(doc, args.lang))
    return 0
