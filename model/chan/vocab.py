"""The Chắn vocabulary of a rule table and its validators: what each Chắn section
(``[deck]``, ``[[variant]]``, ``[pairing]``, ``[win]``, the turn sections, ``[cuoc]``,
``[scoring]``, ``[cai]``, ``[declaration]``, ``[payment]``, ``[session]``) may hold, checked
field by field with the shared `chanspec.model.table._Checker`; `chanspec.model.chan.table`
builds the table from it.

The vocabulary the machine interprets is listed here as constants: `TRIGGERS` and `BANS`
for ``[[restriction]]`` (what creates a ban and what it forbids), `SCOPES` for how far a
ban reaches from the triggering card (`Rules.scope_faces`), `CA_KINDS` for the classes
of cạ, `MACHINE_VALUES` for the option rows the machine reads by role.  A table's
``[turn] flow`` names the turn it states: absent, the machine's own (`PLAYED_FLOWS`), with
every section the machine reads required; another flow (classic Chắn's) makes [eating],
[[claim]], [claims] and [[restriction]] optional and requires ``flow_rules``, the rows of
that turn, which `Table.machine_gap` names when a command would play a hand.  ``[win]
exact_min`` lists faces that complete only a hand of exactly the minimum chắn, for the
kinds of win ``exact_min_applies`` (or, per value of the option row ``exact_min_rule``,
``exact_min_applies_by_value``) names.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..table import (
    ID_RE,
    Row,
    _check_cond,
    _Checker,
    _parse_rows,
    _require_title,
)
from . import cards


class ChanChecker(_Checker):
    """The shared checker with the Chắn card codes (``2v``, ``chi``…): a field naming one
    face, or a list of faces."""

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
# The turn the machine plays: a table whose [turn] names another `flow` is loaded and its
# hands judged, but no hand of it is played (`Table.machine_gap` says what is missing).
PLAYED_FLOWS = ("family",)
# The sections only the machine's turn reads; optional when the table's flow is not played.
TURN_SECTIONS = ("eating", "turn", "claim", "claims", "restriction")
# the table sections Chắn owns (everything but schema, ruleset and rule)
SECTIONS = ("deck", "variant", "pairing", "win", *TURN_SECTIONS,
            "cuoc", "scoring", "cai", "declaration", *SETTLE_SECTIONS)


@dataclass(frozen=True)
class Variant:
    rule: str
    players: int
    opener_cards: int
    other_cards: int
    pairs: int
    min_chan: int


def _validate(ck: ChanChecker, data: dict[str, Any]) -> tuple[dict[str, Row], dict[int, Variant]]:
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


def _check_machine_values(ck: ChanChecker, data: Mapping[str, Any],
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


def _validate_cai(ck: ChanChecker, data: Mapping[str, Any], rows: Mapping[str, Row],
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


def _check_selector(ck: ChanChecker, where: str, fld: str, sel: Any,
                    known: tuple[str, ...]) -> None:
    if isinstance(sel, list):
        if not sel:
            ck.add(where, fld, "a list of faces must name at least one face")
        ck.faces(where, fld, sel)
    elif sel not in known:
        ck.add(where, fld, f"unknown selector {sel!r}{_hint(sel, known)}; known: "
               f"{', '.join(known)}, or a list of face codes")


def _check_measure(ck: ChanChecker, where: str, fld: str, m: Any, comparison: bool,
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


def _check_fact(ck: ChanChecker, where: str, fld: str, m: dict[str, Any],
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


def _check_condition(ck: ChanChecker, where: str, fld: str, m: Any, rows: Mapping[str, Row],
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


def _validate_cuoc(ck: ChanChecker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
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


def _check_amounts(ck: ChanChecker, where: str, c: Mapping[str, Any],
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


def _validate_scoring(ck: ChanChecker, data: Mapping[str, Any], rows: Mapping[str, Row],
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


def _validate_settle(ck: ChanChecker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
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


def _check_chi_rong_fine(ck: ChanChecker, pay: Mapping[str, Any], data: Mapping[str, Any],
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


def _validate_declaration(ck: ChanChecker, data: Mapping[str, Any],
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


def _check_opening(ck: ChanChecker, win: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
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


def _check_exact_min(ck: ChanChecker, win: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
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


def _validate_turn(ck: ChanChecker, data: Mapping[str, Any], rows: dict[str, Row],
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


def _check_fault_classes(ck: ChanChecker, turn: Mapping[str, Any], rows: Mapping[str, Row],
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


def _check_role(ck: ChanChecker, sec: str, f: str, v: Any, rows: Mapping[str, Row],
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


def _check_scope(ck: ChanChecker, where: str, r: Mapping[str, Any], rows: Mapping[str, Row],
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


def _check_priority_says(ck: ChanChecker, tiers: list[list[str]] | None, prs: list[Any],
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
