"""What every kind's rule table shares (``spec/*.toml``): the rows, the problems and the
checker that collects them.

A table is data.  A kind's loader reads it with :mod:`tomllib` and checks every field,
reporting *every* problem at once, each with the file, the rule id (or table path) and
the field (`Problem`, `TableError`, `_Checker`).  Nothing from the table is ever
executed.  Shared here: the ``[[rule]]`` rows (`Row`, `_parse_rows`: statuses, values,
defaults, conditions, titles and labels, locators into the source texts, decisions and
the audit's ``decides``), the wording checks, the ``[presets]`` check, the built-in
tables' paths and names.  Each kind's vocabulary and loader are its own
(`chanspec.model.chan.table` and `.vocab`, `chanspec.model.tan.table`,
`chanspec.model.chiha.table`).
"""

from __future__ import annotations

import difflib
import importlib.resources
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STATUSES = ("settled", "provisional", "open")
# Where a row's words are in the family's text: "<seed file> §<part> ¶<n>|•<n> s<m>[-<k>]",
# several places separated by "; " (paragraph or bullet n of part, sentence m of it).
# A text without numbered parts is placed by heading: "[<heading>] ¶<n>|•<n>|#<n> s<m>[-<k>]"
# (# a numbered item under the heading); a text of paragraphs only (003) by "¶<n> s<m>";
# a place may name another seed file first.
_PLACE = r"(?:§\d+ [¶•]\d+|\[[^\]\n;]+\] [¶•#]\d+|¶\d+) s\d+(?:-\d+)?"
_FILE = r"[\w.-]+\.txt"
LOCATOR_RE = re.compile(rf"^{_FILE} {_PLACE}(?:; (?:{_FILE} )?{_PLACE})*$")
UNCHECKED = "(unchecked structure)"  # where-field of problems found only by the safety net
ID_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Problem:
    file: str
    where: str  # rule id or table path
    field: str
    message: str

    def __str__(self) -> str:
        loc = self.where + (f".{self.field}" if self.field else "")
        return f"{self.file}: {loc}: {self.message}"


class TableError(Exception):
    """A rule table that does not load; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        head = f"the rule table does not load ({len(problems)} problem(s)):"
        body = "\n".join(f"  - {p}" for p in problems)
        tail = "\nFix the table (see the comments at the top of spec/family.toml) and try again."
        super().__init__(f"{head}\n{body}{tail}")


class RulesetNotFound(TableError):
    """``--ruleset`` names no built-in ruleset and no file chanspec reads: an unknown
    name, a missing file, a device, a FIFO, a folder or a file too large (a usage error,
    exit 2, not a table that does not load).  `line()` is the one-line message."""

    def __init__(self, name: str, why: str):
        self.name, self.why = name, why
        Exception.__init__(self, self.line())
        self.problems = [Problem(name, "(ruleset)", "", why)]

    def line(self) -> str:
        return f"--ruleset {self.name!r}: {self.why}"


class OptionError(ValueError):
    """An --option that names no open/provisional row, or a value it does not have."""


def option_items(items: Iterable[str], example: str) -> dict[str, str]:
    """``--option NAME=VALUE`` items as a mapping: OptionError for an item without ``=``
    and for a name given twice with two different values (the same value twice is one
    choice); `example` is shown in the message."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise OptionError(f"option {item!r} must look like NAME=VALUE, e.g. {example}")
        k, v = (s.strip() for s in item.split("=", 1))
        if k in out and out[k] != v:
            raise OptionError(f"--option {k} is given twice, as {out[k]!r} and {v!r}: give "
                              f"it once, with the value you mean")
        out[k] = v
    return out


@dataclass(frozen=True)
class Row:
    id: str
    section: str
    status: str
    vi: str
    en: str
    default: str | None = None
    values: tuple[str, ...] = ()
    value_text: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    found_by: str = "family"
    # decisions that settled this row (``[[rule.decision]]``: date, value, was,
    # was_default, note, by), oldest first; a settled row that has them keeps its values
    # as history and its chosen ``value`` is in `default`
    decisions: tuple[Mapping[str, str], ...] = ()
    locator: str = ""  # where its words are in the family's text (LOCATOR_RE)
    # a short title for the family's prose ("Chíu trước ăn"), which heads the row in the
    # report: required on every row (`WORDING_KEYS`: words only, not in the findings' digest)
    title_vi: str = ""
    title_en: str = ""
    # the machine's own decisions this row states (ids from `chanspec audit`); not part
    # of any digest (`AUDIT_KEYS`)
    decides: tuple[str, ...] = ()

    def title(self, lang: str = "vi") -> str:
        """The row's short title in `lang` (``vi`` or ``en``); its id when it has none."""
        return (self.title_vi if lang == "vi" else self.title_en) or self.id

    def label(self, value: str, lang: str = "vi") -> str:
        """A value's short label in `lang` (``label_vi``/``label_en`` of the table); the
        value id when it has none (a settled row's history may lack them)."""
        return str(self.value_text.get(value, {}).get(f"label_{lang}") or value)

    @property
    def is_option(self) -> bool:
        """The machine reads a value for this row (open, provisional, or settled with
        its readings kept as history)."""
        return bool(self.values)

    @property
    def is_choice(self) -> bool:
        """Still to be decided: ``--option`` may pick any of its values."""
        return bool(self.values) and self.status != "settled"


# --------------------------------------------------------------------------- loading


@dataclass
class _Checker:
    file: str
    problems: list[Problem] = field(default_factory=list)
    dealt: bool = True  # must the deck deal every variant? (False: a table for hands only)

    def add(self, where: str, fld: str, message: str) -> None:
        self.problems.append(Problem(self.file, where, fld, message))

    def keys(
        self, where: str, obj: Any, required: Iterable[str], optional: Iterable[str] = ()
    ) -> bool:
        if not isinstance(obj, dict):
            self.add(where, "", f"expected a table, found {type(obj).__name__}")
            return False
        req, opt = list(required), list(optional)
        allowed = set(req) | set(opt)
        for k in obj:
            if k not in allowed:
                near = difflib.get_close_matches(str(k), sorted(allowed), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                self.add(where, str(k), f"unknown key{hint}; allowed: {', '.join(sorted(allowed))}")
        for k in req:
            if k not in obj:
                self.add(where, k, "missing required field")
        return True

    def typed(self, where: str, obj: dict[str, Any], fld: str, typ: type | tuple[type, ...]) -> Any:
        if fld not in obj:
            return None
        v = obj[fld]
        ok = isinstance(v, typ) and not (typ in (int, (int,)) and isinstance(v, bool))
        if not ok:
            names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
            self.add(where, fld, f"expected {names}, found {type(v).__name__} {v!r}")
            return None
        return v

    def ref(self, where: str, fld: str, rid: Any, rows: Mapping[str, Any]) -> None:
        if not isinstance(rid, str):
            self.add(where, fld, f"expected a rule id, found {rid!r}")
        elif rid not in rows:
            near = difflib.get_close_matches(rid, sorted(rows), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            self.add(where, fld, f"refers to rule {rid!r}, which no [[rule]] row defines{hint}")


def cond_holds(cond: Any, options: Mapping[str, str]) -> bool:
    """Whether a condition of the table holds under these options: `true`/`false`, or
    `{option = "<row>", is = "<value>"}`."""
    if isinstance(cond, bool):
        return cond
    return options.get(cond["option"]) == cond["is"]


def _check_cond(ck: _Checker, where: str, fld: str, cond: Any, rows: Mapping[str, Row]) -> None:
    if isinstance(cond, bool):
        return
    if (not isinstance(cond, dict) or set(cond) != {"option", "is"}
            or not isinstance(cond["option"], str) or not isinstance(cond["is"], str)):
        ck.add(where, fld, f"expected true/false or {{ option = \"NAME\", is = \"VALUE\" }}, "
               f"found {cond!r}")
        return
    row = rows.get(cond["option"])
    if row is None or not row.is_option:
        ck.add(where, f"{fld}.option", f"{cond['option']!r} is not an option row of this table")
    elif cond["is"] not in row.values:
        ck.add(where, f"{fld}.is", f"{cond['is']!r} is not a value of option {row.id!r} "
               f"({', '.join(row.values)})")


def _a(word: str) -> str:
    """``a provisional``, ``an open``: the English article before a status word."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _parse_rows(ck: _Checker, data: Mapping[str, Any]) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    raw = data.get("rule")
    if not isinstance(raw, list):
        ck.add("rule", "", "expected a list of [[rule]] rows")
        return rows
    for i, r in enumerate(raw):
        where = f"rule[{i}]"
        if isinstance(r, dict) and isinstance(r.get("id"), str):
            where = r["id"]
        if not ck.keys(where, r, ["id", "section", "status", "vi", "en"],
                       ["default", "values", "found_by", "value", "decision", "locator",
                        "title_vi", "title_en", *AUDIT_KEYS]):
            continue
        rid = ck.typed(where, r, "id", str)
        for f in ("section", "vi", "en"):
            v = ck.typed(where, r, f, str)
            if v is not None and not v.strip():
                ck.add(where, f, "must not be empty")
        status = ck.typed(where, r, "status", str)
        if status is not None and status not in STATUSES:
            ck.add(where, "status", f"{status!r} is not one of {', '.join(STATUSES)}")
        found_by = r.get("found_by", "family")
        if found_by not in ("family", "checker", "reading"):
            ck.add(where, "found_by", f"{found_by!r} must be 'family', 'checker' or 'reading'")
        locator = r.get("locator", "")
        if not isinstance(locator, str) or (locator and not LOCATOR_RE.match(locator)):
            ck.add(where, "locator", f"{locator!r} is not a locator like "
                   "'002_b3948e333907311d.txt §3 •1 s1' (seed file, part, ¶ paragraph or "
                   "• bullet number, sentence number; several joined by '; ')")
            locator = ""
        values: dict[str, Any] = {}
        if "values" in r:
            v = ck.typed(where, r, "values", dict)
            values = v or {}
            for name, text in values.items():
                if not ID_RE.match(name):
                    ck.add(where, f"values.{name}", "a value name must be kebab-case")
                if ck.keys(f"{where}.values", text, ["vi", "en"], LABEL_FIELDS) and \
                        isinstance(text, dict):
                    for lang in ("vi", "en"):
                        if lang in text and not isinstance(text[lang], str):
                            ck.add(where, f"values.{name}.{lang}", "expected a string")
                    for fld in LABEL_FIELDS:
                        if fld in text:
                            _check_short(ck, where, f"values.{name}.{fld}", text[fld])
        default = r.get("default")
        if default is not None and not isinstance(default, str):
            ck.add(where, "default", f"expected the name of one of its values, found {default!r}")
            default = None
        if status in ("provisional", "open"):
            if len(values) < 2:
                ck.add(where, "values", f"{_a(status)} row needs at least two values (options)")
            if default is None:
                ck.add(where, "default", f"{_a(status)} row needs a default")
            elif default not in values:
                ck.add(where, "default", f"default {default!r} is not one of its values "
                       f"({', '.join(values) or 'none'})")
        elif status == "settled" and default is not None:
            ck.add(where, "default", "a settled row has no default; its chosen reading is "
                   "`value` (or mark it provisional or open)")
        elif status == "settled" and values:
            chosen = r.get("value")
            if not isinstance(chosen, str) or chosen not in values:
                ck.add(where, "value", f"a settled row that keeps its readings as history "
                       f"needs `value`, the chosen one of {', '.join(values)} (found "
                       f"{chosen!r}); or drop `values`")
            else:
                default = chosen
        if "value" in r and not (status == "settled" and values):
            ck.add(where, "value", "only a settled row with `values` (its history) has a "
                   "chosen `value`; an open or provisional row has a `default`")
        for fld in TITLE_FIELDS:
            if fld in r:
                _check_short(ck, where, fld, r[fld])
            else:
                who = f"{_a(status)} row" if status in STATUSES else "a row"
                ck.add(where, fld, f"{who} needs a short title ({fld} = \"…\"), shown to "
                       "the family instead of its id (every row has one; see spec/README.md)")
        if status in ("provisional", "open"):
            _require_words(ck, where, r, values, str(status))
        decisions = _parse_decisions(ck, where, r.get("decision"), values, status)
        decides = _parse_decides(ck, where, r.get("decides", []))
        if rid is None:
            continue
        if not ID_RE.match(rid):
            ck.add(where, "id", f"{rid!r} must be kebab-case (a-z, 0-9, '-')")
        if rid in rows:
            ck.add(where, "id", "duplicate rule id")
            continue
        rows[rid] = Row(
            id=rid,
            section=str(r.get("section", "")),
            status=str(status),
            vi=str(r.get("vi", "")),
            en=str(r.get("en", "")),
            default=default if isinstance(default, str) else None,
            values=tuple(values),
            value_text={k: dict(v) for k, v in values.items() if isinstance(v, dict)},
            found_by=str(found_by),
            decisions=decisions,
            locator=locator,
            title_vi=str(r.get("title_vi") or ""),
            title_en=str(r.get("title_en") or ""),
            decides=decides,
        )
    return rows


def _parse_decides(ck: _Checker, where: str, raw: Any) -> tuple[str, ...]:
    """A row's ``decides``: the ids of the machine's own decisions it states (the
    inventory of ``chanspec audit``, docs/decisions.json).  Only their form is checked
    here; whether each id is a decision the audit knows is checked by the audit and its
    test (the loader does not import the audit)."""
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        ck.add(where, "decides", f"expected a list of decision ids, found {raw!r}")
        return ()
    for x in raw:
        if not DECISION_ID_RE.match(x):
            ck.add(where, "decides", f"{x!r} is not a decision id like "
                   "'game.State._window_options/cmp/1a2b3c4d' (chanspec audit lists them)")
    if len(set(raw)) != len(raw):
        ck.add(where, "decides", "a decision id is listed twice")
    return tuple(raw)


TITLE_FIELDS = ("title_vi", "title_en")
# Keys of a ``[[rule]]`` row that only say what the audit of the machine's own decisions
# found (`chanspec audit`): neither the machine nor the checker reads them, so they are
# left out of the findings' digest (`without_wording`) and of `Table.digest`.
AUDIT_KEYS = ("decides",)
DECISION_ID_RE = re.compile(r"^[a-z0-9_]+\.[A-Za-z0-9_<>.]+/(cmp|drop|if)/[0-9a-f]{8}(#[0-9]+)?$")
LABEL_FIELDS = ("label_vi", "label_en")
# The keys of a ``[[rule]]`` row (and of its ``values`` entries and ``[[rule.decision]]``
# entries) and of ``[ruleset]`` that hold only words shown to people: `without_wording`.
WORDING_KEYS = frozenset({*TITLE_FIELDS, *LABEL_FIELDS, "vi", "en", "section", "locator",
                          "note"})


def without_audit(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of table data without the rows' `AUDIT_KEYS` (what `Table.digest` hashes)."""
    out = dict(data)
    if isinstance(data.get("rule"), list):
        out["rule"] = [{k: v for k, v in r.items() if k not in AUDIT_KEYS}
                       if isinstance(r, Mapping) else r for r in data["rule"]]
    return out


def without_wording(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of table data without its `WORDING_KEYS`: what the machine and the checker
    read of it.  The saved findings are keyed by a digest of this
    (`chanspec.checks.findings.compute.table_digest`): their facts (searches,
    frequencies, witnesses' deals and actions) do not depend on how a row is titled,
    paraphrased or placed in the text, and the words they show are told again from
    today's table by `chanspec.checks.findings.compute.retell` (seconds, where a
    recompute takes minutes).  So rewording a row, or giving it a title, keeps its
    findings; changing any value the machine reads does not.  Logs and vectors name a
    table by the full `Table.digest` instead."""
    def strip(m: Any) -> Any:
        return {k: v for k, v in m.items() if k not in WORDING_KEYS} if isinstance(
            m, Mapping) else m

    out = dict(data)
    if isinstance(data.get("ruleset"), Mapping):
        out["ruleset"] = strip(data["ruleset"])
    rows = []
    for r in data.get("rule", []) if isinstance(data.get("rule"), list) else []:
        if isinstance(r, Mapping):  # nor what the audit found (`AUDIT_KEYS`)
            r = {k: v for k, v in r.items() if k not in AUDIT_KEYS}
        r = strip(r)
        if isinstance(r, dict):
            if isinstance(r.get("values"), Mapping):
                r["values"] = {k: strip(v) for k, v in r["values"].items()}
            if isinstance(r.get("decision"), list):
                r["decision"] = [strip(d) for d in r["decision"]]
        rows.append(r)
    if "rule" in data:
        out["rule"] = rows
    return out
SHORT_MAX = 60  # characters: a title or label is a few words, not a sentence


def _check_short(ck: _Checker, where: str, fld: str, text: Any) -> None:
    """A title or label: a short one-line string."""
    if not isinstance(text, str):
        ck.add(where, fld, f"expected a short string, found {type(text).__name__} {text!r}")
    elif not text.strip():
        ck.add(where, fld, "must not be empty")
    elif "\n" in text or len(text) > SHORT_MAX:
        ck.add(where, fld, f"must be a few words on one line (at most {SHORT_MAX} "
               f"characters), found {len(text)}: put the full sentence in vi/en")


def _require_title(ck: _Checker, rid: Any, rows: Mapping[str, Row], cited_by: str) -> None:
    """A row that scenarios cite to the family (who won a claim, why a ban) needs its
    short title, whatever its status."""
    row = rows.get(rid) if isinstance(rid, str) else None
    if row is not None and not (row.title_vi and row.title_en):
        ck.add(row.id, "title_vi" if not row.title_vi else "title_en",
               f"cited by {cited_by}: scenarios name it to the family by a short title "
               "(title_vi and title_en)")


def _require_words(ck: _Checker, where: str, r: Mapping[str, Any],
                   values: Mapping[str, Any], status: str) -> None:
    """An open or provisional row's values are shown to the family by their labels
    (never by their ids): they are required, and must tell the values apart (the row's
    own title is required of every row, in `_parse_rows`)."""
    for lang_fld in LABEL_FIELDS:
        seen: dict[str, str] = {}
        for name, text in values.items():
            if not isinstance(text, dict):
                continue
            if lang_fld not in text:
                ck.add(where, f"values.{name}.{lang_fld}", f"{_a(status)} row needs a short "
                       f"label for each value ({lang_fld} = \"…\"), shown to the family "
                       "instead of the value's id")
                continue
            lab = text[lang_fld]
            if isinstance(lab, str) and lab.strip():
                key = lab.strip().casefold()
                if key in seen:
                    ck.add(where, f"values.{name}.{lang_fld}", f"{lab!r} is also the label "
                           f"of {seen[key]!r}: labels must tell the values apart")
                seen.setdefault(key, name)


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _parse_decisions(ck: _Checker, where: str, raw: Any, values: Mapping[str, Any],
                     status: Any) -> tuple[Mapping[str, str], ...]:
    """``[[rule.decision]]`` entries (written by ``chanspec settle``), checked."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        ck.add(where, "decision", "expected a list of [[rule.decision]] tables")
        return ()
    out: list[Mapping[str, str]] = []
    for k, d in enumerate(raw):
        w = f"{where}.decision[{k}]"
        if not ck.keys(w, d, ["date", "value", "was"], ["was_default", "note", "by"]):
            continue
        d = {k: v.isoformat() if k == "date" and hasattr(v, "isoformat") else v
             for k, v in d.items()}  # a TOML date literal reads as a date
        if not all(isinstance(v, str) for v in d.values()):
            ck.add(w, "", "every field of a decision is a string")
            continue
        if not DATE_RE.match(d["date"]):
            ck.add(w, "date", f"{d['date']!r} is not a date written YYYY-MM-DD")
        for fld in ("value", "was_default"):
            if fld in d and d[fld] not in values:
                ck.add(w, fld, f"{d[fld]!r} is not one of the row's values "
                       f"({', '.join(values) or 'none'})")
        if d["was"] not in ("open", "provisional"):
            ck.add(w, "was", f"{d['was']!r}: a decision settles an open or provisional row")
        out.append(dict(d))
    if out and status != "settled":
        ck.add(where, "decision", "a row with decisions must be settled (chanspec settle "
               "--undo removes the decision with the status)")
    return tuple(out)


def before_decisions(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of table data in which every decision that kept the value already in use
    (chosen ``value`` = ``was_default``) is taken back: the row as it was before.  Such a
    decision changes no game, so what was computed on the table before it still holds;
    a decision that changed the value is left in place."""
    out = dict(data)
    rows = []
    for r in data.get("rule", []):
        ds = r.get("decision") if isinstance(r, dict) else None
        if (ds and isinstance(ds, list) and all(isinstance(d, dict) for d in ds)
                and all(d.get("value") == d.get("was_default") == r.get("value") for d in ds)):
            r = {k: v for k, v in r.items() if k not in ("decision", "value")}
            r["status"] = ds[0].get("was", "open")
            if "was_default" in ds[0]:
                r["default"] = ds[0]["was_default"]
        rows.append(r)
    out["rule"] = rows
    return out


def _toml_error(path: str, exc: tomllib.TOMLDecodeError) -> Problem:
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    where = f"line {m.group(1)}, column {m.group(2)}" if m else "(syntax)"
    return Problem(path, where, "", f"not valid TOML: {exc}")


# --------------------------------------------------------------------------- presets
# Named sets of option values, ``[presets.NAME]``, shared by every kind: checked here
# while a table loads; read and applied by `chanspec.model.presets`.

PRESETS = "presets"  # the table's key


def check_presets(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """The ``[presets]`` of a table's data: each a table with both titles and options
    that name open or provisional rows and values those rows have."""
    raw = data.get(PRESETS)
    if raw is None:
        return
    if not isinstance(raw, dict):
        ck.add(PRESETS, "", f"expected [{PRESETS}.NAME] tables, found {type(raw).__name__}")
        return
    choices = sorted(r.id for r in rows.values() if r.is_choice)
    for name, entry in raw.items():
        where = f"{PRESETS}.{name}"
        if not ID_RE.match(str(name)):
            ck.add(where, "", "a preset name must be kebab-case, e.g. durak-two")
        if not ck.keys(where, entry, ["title_vi", "title_en", "options"]):
            continue
        for fld in ("title_vi", "title_en"):
            if fld in entry and not (isinstance(entry[fld], str) and entry[fld].strip()):
                ck.add(where, fld, "expected a non-empty string")
        opts = entry.get("options")
        if not isinstance(opts, dict) or not opts:
            ck.add(where, "options", 'expected a table of row = "value", e.g. '
                   'options = { after-take = "after-taker" }')
            continue
        for rid, value in opts.items():
            row = rows.get(rid)
            fld = f"options.{rid}"
            if row is None:
                near = difflib.get_close_matches(str(rid), choices, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                ck.add(where, fld, f"no row {rid!r} in this table{hint}")
            elif not row.is_choice:
                ck.add(where, fld, f"row {rid!r} is settled; a preset sets only open or "
                       f"provisional rows ({', '.join(choices)})")
            elif value not in row.values:
                ck.add(where, fld, f"row {rid!r} has no value {value!r}; its values are "
                       f"{', '.join(row.values)}")


def preset_problems(table: Any, path: str) -> list[Problem]:
    """The presets' option values a loaded table's own `check_options` refuses (e.g. a
    reading its machine does not play yet), as problems naming the preset."""
    out = []
    for name, entry in (table.data.get(PRESETS) or {}).items():
        try:
            table.check_options({str(k): str(v) for k, v in entry["options"].items()})
        except OptionError as exc:
            out.append(Problem(path, f"{PRESETS}.{name}", "options", str(exc)))
    return out


def builtin_path(name: str) -> Path:
    return Path(str(importlib.resources.files("chanspec.spec").joinpath(f"{name}.toml")))


def builtin_names() -> list[str]:
    root = importlib.resources.files("chanspec.spec")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))
