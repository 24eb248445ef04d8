"""Loading and validating a rule table (``spec/*.toml``), and resolving it into `Rules`.

The table is data.  This module reads it with :mod:`tomllib`, checks every field against
the vocabulary below, and reports *every* problem at once, each with the file, the rule
id (or table path) and the field.  Nothing from the table is ever executed.

`Table` is the validated file; `Table.resolve(players, options)` gives `Rules`, the
concrete parameters one game runs under.

A table picks its deck from the 30-face universe of `cards` (``[deck] faces``: ``"all"``
or a list of codes).  Its ``[turn] flow`` names the turn it states: absent, the machine's
own (`PLAYED_FLOWS`), with every section the machine reads required; another flow (classic
Chắn's) makes [eating], [[claim]], [claims] and [[restriction]] optional and requires
``flow_rules``, the rows of that turn, which `Table.machine_gap` names when a command
would play a hand.  ``[win] exact_min`` lists faces that complete only a hand of exactly
the minimum chắn, for the kinds of win ``exact_min_applies`` (or, per value of the option
row ``exact_min_rule``, ``exact_min_applies_by_value``) names.

The vocabulary the machine interprets is listed below as constants: `TRIGGERS` and `BANS`
for ``[[restriction]]`` (what creates a ban and what it forbids), `SCOPES` for how far a
ban reaches from the triggering card (`Rules.scope_faces`), `CA_KINDS` for the classes
of cạ, `MACHINE_VALUES` for the option rows the machine reads by role.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.resources
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import textfile
from .chan import cards

STATUSES = ("settled", "provisional", "open")
SOURCES = ("draw", "discard", "return")
CLAIMS = ("u", "chiu", "chiu-u", "eat")
TRIGGERS = (
    "pass-could-chan", "pass-could-ca", "discard", "eat-ca", "decline-u", "decline-opening",
    "eat", "discard-ca", "discard-from-chan",
)
BANS = ("eat-chan", "eat-ca", "chiu", "discard", "discard-ca-pair", "discard-ca-eaten", "win",
        "eat-ca-with")
# Conditions on the hand at the moment of an eat (a ``[[restriction]]`` with ``when``
# instead of ``trigger``: it bans the act while the condition holds; x is the card taken,
# y the card used from the hand; "a held cạ" is two faces that pair, each held an odd
# number of times, so that neither stands in a chắn):
#   holds-taken-face   the hand holds a card of x's face (eating x as a cạ: a chắn was there)
#   holds-three-taken  the hand holds three of x (eating it instead of a chíu)
#   used-from-chan     y stands in a chắn held (an even count of y, at least two)
#   used-from-ca       y stands in a cạ held
#   holds-ca-of-rank   the hand holds a cạ of x's rank
#   one-loose-card     the concealed hand is all pairs but one card
#   waiting-card-used  ... and y is that one card
HAND_CONDITIONS = ("holds-taken-face", "holds-three-taken", "used-from-chan", "used-from-ca",
                   "holds-ca-of-rank", "one-loose-card", "waiting-card-used")
WHEN_BANS = ("eat-chan", "eat-ca")
# How far a restriction's bans reach from the card that triggered them (`scope`, or
# `scope_option` + `scope_by_value`; the default is "face"):
#   face         that face only
#   rank         every face of the deck with the same rank (every suit of it); a face
#                without a rank (Chi Chi, Lão, Thang) reaches only itself
#   ca-partners  the face and every face that forms a cạ with it under the table's
#                pairing (for the rules resolved: `lao-thang` may add or remove a partner)
#   any          every face of the deck
# A scope wider than "face" applies only to bans on a face (`SCOPED_BANS`): a ban on any
# face (win, discard-ca-pair) or on the faces of an eaten cạ has no scope to widen.
SCOPES = ("face", "rank", "ca-partners", "any")
SCOPED_BANS = ("eat-chan", "eat-ca", "chiu", "discard", "eat-ca-with")
CA_KINDS = ("same-rank", "within-group", "pair", "special-flag")
WIN_KINDS = ("u", "chiu-u", "opening")
PRIORITY_CLAIMS = ("u", "chiu-u", "chiu", "reclaim", "eat")
# What a declaration (xướng) wrong in one way leads to (`[declaration]`, model/chan/declare.py).
DECLARE_CONSEQUENCES = ("paid-named", "den")
# Option rows the machine interprets by role: the values it knows for each.
MACHINE_VALUES: dict[str, tuple[str, ...]] = {
    "turn.drawn_offer_rule": ("drawer-then-next", "next-only"),
    "turn.stuck_rule": ("as-written", "lift-bans", "forbid-claim"),
    "turn.empty_hand_rule": ("as-written", "forbid"),
    "turn.timeout_rule": ("none", "auto-pass"),
    "turn.reclaim_rule": ("never", "before-next-acts"),
    "turn.return_resume_rule": ("dead-passer-draws", "to-next-seat"),
    "turn.exhausted_rule": ("draw-due", "noc-empty"),
    "turn.decline_rule": ("any-other-answer", "pass-only"),
    "turn.own_draw_pass_rule": ("counts", "not-counted"),
    "turn.return_discard_rule": ("a-discard", "not-a-discard"),
    "eating.split_chan_rule": ("allowed", "forbidden"),
    "eating.no_split_scope_rule": ("always", "after-eating-ca"),
    "eating.ca_over_chan_rule": ("no-ban", "counts-as-pass"),
    "turn.restriction_mode_rule": ("forbid", "penalise"),
    # letting a win on a card turned up from the nọc go is a fault of its own (bỏ ù)
    "turn.decline_fault_rule": ("free", "fault"),
    # the dealing ritual ([cai], model/chan/cai.py): what the count runs round with fewer than
    # four players, who draws the cái card when nobody won a hand before, where it goes
    "cai.places_rule": ("players", "four-places"),
    "cai.first_drawer_rule": ("given-seat", "by-chance"),
    "cai.card_rule": ("opener-hand", "noc"),
    # the reading of laid groups when a win is judged (model/chan/win.py, `Rules.laid_pooled`)
    "win.laid_rule": ("as-laid", "pooled"),
    # after a win the winner declares their cước (xướng): a phase of the machine
    "turn.declare_rule": ("none", "declare"),
    # what a fault (restriction-mode=penalise) changes in the play: nothing, or the first
    # offender is báo and may from then on only draw, pass and win (no eat, no chíu)
    "turn.fault_play_rule": ("plays-on", "draw-and-pass"),
    # whether a fault's cost (and what it changes in the play) is the one class of
    # `payment.fault_rule` for every fault, or, for the rules of play named in
    # ``[turn] fault_classes``, the class given there (`FAULT_CLASSES`)
    "turn.fault_class_rule": ("one-class", "by-rule"),
    # what a declaration that is wrong in one way costs (`model/chan/declare.py`, `[declaration]`):
    # paid-named: the winner is paid for the cước named and held; den: the winner pays
    "declaration.over_rule": DECLARE_CONSEQUENCES,
    "declaration.under_rule": DECLARE_CONSEQUENCES,
    "declaration.must_missing_rule": DECLARE_CONSEQUENCES,
    # what the winner pays (den): the worth of the cước named, or of those truly held
    "declaration.den_amount_rule": ("declared", "held"),
    # read once a hand is over, never by a step of play: who pays whom ([payment],
    # model/chan/pay.py) and what a session carries to the next hand ([session],
    # model/chan/session.py)
    "payment.payers_rule": ("each", "giver"),
    "payment.fault_rule": ("treo-tranh", "bao"),
    "payment.below_min_rule": ("unpaid", "den"),
    # whether the winner of the cước `chi_rong_cuoc` who kept waiting on Chi Chi alone
    # when a card it could eat or chíu went by is fined `chi_rong_fine` (000 cước 20)
    "payment.chi_rong_fine_rule": ("none", "fined"),
    "session.after_draw_rule": ("same-drawer", "next-seat"),
    "session.thong_who_rule": ("same-seat", "any-seat"),
    "session.thong_under_rule": ("counts", "breaks"),
}
# The sections read after a hand is over (by model/chan/pay.py, model/chan/session.py): no step of
# play cites their rows.
SETTLE_SECTIONS = ("payment", "session")
PAYMENT_FIELDS = ["rule", "payers_rule", "fault_rule", "below_min_rule"]
# the fine for keeping the Chi Chi wait: its row, the cước it follows, and its points
CHI_RONG_FIELDS = ["chi_rong_fine_rule", "chi_rong_cuoc", "chi_rong_fine"]
SESSION_FIELDS = ["rule", "after_draw_rule", "thong_rule", "thong_who_rule",
                  "thong_under_rule"]
# What the machine reads for a role the table leaves out (only the optional roles).
MACHINE_DEFAULTS = {"eating.split_chan_rule": "allowed", "eating.no_split_scope_rule": "always",
                    "turn.restriction_mode_rule": "forbid", "win.laid_rule": "as-laid",
                    "turn.decline_fault_rule": "free", "turn.declare_rule": "none",
                    "turn.fault_play_rule": "plays-on", "turn.fault_class_rule": "one-class",
                    "payment.chi_rong_fine_rule": "none"}
# Where a row's words are in the family's text: "<seed file> §<part> ¶<n>|•<n> s<m>[-<k>]",
# several places separated by "; " (paragraph or bullet n of part, sentence m of it).
# A text without numbered parts is placed by heading: "[<heading>] ¶<n>|•<n>|#<n> s<m>[-<k>]"
# (# a numbered item under the heading); a text of paragraphs only (003) by "¶<n> s<m>";
# a place may name another seed file first.
_PLACE = r"(?:§\d+ [¶•]\d+|\[[^\]\n;]+\] [¶•#]\d+|¶\d+) s\d+(?:-\d+)?"
_FILE = r"[\w.-]+\.txt"
LOCATOR_RE = re.compile(rf"^{_FILE} {_PLACE}(?:; (?:{_FILE} )?{_PLACE})*$")
# The turn the machine plays: a table whose [turn] names another `flow` is loaded and its
# hands judged, but no hand of it is played (`Table.machine_gap` says what is missing).
PLAYED_FLOWS = ("family",)
# The sections only the machine's turn reads; optional when the table's flow is not played.
TURN_SECTIONS = ("eating", "turn", "claim", "claims", "restriction")
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


class MachineGapError(ValueError):
    """A table whose turn (``[turn] flow``) the machine does not play; `vi` and `en` are
    the one-line reason in each language."""

    def __init__(self, vi: str, en: str):
        self.vi, self.en = vi, en
        super().__init__(en)


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


@dataclass(frozen=True)
class Variant:
    rule: str
    players: int
    opener_cards: int
    other_cards: int
    pairs: int
    min_chan: int


@dataclass(frozen=True)
class Restriction:
    """A ``[[restriction]]`` resolved: the bans its trigger creates, and how far they reach
    from the triggering card (`scope`, one of `SCOPES`; `scope_rule` is the option row
    that chose it, empty when the restriction states its scope itself).  A restriction
    with `when` (one of `HAND_CONDITIONS`) and no trigger bans its acts while the hand
    meets that condition."""

    rule: str
    trigger: str
    bans: tuple[str, ...]
    scope: str = "face"
    scope_rule: str = ""
    when: str = ""


@dataclass(frozen=True)
class ClaimRule:
    allowed: bool
    rule: str


@dataclass(frozen=True)
class Rules:
    """One table resolved for a player count and a choice of every option."""

    table: Table
    variant: Variant
    options: Mapping[str, str]
    faces: tuple[int, ...]  # faces in the deck
    copies: int
    red: frozenset[int]
    ca_rules: tuple[tuple[tuple[str, ...], ...], ...]  # [a][b] -> rule ids making a cạ
    special: tuple[tuple[bool, ...], ...]  # [a][b] -> special cạ
    components: tuple[tuple[int, ...], ...]  # connected classes of the cạ graph
    never_complete: frozenset[int]
    never_complete_applies: frozenset[str]
    claims: Mapping[tuple[str, str], ClaimRule]
    priority: tuple[tuple[str, ...], ...]
    restrictions: tuple[Restriction, ...]
    odd_group: frozenset[int]
    ca_class_rules: tuple[str, ...]  # every [[pairing.ca]] row, for "no cạ" explanations
    rule_ids: Mapping[str, str]  # role -> row id, from [win], [eating], [turn], ...
    # faces that complete only a hand of exactly `min_chan` chắn, by which kinds of win
    # ([win] exact_min, exact_min_applies or exact_min_applies_by_value)
    exact_min: frozenset[int] = frozenset()
    exact_min_applies: frozenset[str] = frozenset()
    # role -> the value the machine reads for it (`MACHINE_VALUES`), under these options
    machine: Mapping[str, str] = field(default_factory=dict)
    # chắn needed for a win on the dealt hand ([win] opening_min_chan; min_chan otherwise)
    opening_min_chan: int = -1
    # [cai]: the number each face of the deck counts as when it is the cái card; None for
    # a table without the dealing ritual (the opener is given)
    cai_counts: Mapping[int, int] | None = None

    def __post_init__(self) -> None:
        if self.opening_min_chan < 0:
            object.__setattr__(self, "opening_min_chan", self.variant.min_chan)

    @property
    def laid_pooled(self) -> bool:
        """[win] laid_rule reads ``pooled``: laid chắn and cạ are split again with the
        concealed cards when a win is judged (False: as laid, also without the role)."""
        return self.machine.get("win.laid_rule", "as-laid") == "pooled"

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def pairs(self) -> int:
        return self.variant.pairs

    @property
    def min_chan(self) -> int:
        return self.variant.min_chan

    def is_ca(self, a: int, b: int) -> bool:
        return bool(self.ca_rules[a][b])

    def is_special(self, a: int, b: int) -> bool:
        return self.special[a][b]

    def option(self, name: str) -> str:
        return self.options[name]

    def rid(self, role: str) -> str:
        return self.rule_ids[role]

    def machine_value(self, role: str) -> str:
        """The value the machine reads for a role of `MACHINE_VALUES` (e.g.
        ``turn.timeout_rule`` -> ``none``): the option value of its row, or what the table
        states for it."""
        return self.machine[role]

    def scope_faces(self, scope: str, face: int) -> tuple[int, ...]:
        """The faces a ban of this `scope` (one of `SCOPES`) triggered by `face` covers,
        `face` first, then the others in face order.

        >>> rules("family", 4).scope_faces("rank", cards.parse("3v"))  # 3v, 3n, 3s
        (2, 11, 20)
        """
        if scope == "face":
            return (face,)
        if scope == "rank":
            r = cards.rank_of(face)
            return (face,) + tuple(f for f in self.faces
                                   if f != face and r is not None and cards.rank_of(f) == r)
        if scope == "ca-partners":
            return (face,) + tuple(f for f in self.faces if f != face and self.is_ca(face, f))
        if scope == "any":
            return (face,) + tuple(f for f in self.faces if f != face)
        raise ValueError(f"unknown restriction scope {scope!r}; scopes: {', '.join(SCOPES)}")

    def with_options(self, **changes: str) -> Rules:
        opts = dict(self.options)
        opts.update({k.replace("_", "-"): v for k, v in changes.items()})
        return self.table.resolve(self.players, opts)

    def key(self) -> tuple[Any, ...]:
        return (self.table.id, self.players, tuple(sorted(self.options.items())))


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

    def face(self, where: str, fld: str, text: Any) -> int | None:
        if not isinstance(text, str):
            self.add(where, fld, f"expected a card code, found {text!r}")
            return None
        try:
            return cards.parse(text)
        except cards.CardError as e:
            self.add(where, fld, str(e))
            return None

    def faces(self, where: str, fld: str, items: Any) -> list[int]:
        if not isinstance(items, list):
            self.add(where, fld, f"expected a list of card codes, found {items!r}")
            return []
        out = []
        for i, t in enumerate(items):
            f = self.face(where, f"{fld}[{i}]", t)
            if f is not None:
                out.append(f)
        return out

    def ref(self, where: str, fld: str, rid: Any, rows: Mapping[str, Any]) -> None:
        if not isinstance(rid, str):
            self.add(where, fld, f"expected a rule id, found {rid!r}")
        elif rid not in rows:
            near = difflib.get_close_matches(rid, sorted(rows), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            self.add(where, fld, f"refers to rule {rid!r}, which no [[rule]] row defines{hint}")


@dataclass(frozen=True)
class Table:
    """A validated rule table."""

    id: str
    path: str
    data: Mapping[str, Any]
    rows: Mapping[str, Row]
    variants: Mapping[int, Variant]
    # resolved rules by (players, options in force): a table never changes, and
    # resolving is the slow part of starting a hand (a replayed log, an engine's start)
    _resolved: dict[tuple[Any, ...], Rules] = field(default_factory=dict, compare=False,
                                                    repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_resolved": {}}  # the cache is not sent to other processes

    @property
    def title_vi(self) -> str:
        return str(self.data["ruleset"]["title_vi"])

    @property
    def title_en(self) -> str:
        return str(self.data["ruleset"]["title_en"])

    @property
    def kind_name(self) -> str | None:
        """The table's ``[ruleset] kind``, None when it states none (then the registry's
        default kind, `chanspec.model.kinds.of`, plays it)."""
        kind = self.data["ruleset"].get("kind")
        return None if kind is None else str(kind)

    def digest(self) -> str:
        """SHA-256 of the table's data (not of its file: comments and layout do not count);
        logs name a table by it (saved findings use the same digest of the table with
        its decisions taken back and without its words, `without_wording`:
        `chanspec.checks.findings.compute.table_digest`)."""
        text = json.dumps(without_audit(self.data), sort_keys=True, ensure_ascii=False,
                          default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def flow(self) -> str:
        """The turn the table states (``[turn] flow``; the machine's own when absent)."""
        turn = self.data.get("turn", {})
        return str(turn.get("flow", PLAYED_FLOWS[0]))

    def machine_gap(self) -> tuple[str, str] | None:
        """None when the machine can play a hand of this table; otherwise one line in
        Vietnamese and one in English naming what it lacks: the table's ``[turn] flow``
        and the rows of ``flow_rules`` (by their titles)."""
        if self.flow in PLAYED_FLOWS:
            return None
        ids = self.data["turn"].get("flow_rules", [])
        rows = [self.rows[r] for r in ids if r in self.rows]
        vi = ", ".join(f"{r.title('vi')} ({r.id})" for r in rows)
        en = ", ".join(f"{r.title('en')} ({r.id})" for r in rows)
        return (f"bảng {self.id!r} có lượt chơi [turn] flow = {self.flow!r}, máy chưa chơi "
                f"được (máy chỉ chơi lượt {', '.join(PLAYED_FLOWS)}); còn thiếu: {vi}",
                f"table {self.id!r} states [turn] flow = {self.flow!r}, which the machine "
                f"does not play yet (it plays the {', '.join(PLAYED_FLOWS)} turn only); "
                f"missing: {en}")

    def require_playable(self) -> None:
        """Nothing when the machine plays this table's turn; raises MachineGapError
        naming what it lacks otherwise (`machine_gap`)."""
        gap = self.machine_gap()
        if gap is not None:
            raise MachineGapError(*gap)

    def deck_faces(self) -> tuple[int, ...]:
        """The faces of this table's deck, in face order."""
        faces = self.data["deck"]["faces"]
        if faces == "all":
            return tuple(range(cards.NUM_FACES))
        return tuple(sorted({cards.parse(c) for c in faces}))

    def check_cards(self, faces: Iterable[int]) -> list[int]:
        """`faces` unchanged when every one is in this table's deck; raises CardError
        naming the first that is not and the faces the deck has."""
        return cards.require_in_deck(faces, self.deck_faces(), f"{self.id!r} ({self.title_en})")

    def is_builtin(self) -> bool:
        """Is this the built-in table of the same id, unchanged?"""
        return self.id in builtin_names() and load(self.id).digest() == self.digest()

    def option_rows(self) -> list[Row]:
        """The open and provisional rows: the choices ``--option`` may make."""
        return [r for r in self.rows.values() if r.is_choice]

    def defaults(self) -> dict[str, str]:
        """The value in force of every row the machine reads a value for: the default
        of an open or provisional row, the chosen value of a settled one."""
        return {r.id: r.default for r in self.rows.values()
                if r.is_option and r.default is not None}

    def parse_options(self, items: Iterable[str]) -> dict[str, str]:
        """``["lao-thang=off", ...]`` -> {"lao-thang": "off"}, with clear errors."""
        out = option_items(items, "lao-thang=off")
        self.check_options(out)
        return out

    def check_options(self, options: Mapping[str, str]) -> None:
        rows = {r.id: r for r in self.option_rows()}
        for k, v in options.items():
            row = self.rows.get(k)
            if k not in rows and row is not None and row.is_option:
                if v == row.default:
                    continue
                when = row.decisions[-1].get("date", "?") if row.decisions else "?"
                raise OptionError(
                    f"{k!r} was settled as {row.default!r} ({when}); its other readings "
                    f"({', '.join(x for x in row.values if x != row.default)}) are history. "
                    f"To try one, reopen it: chanspec settle --undo {k}")
            if k not in rows:
                near = difflib.get_close_matches(k, sorted(rows), n=1)
                hint = f" Did you mean {near[0]!r}?" if near else ""
                raise OptionError(
                    f"there is no option {k!r} in table {self.id!r}.{hint} "
                    f"Options: {', '.join(sorted(rows))}"
                )
            if v not in rows[k].values:
                raise OptionError(
                    f"option {k!r} has no value {v!r}; its values are: "
                    f"{', '.join(rows[k].values)} (default {rows[k].default})"
                )

    def rows_named_in(self, sections: Iterable[str]) -> set[str]:
        """The row ids named anywhere (any depth of tables and lists) in these sections
        of the table's data: the rows those sections make the machine read."""
        found: set[str] = set()

        def walk(x: Any) -> None:
            if isinstance(x, str) and x in self.rows:
                found.add(x)
            elif isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        for name in sections:
            walk(self.data.get(name))
        return found

    def option_space(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(r.id, r.values) for r in self.option_rows()]

    def resolve(self, players: int, options: Mapping[str, str] | None = None) -> Rules:
        if players not in self.variants:
            raise OptionError(
                f"table {self.id!r} has no variant for {players} players; "
                f"it has: {', '.join(str(p) for p in sorted(self.variants))}"
            )
        opts = self.defaults()
        if options:
            self.check_options(options)
            opts.update(options)
        key = (players, tuple(sorted(opts.items())))
        rules = self._resolved.get(key)
        if rules is None:
            rules = self._resolved[key] = _resolve(self, self.variants[players], opts)
        return rules


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


def _validate(ck: _Checker, data: dict[str, Any]) -> tuple[dict[str, Row], dict[int, Variant]]:
    turn0 = data.get("turn")
    flow = turn0.get("flow", PLAYED_FLOWS[0]) if isinstance(turn0, dict) else PLAYED_FLOWS[0]
    played = flow in PLAYED_FLOWS
    base = ["schema", "ruleset", "deck", "variant", "pairing", "win", "rule"]
    ck.keys("(top level)", data, base + ["turn"] + (list(TURN_SECTIONS) if played else []),
            ([] if played else [s for s in TURN_SECTIONS if s != "turn"])
            + ["cuoc", "scoring", "cai", "declaration", "presets", *SETTLE_SECTIONS])
    if data.get("schema") != 1:
        ck.add("(top level)", "schema",
               f"this chanspec reads schema 1, found {data.get('schema')!r}")
    rows = _parse_rows(ck, data)

    rs = data.get("ruleset", {})
    if ck.keys("ruleset", rs, ["id", "title_vi", "title_en", "source"], ["kind"]):
        for f in ("id", "title_vi", "title_en", "source") + (("kind",) if "kind" in rs else ()):
            ck.typed("ruleset", rs, f, str)

    deck = data.get("deck", {})
    deck_size: int | None = None
    if ck.keys("deck", deck, ["rule", "faces", "copies"], ["red"]):
        ck.ref("deck", "rule", deck.get("rule"), rows)
        n_faces: int | None = cards.NUM_FACES
        if deck.get("faces") != "all":
            listed = ck.faces("deck", "faces", deck.get("faces"))
            for f in sorted({f for f in listed if listed.count(f) > 1}):
                ck.add("deck", "faces", f"{cards.label(f)} is listed {listed.count(f)} times; "
                       "list each face once and set how many of each with copies")
            n_faces = len(set(listed)) if isinstance(deck.get("faces"), list) else None
            if deck.get("faces") == []:
                ck.add("deck", "faces", "the deck lists no face; list its card codes (e.g. "
                       "[\"2v\", \"3v\", …]) or write \"all\" for the 30 faces")
        c = ck.typed("deck", deck, "copies", int)
        if c is not None and not 1 <= c <= 8:
            ck.add("deck", "copies", f"expected 1..8 copies of each face, found {c}")
            c = None
        if c is not None and n_faces:
            deck_size = n_faces * c
        if "red" in deck:
            ck.faces("deck", "red", deck["red"])

    variants: dict[int, Variant] = {}
    vs = data.get("variant")
    if not isinstance(vs, list) or not vs:
        ck.add("variant", "", "expected at least one [[variant]]")
        vs = []
    for i, v in enumerate(vs):
        where = f"variant[{i}]"
        fields = ["rule", "players", "opener_cards", "other_cards", "pairs", "min_chan"]
        if not ck.keys(where, v, fields):
            continue
        ck.ref(where, "rule", v.get("rule"), rows)
        nums = {f: ck.typed(where, v, f, int) for f in fields[1:]}
        if any(n is None for n in nums.values()):
            continue
        p, oc, xc, pairs, mc = (int(nums[f]) for f in fields[1:])  # type: ignore[arg-type]
        if not 2 <= p <= 8:
            ck.add(where, "players", f"expected 2..8 players, found {p}")
            continue
        if oc != xc + 1:
            ck.add(where, "opener_cards", f"the opener gets one card more than the others "
                   f"({xc} + 1), found {oc}")
        if xc + 1 != 2 * pairs:
            ck.add(where, "pairs", f"a complete hand of {xc} cards plus one must make {pairs} "
                   f"pairs, but {xc + 1} != 2 x {pairs}")
        if not 0 <= mc <= pairs:
            ck.add(where, "min_chan", f"expected 0..{pairs}, found {mc}")
        if p in variants:
            ck.add(where, "players", f"two variants for {p} players")
        dealt = oc + xc * (p - 1)
        if ck.dealt and deck_size is not None and deck_size < dealt + 1:
            ck.add(where, "players", f"the deck cannot be dealt: {p} players get {oc} + "
                   f"{p - 1} x {xc} = {dealt} cards and at least one card must stay in the "
                   f"nọc, but [deck] has only {deck_size} cards; add faces or copies to "
                   "[deck], or deal fewer cards")
        variants[p] = Variant(str(v.get("rule")), p, oc, xc, pairs, mc)

    pairing = data.get("pairing", {})
    if ck.keys("pairing", pairing, ["chan_rule", "ca"]):
        ck.ref("pairing", "chan_rule", pairing.get("chan_rule"), rows)
        cas = pairing.get("ca")
        if not isinstance(cas, list):
            ck.add("pairing", "ca", "expected a list of [[pairing.ca]] classes")
            cas = []
        for i, c in enumerate(cas):
            where = f"pairing.ca[{i}]"
            if not ck.keys(where, c, ["rule", "kind"], ["faces", "except", "special", "when"]):
                continue
            ck.ref(where, "rule", c.get("rule"), rows)
            kind = c.get("kind")
            if kind not in CA_KINDS:
                ck.add(where, "kind", f"{kind!r} is not one of {', '.join(CA_KINDS)}")
            if kind in ("within-group", "pair", "special-flag"):
                fs = ck.faces(where, "faces", c.get("faces"))
                if kind == "pair" and len(fs) != 2:
                    ck.add(where, "faces", "a 'pair' class names exactly two faces")
            elif "faces" in c:
                ck.add(where, "faces", "a 'same-rank' class takes no faces")
            exc = c.get("except", [])
            if not isinstance(exc, list):
                ck.add(where, "except", f"expected a list of pairs of card codes, found {exc!r}")
                exc = []
            for j, pr in enumerate(exc):
                if not isinstance(pr, list) or len(pr) != 2:
                    ck.add(where, f"except[{j}]", "expected a pair of card codes")
                else:
                    ck.faces(where, f"except[{j}]", pr)
            if "special" in c:
                ck.typed(where, c, "special", bool)
            if "when" in c:
                _check_cond(ck, where, "when", c["when"], rows)

    win = data.get("win", {})
    trios = (("never_complete", "never_complete_rule", "never_complete_applies"),
             ("special_ca_in_hand_rule", "special_ca_final_rule"))
    exact = ("exact_min", "exact_min_rule", "exact_min_applies", "exact_min_applies_by_value")
    # faces that never complete ù, and special cạ: each trio all or none (a table without
    # them has no such faces and no special cạ)
    opening = ("opening_rule", "opening_min_chan_by_value")
    if ck.keys("win", win, ["rule", "counts_rule"],
               [f for t in trios for f in t] + list(exact) + list(opening) + ["laid_rule"]):
        if any(f in win for f in opening):
            _check_opening(ck, win, rows)
        for group in trios:
            given = [f for f in group if f in win]
            if given and len(given) != len(group):
                for f in group:
                    if f not in win:
                        ck.add("win", f, f"goes with {', '.join(given)}: give all of "
                               f"{', '.join(group)} or none")
        for f in ("rule", "counts_rule", "never_complete_rule", "special_ca_in_hand_rule",
                  "special_ca_final_rule", "exact_min_rule", "laid_rule"):
            if f in win or f in ("rule", "counts_rule"):
                ck.ref("win", f, win.get(f), rows)
        if "never_complete" in win:
            ck.faces("win", "never_complete", win.get("never_complete"))
            ap = win.get("never_complete_applies")
            if not isinstance(ap, list) or any(a not in WIN_KINDS for a in ap):
                ck.add("win", "never_complete_applies",
                       f"expected a list from {', '.join(WIN_KINDS)}")
        _check_exact_min(ck, win, rows)

    _validate_turn(ck, data, rows, played)
    _validate_cai(ck, data, rows, variants)
    _check_machine_values(ck, data, rows)
    _validate_cuoc(ck, data, rows)
    _validate_declaration(ck, data, rows)
    _validate_settle(ck, data, rows)
    return rows, variants


def _check_machine_values(ck: _Checker, data: Mapping[str, Any],
                          rows: Mapping[str, Row]) -> None:
    """A role the machine reads a value for (`MACHINE_VALUES`) is well stated
    (`_check_role`), whichever section names it and whether or not the turn is played."""
    for role, vals in MACHINE_VALUES.items():
        sec, f = role.split(".")
        part = data.get(sec)
        _check_role(ck, sec, f, part.get(f, "") if isinstance(part, dict) else "", rows, vals)


# --------------------------------------------------------------------------- the cái

# [cai]: the dealing ritual (bốc cái), by role (see spec/README.md and model/chan/cai.py).
# ``rule`` names the row whose count decides the opener; ``counts`` the number each face
# of the deck counts as, by rank ("2".."9") or by a yêu face's code ("chi"); the other
# three roles are read as `MACHINE_VALUES` (cai.places_rule, cai.first_drawer_rule,
# cai.card_rule).  A table without [cai] deals the opener it is given.
CAI_FIELDS = ["rule", "counts", "places_rule", "first_drawer_rule", "card_rule"]
RANK_KEYS = tuple(str(r) for r in range(1, 10))


def cai_count_key(face: int) -> str:
    """The key of `face` in ``[cai] counts``: its rank ("7") or its yêu code ("chi")."""
    r = cards.rank_of(face)
    return cards.code(face) if r is None else str(r)


def _validate_cai(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row],
                  variants: Mapping[int, Variant]) -> None:
    """[cai], when present: every role names a row, and every face of the deck counts
    as a whole number of at least 1 (the drawer counts as one); a count for a rank the
    deck lacks is harmless (a smaller deck cut from the same table keeps its counts)."""
    if "cai" not in data:
        return
    cai = data["cai"]
    if not ck.keys("cai", cai, CAI_FIELDS):
        return
    for f in CAI_FIELDS:
        if f != "counts":
            ck.ref("cai", f, role_row(cai.get(f)), rows)
    counts = cai.get("counts")
    if not isinstance(counts, dict):
        ck.add("cai", "counts", "expected a table of the number each face counts as, by "
               'rank or yêu code, e.g. { chi = 1, "2" = 2, "7" = 7 }')
        return
    deck = data.get("deck", {})
    try:
        faces = (range(cards.NUM_FACES) if deck.get("faces") == "all"
                 else {cards.parse(c) for c in deck.get("faces", [])})
    except (cards.CardError, TypeError, AttributeError):
        return  # [deck] names the problem
    need = {cai_count_key(f) for f in faces}
    known = set(RANK_KEYS) | set(cards.YEU_CODES)
    for k, v in counts.items():
        if k not in known:
            ck.add("cai", f"counts.{k}", f"unknown key{_hint(k, sorted(known))}; a key is a "
                   'rank "1".."9" or a yêu code (chi, lao, thang)')
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            ck.add("cai", f"counts.{k}", f"expected a whole number of at least 1 (the "
                   f"drawer counts as one), found {v!r}")
    for k in sorted(need - set(counts)):
        ck.add("cai", "counts", f"missing the count of {k!r}: every face of the deck can "
               "be the cái card")
    for p, v in sorted(variants.items()):
        if v.opener_cards != v.other_cards + 1:
            ck.add("cai", "rule", f"the cái card makes the opener's hand one card more than "
                   f"the others', but the variant for {p} players deals {v.opener_cards} "
                   f"and {v.other_cards}")


# --------------------------------------------------------------------------- cước

# The closed vocabulary of hand predicates for ``[[cuoc]]`` (see model/chan/cuoc.py and the
# comment block above [[cuoc]] in spec/classic.toml).  A condition is one measure and one
# comparison, or one fact of the win context (and ``is = false`` to negate it), or
# ``any`` (a list of alternative lists of conditions); any condition may carry ``when``
# (an option condition: it applies only under that reading).
#   count = SELECTOR | [FACES]   over the final hand: CARD_SELECTORS, GROUP_SELECTORS
#                                (the win engine's decomposition), CONTEXT_SELECTORS
#   sets = [FACES]               complete sets of these faces (the fewest of them)
#   concealed = SCOPE | [FACES]  over the concealed part of the final hand
#   laid = SCOPE | [FACES] | "chiu" | "bon"   over the laid-down groups
#   laid_chan = [FACES]          laid-down chắn and chíu of these faces (each group once;
#                                a laid cạ holding the face does not count)
#   dealt = SCOPE | [FACES]      over the hand as dealt (WinContext.dealt)
#   held = "cuoc"                how many cước earlier in the table the hand holds
#   kind = [WIN_KINDS], source = [WIN_SOURCES], card = [FACES], flag = FLAG, has = "ROW"
CARD_SELECTORS = ("cards", "red", "black", "quads")  # counted over the final hand's cards
GROUP_SELECTORS = ("chan", "ca", "chiu")  # counted in the win engine's decomposition
CONTEXT_SELECTORS = ("waits", "card")  # need a WinContext: faces waited on; the win card
SCOPE_SELECTORS = ("cards", "red", "black", "quads", "pairs", "card")
HISTORY_SELECTORS = ("chiu", "bon")  # laid groups that tell the hand's history
LAID_SELECTORS = SCOPE_SELECTORS + HISTORY_SELECTORS
COMPARISONS = ("eq", "ge", "le")
MEASURES = ("count", "sets", "concealed", "laid", "laid_chan", "dealt", "held")
CONTEXT_MEASURES = ("dealt", "held")
CONTEXT_FACTS = ("kind", "source", "card", "flag", "has")
FLAGS = ("thong", "first-round")
WIN_SOURCES = ("own-draw", "other-draw", "discard", "returned", "cai")
CUOC_GROUPS = ("lead", "kind", "have")  # the order of a declaration (xướng)


def _hint(word: Any, known: Iterable[str]) -> str:
    near = difflib.get_close_matches(str(word), list(known), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _check_selector(ck: _Checker, where: str, fld: str, sel: Any,
                    known: tuple[str, ...]) -> None:
    if isinstance(sel, list):
        if not sel:
            ck.add(where, fld, "a list of faces must name at least one face")
        ck.faces(where, fld, sel)
    elif sel not in known:
        ck.add(where, fld, f"unknown selector {sel!r}{_hint(sel, known)}; known: "
               f"{', '.join(known)}, or a list of face codes")


def _check_measure(ck: _Checker, where: str, fld: str, m: Any, comparison: bool,
                   extra: tuple[str, ...] = ()) -> None:
    """One measure (and, when `comparison`, exactly one of eq/ge/le with an integer)."""
    if not isinstance(m, dict):
        ck.add(where, fld, f"expected a table such as {{ count = \"red\", eq = 0 }}, found {m!r}")
        return
    allowed = set(MEASURES) | (set(COMPARISONS) if comparison else set()) | set(extra)
    for k in m:
        if k not in allowed:
            ck.add(where, f"{fld}.{k}", f"unknown key{_hint(k, sorted(allowed))}; a condition "
                   f"has one measure ({', '.join(MEASURES)}) and one comparison "
                   f"({', '.join(COMPARISONS)}), or one fact ({', '.join(CONTEXT_FACTS)}), "
                   "or any")
    measures = [k for k in MEASURES if k in m]
    if len(measures) != 1:
        ck.add(where, fld, f"needs exactly one measure ({' or '.join(MEASURES)}), "
               f"found {len(measures)}")
    elif measures[0] == "count":
        _check_selector(ck, where, f"{fld}.count", m["count"],
                        CARD_SELECTORS + GROUP_SELECTORS + CONTEXT_SELECTORS)
    elif measures[0] in ("concealed", "dealt"):
        _check_selector(ck, where, f"{fld}.{measures[0]}", m[measures[0]], SCOPE_SELECTORS)
    elif measures[0] == "laid":
        _check_selector(ck, where, f"{fld}.laid", m["laid"], LAID_SELECTORS)
    elif measures[0] == "laid_chan":
        sel = m["laid_chan"]
        if not isinstance(sel, list) or not sel:
            ck.add(where, f"{fld}.laid_chan", "expected a non-empty list of face codes, "
                   f"found {sel!r}")
        else:
            ck.faces(where, f"{fld}.laid_chan", sel)
    elif measures[0] == "held":
        if m["held"] != "cuoc":
            ck.add(where, f"{fld}.held", f"expected \"cuoc\", found {m['held']!r}")
    else:
        sel = m["sets"]
        if not isinstance(sel, list) or not sel:
            ck.add(where, f"{fld}.sets", f"expected a non-empty list of face codes, found {sel!r}")
        else:
            ck.faces(where, f"{fld}.sets", sel)
    if not comparison:
        return
    comps = [k for k in COMPARISONS if k in m]
    if len(comps) != 1:
        ck.add(where, fld, f"needs exactly one comparison ({', '.join(COMPARISONS)}), "
               f"found {len(comps)}")
    else:
        v = m[comps[0]]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            ck.add(where, f"{fld}.{comps[0]}", f"expected a whole number of at least 0, "
                   f"found {v!r}")


def _check_fact(ck: _Checker, where: str, fld: str, m: dict[str, Any],
                earlier: set[str]) -> None:
    """A fact of the win context: one of `CONTEXT_FACTS`, its value, optional ``is``."""
    facts = [k for k in CONTEXT_FACTS if k in m]
    for k in m:
        if k not in CONTEXT_FACTS and k not in ("is", "when"):
            ck.add(where, f"{fld}.{k}", f"unknown key{_hint(k, CONTEXT_FACTS + ('is', 'when'))}"
                   f"; a fact is one of {', '.join(CONTEXT_FACTS)}, with optional is and when")
    if len(facts) != 1:
        ck.add(where, fld, f"needs exactly one fact ({', '.join(CONTEXT_FACTS)}), "
               f"found {len(facts)}")
        return
    k, v = facts[0], m[facts[0]]
    if "is" in m and not isinstance(m["is"], bool):
        ck.add(where, f"{fld}.is", f"expected true or false, found {m['is']!r}")
    known = {"kind": WIN_KINDS, "source": WIN_SOURCES}.get(k)
    if known is not None:
        if not isinstance(v, list) or not v or any(x not in known for x in v):
            ck.add(where, f"{fld}.{k}", f"expected a non-empty list from {', '.join(known)}, "
                   f"found {v!r}")
    elif k == "card":
        if not isinstance(v, list) or not v:
            ck.add(where, f"{fld}.card", f"expected a non-empty list of face codes, found {v!r}")
        else:
            ck.faces(where, f"{fld}.card", v)
    elif k == "flag":
        if v not in FLAGS:
            ck.add(where, f"{fld}.flag", f"unknown flag {v!r}{_hint(v, FLAGS)}; known: "
                   f"{', '.join(FLAGS)}")
    elif v not in earlier:
        ck.add(where, f"{fld}.has", f"{v!r} is no [[cuoc]] entry above this one; has names "
               "a cước judged earlier in the table")


def _check_condition(ck: _Checker, where: str, fld: str, m: Any, rows: Mapping[str, Row],
                     earlier: set[str]) -> None:
    if not isinstance(m, dict):
        ck.add(where, fld, f"expected a table such as {{ count = \"red\", eq = 0 }}, found {m!r}")
        return
    if "when" in m:
        _check_cond(ck, where, f"{fld}.when", m["when"], rows)
    if "any" in m:
        alts = m["any"]
        extra = sorted(set(m) - {"any", "when"})
        if extra:
            ck.add(where, f"{fld}.{extra[0]}", "an any condition holds only any (and when)")
        if not isinstance(alts, list) or not alts or not all(
                isinstance(a, list) and a for a in alts):
            ck.add(where, f"{fld}.any", f"expected a list of non-empty lists of conditions, "
                   f"found {alts!r}")
            return
        for i, alt in enumerate(alts):
            for j, c in enumerate(alt):
                _check_condition(ck, where, f"{fld}.any[{i}][{j}]", c, rows, earlier)
        return
    if any(k in m for k in CONTEXT_FACTS):
        _check_fact(ck, where, fld, m, earlier)
    else:
        _check_measure(ck, where, fld, m, comparison=True, extra=("when",))


CUOC_KEYS = ("times", "times_if", "diem", "dich", "amount_rule", "amounts", "replaces",
             "excludes", "group", "declare_replaced")
# what naming a replaced cước without the one that replaces it is (000 [Cước] #12 s2 and
# ¶4 s2-3): "wrong" (a wrong declaration), or "forfeit" (correct, but the replacing cước
# is not paid)
DECLARE_REPLACED = ("wrong", "forfeit")


def _validate_cuoc(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """``[[cuoc]]``: each names its row (which needs a title: the cước's name), holds a
    conjunction ``all`` of conditions, an optional ``times`` measure (or a list of them
    with ``when``: how many times the cước counts, when ``times_if`` holds or is absent),
    its amounts (``diem``/``dich``, or ``amount_rule``, an option row, with ``amounts``:
    value -> [điểm, dịch]), the cước it ``replaces`` and ``excludes`` (rows of other
    [[cuoc]] entries) and its ``group`` in a declaration."""
    raw = data.get("cuoc")
    if raw is None:
        return
    if not isinstance(raw, list):
        ck.add("cuoc", "", f"expected a list of [[cuoc]] tables, found {type(raw).__name__}")
        return
    seen: set[str] = set()
    every = {c.get("rule") for c in raw if isinstance(c, dict)}
    for i, c in enumerate(raw):
        rid = c.get("rule") if isinstance(c, dict) else None
        where = f"cuoc {rid!r}" if isinstance(rid, str) else f"cuoc[{i}]"
        if not ck.keys(where, c, ["rule", "all"], CUOC_KEYS):
            continue
        ck.ref(where, "rule", rid, rows)
        _require_title(ck, rid, rows, "[[cuoc]] (the cước's name)")
        conds = c.get("all")
        if not isinstance(conds, list) or not conds:
            ck.add(where, "all", f"expected a non-empty list of conditions, found {conds!r}")
        else:
            for j, m in enumerate(conds):
                _check_condition(ck, where, f"all[{j}]", m, rows, seen)
        if isinstance(rid, str):
            if rid in seen:
                ck.add(where, "rule", "two [[cuoc]] entries name this row; one row, one cước")
            seen.add(rid)
        if "times" in c:
            ts = c["times"]
            for j, t in enumerate(ts if isinstance(ts, list) else [ts]):
                fld = f"times[{j}]" if isinstance(ts, list) else "times"
                _check_measure(ck, where, fld, t, comparison=False, extra=("when",))
                if isinstance(t, dict) and "when" in t:
                    _check_cond(ck, where, f"{fld}.when", t["when"], rows)
        if "times_if" in c:
            if "times" not in c:
                ck.add(where, "times_if", "needs a times measure to switch")
            _check_cond(ck, where, "times_if", c["times_if"], rows)
        for fld in ("diem", "dich"):
            v = c.get(fld)
            if fld in c and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                ck.add(where, fld, f"expected a whole number of at least 0, found {v!r}")
        _check_amounts(ck, where, c, rows)
        for fld in ("replaces", "excludes"):
            refs = c.get(fld, [])
            if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
                ck.add(where, fld, f"expected a list of cước rows, found {refs!r}")
                continue
            for r in refs:
                if r not in every:
                    ck.add(where, fld, f"{r!r} is no [[cuoc]] entry{_hint(r, sorted(every))}")
                elif r == rid:
                    ck.add(where, fld, "a cước cannot name itself")
        if "declare_replaced" in c:
            if c["declare_replaced"] not in DECLARE_REPLACED:
                ck.add(where, "declare_replaced", f"expected one of "
                       f"{', '.join(DECLARE_REPLACED)}, found {c['declare_replaced']!r}")
            if not c.get("replaces"):
                ck.add(where, "declare_replaced", "needs replaces: what it says is how the "
                       "cước it replaces may be named alone")
        elif c.get("replaces"):
            ck.add(where, "declare_replaced", f"missing: say what naming a cước it replaces "
                   f"without it is ({', '.join(DECLARE_REPLACED)})")
        if "group" in c and c["group"] not in CUOC_GROUPS:
            ck.add(where, "group", f"unknown group {c['group']!r}{_hint(c['group'], CUOC_GROUPS)};"
                   f" known: {', '.join(CUOC_GROUPS)} (the order of a declaration)")
    _validate_scoring(ck, data, rows, every)


def _check_amounts(ck: _Checker, where: str, c: Mapping[str, Any],
                   rows: Mapping[str, Row]) -> None:
    """``amount_rule`` (an option row) and ``amounts``: one [điểm, dịch] per value."""
    if ("amount_rule" in c) != ("amounts" in c):
        ck.add(where, "amount_rule", "amount_rule and amounts go together: the option row "
               "and one [điểm, dịch] for each of its values")
        return
    if "amount_rule" not in c:
        return
    if "diem" in c or "dich" in c:
        ck.add(where, "amount_rule", "give either diem/dich or amount_rule, not both")
    rid = c["amount_rule"]
    row = rows.get(rid) if isinstance(rid, str) else None
    if row is None or not row.is_option:
        ck.add(where, "amount_rule", f"{rid!r} is not an option row of this table")
        return
    am = c["amounts"]
    if not isinstance(am, dict) or set(am) != set(row.values):
        ck.add(where, "amounts", f"expected one entry per value of {rid!r} "
               f"({', '.join(row.values)}), found {sorted(am) if isinstance(am, dict) else am!r}")
        return
    for v, pair in am.items():
        if (not isinstance(pair, list) or len(pair) != 2 or not all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in pair)):
            ck.add(where, f"amounts.{v}", f"expected [điểm, dịch], two whole numbers, "
                   f"found {pair!r}")


SCORING_KEYS = ("rule", "sum_diem_if", "low_diem", "low_base", "base", "ga", "ga_rule", "ga_for",
                "min_rule", "min_total")


def _validate_scoring(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row],
                      cuoc_rows: set[Any]) -> None:
    """``[scoring]``: 001's formula as data (see model/chan/score.py)."""
    sc = data.get("scoring")
    if sc is None:
        return
    if not ck.keys("scoring", sc, ["rule", "low_diem", "low_base", "base"],
                   [k for k in SCORING_KEYS if k not in ("rule", "low_diem", "low_base", "base")]):
        return
    ck.ref("scoring", "rule", sc.get("rule"), rows)
    if "ga_rule" in sc:
        ck.ref("scoring", "ga_rule", sc.get("ga_rule"), rows)
    for fld in ("low_diem", "low_base", "base", "ga"):
        v = sc.get(fld)
        if fld in sc and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            ck.add("scoring", fld, f"expected a whole number of at least 0, found {v!r}")
    for r in sc.get("sum_diem_if", []):
        if r not in cuoc_rows:
            ck.add("scoring", "sum_diem_if", f"{r!r} is no [[cuoc]] entry")
    for i, g in enumerate(sc.get("ga_for", [])):
        fld = f"ga_for[{i}]"
        if not ck.keys("scoring", g, [], ["declared", "held", "when"]):
            continue
        lists = [k for k in ("declared", "held") if k in g]
        if len(lists) != 1:
            ck.add("scoring", fld, "needs exactly one of declared (cước declared) or held "
                   "(cước held, replaced ones included)")
            continue
        refs = g[lists[0]]
        if not isinstance(refs, list) or not refs or any(r not in cuoc_rows for r in refs):
            ck.add("scoring", f"{fld}.{lists[0]}", f"expected a list of [[cuoc]] rows, "
                   f"found {refs!r}")
        if "when" in g:
            _check_cond(ck, "scoring", f"{fld}.when", g["when"], rows)
    if ("min_rule" in sc) != ("min_total" in sc):
        ck.add("scoring", "min_rule", "min_rule and min_total go together")
    elif "min_rule" in sc:
        row = rows.get(sc["min_rule"]) if isinstance(sc["min_rule"], str) else None
        mt = sc["min_total"]
        if row is None or not row.is_option:
            ck.add("scoring", "min_rule", f"{sc['min_rule']!r} is not an option row")
        elif not isinstance(mt, dict) or set(mt) != set(row.values) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in mt.values()):
            ck.add("scoring", "min_total", f"expected one whole number per value of "
                   f"{row.id!r} ({', '.join(row.values)})")


def _validate_settle(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """``[payment]`` (who pays whom, model/chan/pay.py) and ``[session]`` (what carries over to
    the next hand, model/chan/session.py).  Their roles are checked with `MACHINE_VALUES`; a
    payment needs a worth ([[cuoc]], [scoring]) and a judged declaration
    ([declaration]); thông needs its [[cuoc]] entry."""
    pay, ses = data.get("payment"), data.get("session")
    if pay is not None and ck.keys("payment", pay, PAYMENT_FIELDS, CHI_RONG_FIELDS):
        ck.ref("payment", "rule", pay.get("rule"), rows)
        for f in PAYMENT_FIELDS[1:]:
            ck.ref("payment", f, role_row(pay.get(f)), rows)
        _check_chi_rong_fine(ck, pay, data, rows)
        if not all(s in data for s in ("cuoc", "scoring", "declaration")):
            ck.add("payment", "rule", "a payment pays a win's worth under its declaration: "
                   "the table needs [[cuoc]], [scoring] and [declaration]")
        if "min_rule" not in data.get("scoring", {}):
            ck.add("payment", "below_min_rule", "below_min_rule says what a win under the "
                   "house minimum costs: [scoring] needs min_rule and min_total")
    if ses is None or not ck.keys("session", ses, SESSION_FIELDS, ["thong_breaking_faults"]):
        return
    ck.ref("session", "rule", ses.get("rule"), rows)
    for f in SESSION_FIELDS[1:]:
        ck.ref("session", f, role_row(ses.get(f)), rows)
    if "payment" not in data:
        ck.add("session", "rule", "a session carries a settled hand over to the next: the "
               "table needs [payment]")
    cuoc_rows = {c.get("rule") for c in data.get("cuoc", []) if isinstance(c, dict)}
    if ses.get("thong_rule") not in cuoc_rows:
        ck.add("session", "thong_rule", f"{ses.get('thong_rule')!r} is no [[cuoc]] entry "
               "(the cước of winning again after a won hand)")
    brk = ses.get("thong_breaking_faults", [])
    if not isinstance(brk, list) or any(not isinstance(r, str) or r not in rows for r in brk):
        ck.add("session", "thong_breaking_faults", f"expected a list of row ids (the rows "
               f"a fault cites), found {brk!r}")


def _check_chi_rong_fine(ck: _Checker, pay: Mapping[str, Any], data: Mapping[str, Any],
                         rows: Mapping[str, Row]) -> None:
    """``[payment]`` chi_rong_fine_rule, chi_rong_cuoc and chi_rong_fine come together: the
    row that says whether the fine applies, the ``[[cuoc]]`` entry of the win it follows,
    and the points (a positive whole number)."""
    given = [f for f in CHI_RONG_FIELDS if f in pay]
    if not given:
        return
    if len(given) < len(CHI_RONG_FIELDS):
        missing = [f for f in CHI_RONG_FIELDS if f not in pay]
        ck.add("payment", missing[0], f"the fine for keeping the Chi Chi wait needs all of "
               f"{', '.join(CHI_RONG_FIELDS)}; missing {', '.join(missing)}")
        return
    ck.ref("payment", "chi_rong_fine_rule", role_row(pay["chi_rong_fine_rule"]), rows)
    cuoc_rows = {c.get("rule") for c in data.get("cuoc", []) if isinstance(c, dict)}
    if pay["chi_rong_cuoc"] not in cuoc_rows:
        ck.add("payment", "chi_rong_cuoc", f"{pay['chi_rong_cuoc']!r} is no [[cuoc]] entry "
               "(the win the fine follows: ù chi rộng)")
    fine = pay["chi_rong_fine"]
    if not isinstance(fine, int) or isinstance(fine, bool) or fine <= 0:
        ck.add("payment", "chi_rong_fine", f"expected the fine in points, a whole number "
               f"above 0, found {fine!r}")


DECLARATION_ROLES = ("over_rule", "under_rule", "den_amount_rule")


def _validate_declaration(ck: _Checker, data: Mapping[str, Any],
                          rows: Mapping[str, Row]) -> None:
    """``[declaration]``: the winner's declaration (xướng) and what a wrong one costs
    (model/chan/declare.py).  A table whose ``[turn] declare_rule`` is stated needs it, with
    [[cuoc]] and [scoring]; the consequence roles are checked with `MACHINE_VALUES`."""
    dc = data.get("declaration")
    turn = data.get("turn")
    declares = isinstance(turn, dict) and "declare_rule" in turn
    if dc is None:
        if declares:
            ck.add("turn", "declare_rule", "a declaration phase needs a [declaration] section "
                   "saying what a wrong declaration costs (see spec/README.md)")
        return
    played = not isinstance(turn, dict) or turn.get("flow", PLAYED_FLOWS[0]) in PLAYED_FLOWS
    if played and not declares:
        ck.add("declaration", "rule", "[declaration] needs [turn] declare_rule: the row that "
               "puts a declaration phase after a win")
    if "cuoc" not in data or "scoring" not in data:
        ck.add("declaration", "rule", "a declaration names cước and is paid by a formula: "
               "the table needs [[cuoc]] and [scoring]")
    if not ck.keys("declaration", dc, ["rule", *DECLARATION_ROLES],
                   ["must", "must_missing_rule"]):
        return
    ck.ref("declaration", "rule", dc.get("rule"), rows)
    for f in DECLARATION_ROLES + ("must_missing_rule",):
        if f in dc:
            ck.ref("declaration", f, role_row(dc[f]), rows)
    if ("must" in dc) != ("must_missing_rule" in dc):
        ck.add("declaration", "must", "must (the cước that must be named) and "
               "must_missing_rule (what leaving one out costs) go together")
    cuoc_rows = {c.get("rule") for c in data.get("cuoc", []) if isinstance(c, dict)}
    must = dc.get("must", [])
    if not isinstance(must, list):
        ck.add("declaration", "must", f"expected a list of {{ rule, cuoc, with }}, found {must!r}")
        return
    for i, m in enumerate(must):
        fld = f"must[{i}]"
        if not ck.keys(f"declaration.{fld}", m, ["rule", "cuoc"], ["with"]):
            continue
        ck.ref("declaration", f"{fld}.rule", m.get("rule"), rows)
        for k in ("cuoc", "with"):
            refs = m.get(k, [])
            if not isinstance(refs, list) or (k == "cuoc" and not refs) or any(
                    r not in cuoc_rows for r in refs):
                ck.add("declaration", f"{fld}.{k}", f"expected a list of [[cuoc]] rows, "
                       f"found {refs!r}")


def _check_opening(ck: _Checker, win: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """``opening_rule`` (an option row) and ``opening_min_chan_by_value``: the chắn a win
    on the dealt hand needs, for each value of that row."""
    rid = win.get("opening_rule")
    orow = rows.get(rid) if isinstance(rid, str) else None
    if orow is None or not orow.is_option:
        ck.add("win", "opening_rule", f"{rid!r} must be an option row (whose values choose "
               "the chắn a win on the dealt hand needs)")
        return
    bv = win.get("opening_min_chan_by_value")
    if not isinstance(bv, dict) or set(bv) != set(orow.values):
        ck.add("win", "opening_min_chan_by_value", f"expected a whole number for exactly the "
               f"values {', '.join(orow.values)} of row {orow.id!r}, found {bv!r}")
        return
    for k, v in bv.items():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            ck.add("win", f"opening_min_chan_by_value.{k}",
                   f"expected a whole number of at least 0, found {v!r}")


def _check_exact_min(ck: _Checker, win: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """``exact_min`` faces, their ``exact_min_rule`` and either ``exact_min_applies`` (the
    kinds of win it limits) or ``exact_min_applies_by_value`` (kinds for each value of
    the option row ``exact_min_rule``)."""
    given = [f for f in ("exact_min", "exact_min_rule", "exact_min_applies",
                         "exact_min_applies_by_value") if f in win]
    if not given:
        return
    for f in ("exact_min", "exact_min_rule"):
        if f not in win:
            ck.add("win", f, "missing: exact_min needs its faces and its rule")
    if "exact_min" in win:
        ck.faces("win", "exact_min", win["exact_min"])
    lists: list[tuple[str, Any]] = []
    if ("exact_min_applies" in win) == ("exact_min_applies_by_value" in win):
        ck.add("win", "exact_min_applies", "give either exact_min_applies (a list of kinds of "
               "win) or exact_min_applies_by_value (one list per value of exact_min_rule)")
    elif "exact_min_applies" in win:
        lists.append(("exact_min_applies", win["exact_min_applies"]))
    else:
        bbv = win["exact_min_applies_by_value"]
        rid = win.get("exact_min_rule")
        orow = rows.get(rid) if isinstance(rid, str) else None
        if orow is None or not orow.is_option:
            ck.add("win", "exact_min_rule", f"{rid!r} must be an option row to give "
                   "exact_min_applies_by_value")
        if not isinstance(bbv, dict):
            ck.add("win", "exact_min_applies_by_value", "expected a table: value -> kinds")
        else:
            if orow is not None and set(bbv) != set(orow.values):
                ck.add("win", "exact_min_applies_by_value", f"must give kinds for exactly "
                       f"the values {', '.join(orow.values)}")
            lists += [(f"exact_min_applies_by_value.{k}", v) for k, v in bbv.items()]
    for fld, lst in lists:
        if not isinstance(lst, list) or any(a not in WIN_KINDS for a in lst):
            ck.add("win", fld, f"expected a list from {', '.join(WIN_KINDS)}, found {lst!r}")


def _validate_turn(ck: _Checker, data: Mapping[str, Any], rows: dict[str, Row],
                   played: bool) -> None:
    """[eating], [turn], [[claim]], [claims], [[restriction]]: the machine's turn.  A table
    whose ``[turn] flow`` the machine does not play may leave out all but [turn], which
    then names the rows of its own turn (``flow_rules``)."""
    if not played:
        turn = data.get("turn", {})
        if ck.keys("turn", turn, ["flow", "flow_rules"], TURN_FIELDS):
            if not isinstance(turn.get("flow"), str) or not ID_RE.match(turn["flow"]):
                ck.add("turn", "flow", f"expected a kebab-case name, found {turn.get('flow')!r}")
            fr = turn.get("flow_rules")
            if not isinstance(fr, list) or not fr:
                ck.add("turn", "flow_rules", "expected a non-empty list of rule ids: the rows "
                       "of this turn the machine does not play")
                fr = []
            for j, rid in enumerate(fr):
                ck.ref("turn", f"flow_rules[{j}]", rid, rows)
                _require_title(ck, rid, rows, f"[turn] flow_rules[{j}]")
            for f in TURN_FIELDS:
                if f in turn:
                    ck.ref("turn", f, turn[f], rows)
        if not any(s in data for s in TURN_SECTIONS if s != "turn"):
            return
    eating = data.get("eating", {})
    eating_rules = ["rule", "ca_before_min_chan_rule", "ca_over_chan_rule"]
    if ck.keys("eating", eating, eating_rules, OPTIONAL_EATING_FIELDS):
        for f in eating_rules + [f for f in OPTIONAL_EATING_FIELDS if f in eating]:
            if f != "odd_group":
                ck.ref("eating", f, role_row(eating.get(f)), rows)
        if eating.get("odd_group") and "odd_group_exception_rule" not in eating:
            ck.add("eating", "odd_group_exception_rule", "an odd_group needs the row that "
                   "makes its exception (odd_group_exception_rule)")
        if "no_split_scope_rule" in eating and "no_split_rule" not in eating:
            ck.add("eating", "no_split_scope_rule", "a scope for the no-split rule needs "
                   "that rule (no_split_rule)")
        if "odd_group" in eating:
            ck.faces("eating", "odd_group", eating.get("odd_group"))

    turn = data.get("turn", {})
    if played and ck.keys("turn", turn, TURN_FIELDS, [*OPTIONAL_TURN_FIELDS, "fault_classes"]):
        for f in TURN_FIELDS + [f for f in OPTIONAL_TURN_FIELDS if f in turn]:
            ck.ref("turn", f, role_row(turn.get(f)), rows)
        _check_fault_classes(ck, turn, rows, data.get("payment"))

    seen: set[tuple[str, str]] = set()
    claims = data.get("claim")
    if not isinstance(claims, list):
        ck.add("claim", "", "expected a list of [[claim]] entries")
        claims = []
    for i, c in enumerate(claims):
        where = f"claim[{i}]"
        if not ck.keys(where, c, ["source", "claim", "allowed", "rule"]):
            continue
        ck.ref(where, "rule", c.get("rule"), rows)
        s, k = c.get("source"), c.get("claim")
        s = s if isinstance(s, str) else repr(s)
        k = k if isinstance(k, str) else repr(k)
        if s not in SOURCES:
            ck.add(where, "source", f"{s!r} is not one of {', '.join(SOURCES)}")
        if k not in CLAIMS:
            ck.add(where, "claim", f"{k!r} is not one of {', '.join(CLAIMS)}")
        _check_cond(ck, where, "allowed", c.get("allowed"), rows)
        if (s, k) in seen:
            ck.add(where, "claim", f"({s}, {k}) is stated twice")
        seen.add((s, k))
    for s in SOURCES:
        for k in CLAIMS:
            if (s, k) not in seen and claims:
                ck.add("claim", "", f"no [[claim]] says whether a {s} card allows {k}: "
                       "every (source, claim) pair needs a row")

    cl = data.get("claims", {})
    if ck.keys("claims", cl, ["priority", "priority_rules", "priority_says", "tie_break_rule",
                              "tie_break_option"], ["chiu_eat_option", "priority_by_value"]):
        tiers: list[tuple[str, Any]] = [("priority", cl.get("priority"))]
        if "chiu_eat_option" in cl or "priority_by_value" in cl:
            # the priority depends on an option row: one list of tiers for each value
            ck.ref("claims", "chiu_eat_option", cl.get("chiu_eat_option"), rows)
            orow = rows.get(cl.get("chiu_eat_option")) if isinstance(
                cl.get("chiu_eat_option"), str) else None
            pbv = cl.get("priority_by_value")
            if not isinstance(pbv, dict):
                ck.add("claims", "priority_by_value", "expected a table: option value -> tiers")
            else:
                if orow is not None and set(pbv) != set(orow.values):
                    ck.add("claims", "priority_by_value", f"must give tiers for exactly the "
                           f"values {', '.join(orow.values)}")
                tiers += [(f"priority_by_value.{k}", v) for k, v in pbv.items()]
        well_formed: dict[str, Any] = {}
        for fld, pr in tiers:
            flat = [x for tier in pr for x in tier] if isinstance(pr, list) and all(
                isinstance(t, list) for t in pr) else None
            if flat is not None and not all(isinstance(x, str) for x in flat):
                flat = None
            if flat is None:
                ck.add("claims", fld, "expected a list of tiers, each a list of claim names")
            elif sorted(flat) != sorted(PRIORITY_CLAIMS):
                ck.add("claims", fld, f"the tiers must name each of "
                       f"{', '.join(PRIORITY_CLAIMS)} exactly once")
            else:
                well_formed[fld] = pr
                if any(not tier for tier in pr):
                    ck.add("claims", fld, f"tier {[len(t) for t in pr].index(0) + 1} is empty; "
                           "every tier names at least one claim (drop the empty [])")
        prs = cl.get("priority_rules", [])
        if not isinstance(prs, list):
            ck.add("claims", "priority_rules", f"expected a list of rule ids, found {prs!r}")
            prs = []
        for j, rid in enumerate(prs):
            ck.ref("claims", f"priority_rules[{j}]", rid, rows)
            _require_title(ck, rid, rows, f"[claims] priority_rules[{j}]")
        _require_title(ck, cl.get("tie_break_rule"), rows, "[claims] tie_break_rule")
        # what the cited rows say is checked against the default order (`priority`); an
        # option that reorders the tiers (priority_by_value) overrides that row's words
        _check_priority_says(ck, well_formed.get("priority"), prs, cl.get("priority_says"))
        ck.ref("claims", "tie_break_rule", cl.get("tie_break_rule"), rows)
        tbo = cl.get("tie_break_option", "")
        tb = rows.get(tbo) if isinstance(tbo, str) else None
        if tb is None or set(tb.values) != {"owner-first", "receiver-first"}:
            ck.add("claims", "tie_break_option",
                   "must name an option row with the values owner-first and receiver-first")

    rs_list = data.get("restriction")
    if not isinstance(rs_list, list):
        ck.add("restriction", "", "expected a list of [[restriction]] entries")
        rs_list = []
    for i, r in enumerate(rs_list):
        where = f"restriction[{i}]"
        if isinstance(r, dict) and isinstance(r.get("rule"), str):
            where = r["rule"]
        if not ck.keys(where, r, ["rule"], ["trigger", "when", "bans", "option",
                                            "bans_by_value", "scope", "scope_option",
                                            "scope_by_value"]):
            continue
        ck.ref(where, "rule", r.get("rule"), rows)
        _require_title(ck, r.get("rule"), rows, f"[[restriction]] {where}")
        allowed_bans = BANS
        if "when" in r:
            allowed_bans = WHEN_BANS
            if "trigger" in r:
                ck.add(where, "when", "a restriction has either a trigger (something the "
                       "player did) or when (a condition on the hand), not both")
            if r["when"] not in HAND_CONDITIONS:
                ck.add(where, "when", f"{r['when']!r} is not one of {', '.join(HAND_CONDITIONS)}")
            if any(k in r for k in ("scope", "scope_option")):
                ck.add(where, "scope", "a when-restriction bans the act at hand; it has no scope")
        elif r.get("trigger") not in TRIGGERS:
            ck.add(where, "trigger", f"{r.get('trigger')!r} is not one of {', '.join(TRIGGERS)}"
                   " (or write when = one of " + ", ".join(HAND_CONDITIONS) + ")")
        lists: list[tuple[str, Any]] = []
        if "option" in r:
            orow = rows.get(r["option"]) if isinstance(r["option"], str) else None
            if orow is None or not orow.is_option:
                ck.add(where, "option", f"{r['option']!r} is not an option row")
            bbv = r.get("bans_by_value")
            if not isinstance(bbv, dict):
                ck.add(where, "bans_by_value", "an option restriction needs bans_by_value")
            else:
                if orow is not None and set(bbv) != set(orow.values):
                    ck.add(where, "bans_by_value", f"must give bans for exactly the values "
                           f"{', '.join(orow.values)}")
                lists += [(f"bans_by_value.{k}", v) for k, v in bbv.items()]
            if "bans" in r:
                ck.add(where, "bans", "use either bans or option + bans_by_value")
        elif "bans" in r:
            lists.append(("bans", r["bans"]))
        else:
            ck.add(where, "bans", "missing required field")
        for fld, lst in lists:
            if not isinstance(lst, list) or any(not isinstance(b, str) or b not in allowed_bans
                                                for b in lst):
                ck.add(where, fld, f"expected a list from {', '.join(allowed_bans)}, "
                       f"found {lst!r}")
        _check_scope(ck, where, r, rows, lists)


# [eating] limits a table may leave out (then the limit does not exist); [turn] roles
# likewise (`MACHINE_DEFAULTS` says what the machine reads for an absent one).
OPTIONAL_EATING_FIELDS = ["no_split_rule", "odd_group_exception_rule", "split_chan_rule",
                          "no_split_scope_rule", "odd_group"]
OPTIONAL_TURN_FIELDS = ["chiu_yeu_rule", "restriction_mode_rule", "decline_fault_rule",
                        "declare_rule", "fault_play_rule", "fault_class_rule"]
# the classes of a fault of the rules of play (the values of `payment.fault_rule`)
FAULT_CLASSES = ("treo-tranh", "bao")
TURN_FIELDS = ["direction_rule", "opener_rule", "opening_win_rule", "next_opener_rule",
               "draw_rule", "react_rule", "drawn_offer_rule", "discard_rule", "chiu_rule",
               "chiu_yeu_rule", "chiu_optional_rule", "chiu_counts_rule", "chiu_return_rule",
               "return_resume_rule", "exhausted_rule", "recycle_rule", "reveal_rule",
               "stuck_rule", "empty_hand_rule", "timeout_rule", "reclaim_rule",
               "decline_rule", "own_draw_pass_rule", "return_discard_rule"]
TURN_FIELDS.remove("chiu_yeu_rule")


def _check_fault_classes(ck: _Checker, turn: Mapping[str, Any], rows: Mapping[str, Row],
                         payment: Any) -> None:
    """``[turn] fault_classes``: rule of play (a row a fault cites) -> its own class, one
    of `FAULT_CLASSES`; read only under ``fault_class_rule`` = ``by-rule``, so a table
    that gives one needs that role too.  A fault without a class of its own costs the
    one class of ``[payment] fault_rule``, which the role therefore needs."""
    if "fault_class_rule" in turn and not (isinstance(payment, dict)
                                           and "fault_rule" in payment):
        ck.add("turn", "fault_class_rule", "a fault without a class of its own costs what "
               "[payment] fault_rule says: the table needs it")
    if "fault_classes" not in turn:
        return
    fc = turn["fault_classes"]
    if not isinstance(fc, dict) or not fc:
        ck.add("turn", "fault_classes", "expected a table of rule id = class (e.g. "
               f"loi-1 = \"treo-tranh\"), one of {', '.join(FAULT_CLASSES)}, found {fc!r}")
        return
    for rid, cls in fc.items():
        ck.ref("turn", f"fault_classes.{rid}", rid, rows)
        if cls not in FAULT_CLASSES:
            ck.add("turn", f"fault_classes.{rid}", f"{cls!r} is not a class of fault: "
                   f"expected one of {', '.join(FAULT_CLASSES)}")
    if "fault_class_rule" not in turn:
        ck.add("turn", "fault_classes", "classes per rule are read only under a row that "
               "says whether they apply: the table needs fault_class_rule")


def role_row(v: Any) -> Any:
    """The row a role field cites: the field itself (a row id), or the ``rule`` of an
    inline ``{ rule = "<row>", value = "<machine value>" }`` /
    ``{ rule = "<row>", by_value = { <row value> = "<machine value>", ... } }``."""
    return v.get("rule") if isinstance(v, dict) else v


def _check_role(ck: _Checker, sec: str, f: str, v: Any, rows: Mapping[str, Row],
                vals: tuple[str, ...]) -> None:
    """A role the machine reads a value for (`MACHINE_VALUES`): a row offering exactly
    the machine's values, or a row with the value it states (``value``), or an option row
    with the machine value each of its values means (``by_value``)."""
    if not isinstance(v, dict):
        r = rows.get(v) if isinstance(v, str) else None
        if r is not None and set(r.values) != set(vals):
            ck.add(sec, f, f"row {r.id!r} must offer exactly the values "
                   f"{', '.join(vals)} (the machine knows these), or write "
                   f"{{ rule = {r.id!r}, value = \"...\" }} or {{ rule = {r.id!r}, "
                   "by_value = { ... } }")
        return
    shape = "{ rule = \"<row>\", value = \"<value>\" } or { rule = \"<row>\", by_value = { ... } }"
    if set(v) not in ({"rule", "value"}, {"rule", "by_value"}):
        ck.add(sec, f, f"expected a row id or {shape}, found keys {sorted(v)}")
        return
    row = rows.get(v["rule"]) if isinstance(v["rule"], str) else None
    if "value" in v:
        if v["value"] not in vals:
            ck.add(sec, f"{f}.value", f"{v['value']!r} is not one of {', '.join(vals)}")
        return
    bv = v["by_value"]
    if not isinstance(bv, dict):
        ck.add(sec, f"{f}.by_value", "expected a table: value of the row -> machine value")
        return
    if row is not None and (not row.is_option or set(bv) != set(row.values)):
        ck.add(sec, f"{f}.by_value", f"must give a machine value for exactly the values "
               f"{', '.join(row.values) or '(none: the row has no values)'} of row {row.id!r}")
    for k, mv in bv.items():
        if mv not in vals:
            ck.add(sec, f"{f}.by_value.{k}", f"{mv!r} is not one of {', '.join(vals)}")


def _check_scope(ck: _Checker, where: str, r: Mapping[str, Any], rows: Mapping[str, Row],
                 lists: list[tuple[str, Any]]) -> None:
    """A restriction's `scope`, or `scope_option` + `scope_by_value` (see `SCOPES`)."""
    scopes: list[tuple[str, Any]] = []
    if "scope_option" in r:
        so = r["scope_option"]
        orow = rows.get(so) if isinstance(so, str) else None
        if orow is None or not orow.is_option:
            ck.add(where, "scope_option", f"{so!r} is not an option row (a row with values "
                   "whose value chooses the scope)")
        sbv = r.get("scope_by_value")
        if not isinstance(sbv, dict):
            ck.add(where, "scope_by_value", "a restriction with scope_option needs "
                   "scope_by_value: a scope for each value of that row, e.g. "
                   "{ face = \"face\", rank = \"rank\" }")
        else:
            if orow is not None and set(sbv) != set(orow.values):
                ck.add(where, "scope_by_value", f"must give a scope for exactly the values "
                       f"{', '.join(orow.values)} of row {so!r}")
            scopes += [(f"scope_by_value.{k}", v) for k, v in sbv.items()]
        if "scope" in r:
            ck.add(where, "scope", "use either scope or scope_option + scope_by_value")
    elif "scope" in r:
        scopes.append(("scope", r["scope"]))
    elif "scope_by_value" in r:
        ck.add(where, "scope_option", "scope_by_value needs scope_option, the row whose "
               "value chooses the scope")
    wide = False
    for fld, sc in scopes:
        if sc not in SCOPES:
            ck.add(where, fld, f"expected one of {', '.join(SCOPES)}, found {sc!r}")
        elif sc != "face":
            wide = True
    if wide:
        bans = {b for _fld, lst in lists if isinstance(lst, list)
                for b in lst if isinstance(b, str)}
        unscoped = sorted(str(b) for b in bans if b not in SCOPED_BANS)
        if unscoped:
            ck.add(where, "scope", f"a scope wider than face widens bans on a face "
                   f"({', '.join(SCOPED_BANS)}); this restriction also bans "
                   f"{', '.join(unscoped)}, which has no face to widen")


def _check_priority_says(ck: _Checker, tiers: list[list[str]] | None, prs: list[Any],
                         says: Any) -> None:
    """``priority_rules[i]`` cites the row that puts tier i above the tiers below it, and
    ``priority_says[i]`` states what that row says as ``[higher, lower]`` claims.  The
    order of the tiers must agree: `higher` in tier i, `lower` in a tier below it."""
    if tiers is not None and len(prs) != len(tiers) - 1:
        ck.add("claims", "priority_rules", f"{len(tiers)} tiers need {len(tiers) - 1} rows, "
               f"one per step down (row i puts tier i above the tiers below it); "
               f"found {len(prs)}")
        return
    if (not isinstance(says, list) or len(says) != len(prs) or not all(
            isinstance(x, list) and len(x) == 2 and all(c in PRIORITY_CLAIMS for c in x)
            for x in says)):
        ck.add("claims", "priority_says", f"expected one [higher, lower] pair of claim names "
               f"({', '.join(PRIORITY_CLAIMS)}) per row of priority_rules, stating what that "
               f"row says, e.g. [\"u\", \"chiu\"]; found {says!r}")
        return
    if tiers is None:
        return
    tier = {c: i for i, t in enumerate(tiers) for c in t}
    for i, ((hi, lo), rid) in enumerate(zip(says, prs, strict=True)):
        if tier[hi] != i or tier[lo] <= i:
            ck.add("claims", f"priority_says[{i}]",
                   f"row {rid!r} says {hi} goes before {lo}, but the tiers put {hi} in tier "
                   f"{tier[hi] + 1} and {lo} in tier {tier[lo] + 1} (row {i + 1} of "
                   f"priority_rules speaks for tier {i + 1} over the tiers below); reorder "
                   "priority to agree with the row, or cite the row that says so")


def _toml_error(path: str, exc: tomllib.TOMLDecodeError) -> Problem:
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    where = f"line {m.group(1)}, column {m.group(2)}" if m else "(syntax)"
    return Problem(path, where, "", f"not valid TOML: {exc}")


def load_text(text: str, path: str = "<table>", *, dealt: bool = True) -> Table:
    """A table from TOML text (a UTF-8 byte-order mark at the start is ignored).

    ``dealt=False`` is for tables that only judge hands and are never dealt (the oracles'
    reduced decks): the deck need not cover every variant's deal."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise TableError([_toml_error(path, exc)]) from None
    except RecursionError:
        raise TableError([Problem(path, "(syntax)", "", "arrays or tables nested too deeply "
                                  "to read; a rule table nests a few levels at most (compare "
                                  "with spec/family.toml)")]) from None
    return from_data(data, path, dealt=dealt)


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



def from_data(data: dict[str, Any], path: str = "<data>", *, dealt: bool = True) -> Table:
    """A table from already-parsed data (e.g. an edited copy of ``load(...).data``),
    validated exactly as `load_text` validates a file."""
    ck = _Checker(path, dealt=dealt)
    try:
        rows, variants = _validate(ck, data)
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        # A shape the field checks above did not foresee.  Still a clear error, never a
        # traceback; the mutation tests fail if they ever reach this line.
        raise TableError(ck.problems + [Problem(
            path, UNCHECKED, "", f"a value has an unexpected type or a section is missing "
            f"({type(exc).__name__}: {exc}); compare with spec/family.toml")]) from None
    check_presets(ck, data, rows)
    if ck.problems:
        raise TableError(ck.problems)
    table = Table(str(data["ruleset"]["id"]), path, data, rows, variants)
    if bad := preset_problems(table, path):
        raise TableError(bad)
    # Resolve every variant under the defaults: catches tables that validate field by
    # field but do not make a playable game.
    for p in variants:
        try:
            table.resolve(p)
        except OptionError as exc:
            raise TableError([Problem(path, f"variant for {p} players", "", str(exc))]) from None
        except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
            raise TableError([Problem(
                path, UNCHECKED, "", f"the table validates but does not resolve for {p} "
                f"players ({type(exc).__name__}: {exc})")]) from None
    return table


def builtin_path(name: str) -> Path:
    return Path(str(importlib.resources.files("chanspec.spec").joinpath(f"{name}.toml")))


def builtin_names() -> list[str]:
    root = importlib.resources.files("chanspec.spec")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


_CACHE: dict[str, Table] = {}


def load(name_or_path: str = "family") -> Table:
    """A built-in ruleset by name (``family``) or a table file by path (a regular file of
    at most `textfile.TABLE_LIMIT` bytes; raises RulesetNotFound for anything else)."""
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    p = Path(name_or_path)
    if not os.path.lexists(p):
        names = builtin_names()
        if name_or_path not in names:
            looks_like_path = p.suffix == ".toml" or os.sep in name_or_path
            what = ("no such file" if looks_like_path
                    else "no built-in ruleset of that name, and no such file")
            raise RulesetNotFound(name_or_path, f"{what}; the built-in rulesets are "
                                  f"{', '.join(names)}; or give the path of a .toml rule "
                                  "table")
        p = builtin_path(name_or_path)
    try:
        text = textfile.read(p, textfile.TABLE_LIMIT)
    except textfile.FileRefused as exc:
        if exc.why.startswith("not UTF-8"):
            raise TableError([Problem(str(p), "(file)", "", exc.why)]) from None
        raise RulesetNotFound(name_or_path, exc.why) from None
    table = load_text(text, str(p) if p.is_absolute() and "site-packages" in str(p) else
                      (p.name if p.parent == builtin_path("family").parent else str(p)))
    _CACHE[name_or_path] = table
    return table


def rules(
    name: str = "family", players: int = 4, options: Mapping[str, str] | None = None
) -> Rules:
    return load(name).resolve(players, options)


# --------------------------------------------------------------------------- resolving


def _resolve(table: Table, variant: Variant, options: Mapping[str, str]) -> Rules:
    d = table.data
    deck = d["deck"]
    faces = tuple(range(cards.NUM_FACES)) if deck["faces"] == "all" else tuple(
        sorted({cards.parse(c) for c in deck["faces"]}))
    in_deck = set(faces)
    ca: list[list[list[str]]] = [[[] for _ in range(30)] for _ in range(30)]
    nonspecial: list[list[bool]] = [[False] * 30 for _ in range(30)]
    flag_special: list[list[bool]] = [[False] * 30 for _ in range(30)]

    def add(a: int, b: int, rid: str, special: bool) -> None:
        if a == b or a not in in_deck or b not in in_deck:
            return
        for x, y in ((a, b), (b, a)):
            if rid not in ca[x][y]:
                ca[x][y].append(rid)
            if not special:
                nonspecial[x][y] = True

    for c in d["pairing"]["ca"]:
        if "when" in c and not cond_holds(c["when"], options):
            continue
        rid, kind, special = c["rule"], c["kind"], bool(c.get("special", False))
        if kind == "same-rank":
            for a in faces:
                for b in faces:
                    ra, rb = cards.rank_of(a), cards.rank_of(b)
                    if ra is not None and ra == rb and a != b:
                        add(a, b, rid, special)
        elif kind in ("within-group", "pair"):
            grp = [cards.parse(x) for x in c["faces"]]
            excluded = {frozenset(cards.parse(x) for x in pr) for pr in c.get("except", [])}
            for a in grp:
                for b in grp:
                    if a != b and frozenset((a, b)) not in excluded:
                        add(a, b, rid, special)
        elif kind == "special-flag":
            grp = [cards.parse(x) for x in c["faces"]]
            for a in grp:
                for b in grp:
                    if a != b:
                        flag_special[a][b] = True
    special = tuple(
        tuple(bool(ca[a][b]) and (not nonspecial[a][b] or flag_special[a][b]) for b in range(30))
        for a in range(30)
    )
    # connected classes of the cạ graph (singletons for faces with no cạ partner)
    seen: set[int] = set()
    comps: list[tuple[int, ...]] = []
    for f in faces:
        if f in seen:
            continue
        stack, comp = [f], []
        seen.add(f)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in faces:
                if ca[x][y] and y not in seen:
                    seen.add(y)
                    stack.append(y)
        comps.append(tuple(sorted(comp)))
    win = d["win"]
    claims = {
        (c["source"], c["claim"]): ClaimRule(cond_holds(c["allowed"], options), c["rule"])
        for c in d.get("claim", [])
    }
    restrictions = []
    for r in d.get("restriction", []):
        bans = r["bans_by_value"][options[r["option"]]] if "option" in r else r["bans"]
        scope, scope_rule = r.get("scope", "face"), ""
        if "scope_option" in r:
            scope_rule = r["scope_option"]
            scope = r["scope_by_value"][options[scope_rule]]
        restrictions.append(Restriction(r["rule"], r.get("trigger", ""), tuple(bans), scope,
                                        scope_rule, r.get("when", "")))
    rule_ids: dict[str, str] = {}
    machine: dict[str, str] = {}
    for section in ("win", "eating", "turn", "cai", "declaration", *SETTLE_SECTIONS):
        for k, v in d.get(section, {}).items():
            if k.endswith("rule") and isinstance(role_row(v), str):
                role = f"{section}.{k}"
                rule_ids[role] = role_row(v)
                if role in MACHINE_VALUES:
                    machine[role] = (options[v] if isinstance(v, str) else v["value"]
                                     if "value" in v else v["by_value"][options[v["rule"]]])
    for role, value in MACHINE_DEFAULTS.items():
        machine.setdefault(role, value)
    rule_ids["pairing.chan_rule"] = d["pairing"]["chan_rule"]
    cl = d.get("claims", {})
    for k in ("tie_break_rule", "tie_break_option", "chiu_eat_option"):
        if k in cl:
            rule_ids[f"claims.{k}"] = cl[k]
    priority = cl.get("priority", [])
    if "priority_by_value" in cl:
        priority = cl["priority_by_value"][options[cl["chiu_eat_option"]]]
    rule_ids["deck.rule"] = deck["rule"]
    for i, rid in enumerate(cl.get("priority_rules", [])):
        rule_ids[f"claims.priority_rules.{i}"] = rid
    exact_applies = win.get("exact_min_applies", [])
    if "exact_min_applies_by_value" in win:
        exact_applies = win["exact_min_applies_by_value"][options[win["exact_min_rule"]]]
    return Rules(
        table=table,
        variant=variant,
        options=dict(options),
        faces=faces,
        copies=int(deck["copies"]),
        red=frozenset(cards.parse(c) for c in deck.get("red", [])),
        ca_rules=tuple(tuple(tuple(ca[a][b]) for b in range(30)) for a in range(30)),
        special=special,
        components=tuple(comps),
        never_complete=frozenset(cards.parse(c) for c in win.get("never_complete", [])),
        never_complete_applies=frozenset(win.get("never_complete_applies", [])),
        claims=claims,
        priority=tuple(tuple(t) for t in priority),
        restrictions=tuple(restrictions),
        odd_group=frozenset(cards.parse(c) for c in d.get("eating", {}).get("odd_group", [])),
        ca_class_rules=tuple(dict.fromkeys(c["rule"] for c in d["pairing"]["ca"])),
        rule_ids=rule_ids,
        exact_min=frozenset(cards.parse(c) for c in win.get("exact_min", [])),
        exact_min_applies=frozenset(exact_applies),
        machine=machine,
        opening_min_chan=(int(win["opening_min_chan_by_value"][options[win["opening_rule"]]])
                          if "opening_min_chan_by_value" in win else variant.min_chan),
        cai_counts=(None if "cai" not in d else
                    {f: int(d["cai"]["counts"][cai_count_key(f)]) for f in faces}),
    )
