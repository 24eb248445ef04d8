"""The words of a Chiha table (``spec/chiha.toml``) and the checks of its sections.

Each word is documented beside what reads it:

* ``[[meld]] shape`` (`MELD_SHAPES`), read by `melds.expand`:

  - ``same-face``: ``size`` cards of one face; ``ranks`` limits it to those ranks;
  - ``named-ranks-one-colour``: one card of each rank of ``ranks``, all of one colour;
  - ``distinct-colours-one-rank``: ``size`` cards of rank ``rank``, no two of one colour.

  ``lenh`` is the meld's worth, ``lenh_by_rank`` overrides it for the ranks it names
  (for a ``same-face`` meld, by the face's rank); ``concealed = true`` marks the shapes
  that earn ``[concealed] bonus`` more when they lie in hand or face down.
* ``[[discard_ban]] kind`` (`BAN_KINDS`), read by `melds.discard_bans`:

  - ``rank``: a card of one of ``ranks``;
  - ``same-face-at-least``: a card of a face held ``count`` times or more;
  - ``distinct-colours-set``: a card of rank ``rank`` while the hand holds a set of
    ``size`` colours, as the open row named by ``scope_rule`` reads it (`CHOT_SCOPES`).
* ``[[forced_claim]] when`` and ``[[keo_them]] when`` (`CLAIM_WHEN`, `KEO_WHEN`): the
  conditions of a forced eat and of kéo thêm bài, for the machine (not written yet);
  checked here so that the table is complete data.
* ``[win]``, ``[end]``, ``[payment]``: numbers and the rows that read their open points.

Every field that names a row (``rule``, ``*_rule``) must name a ``[[rule]]`` row; the
roles whose value is read from an open row must name a row with exactly the values the
machine knows (`ROLE_VALUES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chanspec.model.table import Row, _Checker

MELD_SHAPES = ("same-face", "named-ranks-one-colour", "distinct-colours-one-rank")
BAN_KINDS = ("rank", "same-face-at-least", "distinct-colours-set")
CHOT_SCOPES = ("exactly-four", "holds-set", "keeps-set")
CLAIM_WHEN = ("can-win", "same-face-in-hand", "same-face-in-area")
KEO_WHEN = ("same-face-in-area", "completes-distinct-colours")
# the values the code reads for an open row, by the field that names it
ROLE_VALUES: dict[str, tuple[str, ...]] = {
    "deck.copies_rule": ("four-copies", "as-counted"),
    "discard_ban.scope_rule": CHOT_SCOPES,
    "win.threshold_rule": ("at-least", "more-than"),
    "win.quan_rule": ("at-least", "more-than"),
    "win.quan_claim_rule": ("by-count", "must-claim"),
    "win.empty_rule": ("all-in-melds", "no-legal-discard", "no-card"),
    "win.count_rule": ("laid-fixed-hand-best", "all-cards-best", "player-chooses"),
    "forced_claim.area_rule": ("all-laid", "face-down-only"),
    "keo_them.area_rule": ("all-laid", "face-down-only"),
    "end.payment_rule": ("no-payment", "replay"),
    "payment.bust_rule": ("base-to-each", "loses-only"),
}
SECTIONS = ("deck", "variant", "meld", "concealed", "discard_ban", "forced_claim", "keo_them",
            "win", "end", "payment")


@dataclass(frozen=True)
class MeldShape:
    """One ``[[meld]]`` entry: a shape of the closed vocabulary and its worth."""

    rule: str
    shape: str
    size: int
    ranks: tuple[str, ...]  # same-face: the ranks it applies to (empty: all); named: the ranks
    rank: str  # distinct-colours-one-rank: the rank
    lenh: int
    lenh_by_rank: Mapping[str, int]
    concealed: bool
    vi: str
    en: str


@dataclass(frozen=True)
class DiscardBan:
    """One ``[[discard_ban]]`` entry."""

    rule: str
    kind: str
    ranks: tuple[str, ...] = ()
    count: int = 0
    rank: str = ""
    size: int = 0
    scope_rule: str = ""


def _rid(ck: _Checker, where: str, fld: str, obj: Mapping[str, Any],
         rows: Mapping[str, Row], role: str | None = None) -> str:
    v = obj.get(fld)
    ck.ref(where, fld, v, rows)
    if not isinstance(v, str):
        return ""
    if role and v in rows:
        want = ROLE_VALUES[role]
        have = rows[v].values
        if tuple(sorted(have)) != tuple(sorted(want)):
            ck.add(where, fld, f"row {v!r} is read for {role}; it must have exactly the values "
                   f"{', '.join(want)} (it has {', '.join(have) or 'none'})")
    return v


def _int(ck: _Checker, where: str, obj: Mapping[str, Any], fld: str, lo: int = 0) -> int:
    v = ck.typed(where, obj, fld, int)
    if v is None:
        return lo
    if v < lo:
        ck.add(where, fld, f"expected a whole number of at least {lo}, found {v}")
    return int(v)


def _names(ck: _Checker, where: str, fld: str, v: Any, known: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        ck.add(where, fld, f"expected a list of rank ids ({', '.join(known)}), found {v!r}")
        return ()
    for x in v:
        if x not in known:
            ck.add(where, fld, f"{x!r} is no rank of [deck]; ranks: {', '.join(known)}")
    return tuple(v)


def validate_deck(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]
                  ) -> tuple[list[dict[str, str]], list[dict[str, str]], str, dict[str, int]]:
    """``[deck]``: its colours and ranks (id, code, vi, en) and the copies by reading."""
    deck = data.get("deck")
    if not ck.keys("deck", deck, ["rule", "copies_rule", "copies_by_value", "colour", "rank"]):
        return [], [], "", {}
    assert isinstance(deck, dict)
    _rid(ck, "deck", "rule", deck, rows)
    copies_rule = _rid(ck, "deck", "copies_rule", deck, rows, "deck.copies_rule")
    by_value = deck.get("copies_by_value")
    if not isinstance(by_value, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in by_value.values()):
        ck.add("deck", "copies_by_value", f"expected {{value = copies}}, found {by_value!r}")
        by_value = {}
    elif copies_rule in rows and set(by_value) != set(rows[copies_rule].values):
        ck.add("deck", "copies_by_value", f"must give the copies for every value of row "
               f"{copies_rule!r}: {', '.join(rows[copies_rule].values)}")
    out: list[list[dict[str, str]]] = []
    for sec in ("colour", "rank"):
        items = deck.get(sec)
        got: list[dict[str, str]] = []
        if not isinstance(items, list) or not items:
            ck.add("deck", sec, f"expected a list of [[deck.{sec}]] entries")
        else:
            for i, it in enumerate(items):
                w = f"deck.{sec}[{i}]"
                if ck.keys(w, it, ["id", "code", "vi", "en"]) and all(
                        isinstance(it.get(k), str) and it[k] for k in ("id", "code", "vi", "en")):
                    got.append(dict(it))
                elif isinstance(it, dict):
                    ck.add(w, "", "id, code, vi and en must be non-empty strings")
            for k in ("id", "code"):
                seen = [g[k] for g in got]
                if len(set(seen)) != len(seen):
                    ck.add("deck", sec, f"two {sec}s share one {k}")
        out.append(got)
    codes = [r["code"] + c["code"] for r in out[1] for c in out[0]]
    if len(set(codes)) != len(codes):
        ck.add("deck", "rank", "two faces get one code (rank code + colour code)")
    return out[0], out[1], copies_rule, dict(by_value)


def validate_melds(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row],
                   ranks: tuple[str, ...], colours: int) -> list[MeldShape]:
    """``[[meld]]``: the lệnh table."""
    raw = data.get("meld")
    if not isinstance(raw, list) or not raw:
        ck.add("meld", "", "expected a list of [[meld]] entries (the lệnh table)")
        return []
    out: list[MeldShape] = []
    for i, m in enumerate(raw):
        w = f"meld[{i}]"
        if not ck.keys(w, m, ["rule", "shape", "lenh", "vi", "en"],
                       ["size", "ranks", "rank", "lenh_by_rank", "concealed"]):
            continue
        rule = _rid(ck, w, "rule", m, rows)
        shape = m.get("shape")
        if shape not in MELD_SHAPES:
            ck.add(w, "shape", f"{shape!r} is not one of {', '.join(MELD_SHAPES)}")
            continue
        lenh = _int(ck, w, m, "lenh")
        by_rank = m.get("lenh_by_rank", {})
        if not isinstance(by_rank, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for v in by_rank.values()):
            ck.add(w, "lenh_by_rank", f"expected {{rank = lệnh}}, found {by_rank!r}")
            by_rank = {}
        _names(ck, w, "lenh_by_rank", list(by_rank), ranks)
        concealed = m.get("concealed", False)
        if not isinstance(concealed, bool):
            ck.add(w, "concealed", f"expected true or false, found {concealed!r}")
            concealed = False
        size, sel, rank = 0, (), ""
        if shape == "same-face":
            size = _int(ck, w, m, "size", 1)
            if "size" not in m:
                ck.add(w, "size", "missing required field")
            sel = _names(ck, w, "ranks", m["ranks"], ranks) if "ranks" in m else ()
            if "rank" in m:
                ck.add(w, "rank", "a same-face meld names `ranks`, not `rank`")
        elif shape == "named-ranks-one-colour":
            sel = _names(ck, w, "ranks", m.get("ranks"), ranks)
            size = len(sel)
            if len(set(sel)) != len(sel) or not sel:
                ck.add(w, "ranks", "expected distinct ranks, at least one")
            for k in ("size", "rank"):
                if k in m:
                    ck.add(w, k, "a named-ranks meld is sized by its `ranks`")
        else:
            size = _int(ck, w, m, "size", 1)
            if not 1 <= size <= colours:
                ck.add(w, "size", f"expected 1 to {colours} (the deck's colours), found {size}")
            rank = m.get("rank", "")
            if rank not in ranks:
                ck.add(w, "rank", f"{rank!r} is no rank of [deck]; ranks: {', '.join(ranks)}")
            if "ranks" in m:
                ck.add(w, "ranks", "a distinct-colours meld names one `rank`")
        out.append(MeldShape(rule, str(shape), size, tuple(sel), str(rank), lenh,
                             dict(by_rank), bool(concealed), str(m.get("vi", "")),
                             str(m.get("en", ""))))
    return out


def validate_bans(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row],
                  ranks: tuple[str, ...]) -> list[DiscardBan]:
    """``[[discard_ban]]``."""
    out: list[DiscardBan] = []
    raw = data.get("discard_ban", [])
    if not isinstance(raw, list):
        ck.add("discard_ban", "", "expected a list of [[discard_ban]] entries")
        return out
    for i, b in enumerate(raw):
        w = f"discard_ban[{i}]"
        if not ck.keys(w, b, ["rule", "kind"], ["ranks", "count", "rank", "size", "scope_rule"]):
            continue
        rule = _rid(ck, w, "rule", b, rows)
        kind = b.get("kind")
        if kind == "rank":
            out.append(DiscardBan(rule, kind, ranks=_names(ck, w, "ranks", b.get("ranks"), ranks)))
        elif kind == "same-face-at-least":
            out.append(DiscardBan(rule, kind, count=_int(ck, w, b, "count", 1)))
        elif kind == "distinct-colours-set":
            rank = b.get("rank")
            if rank not in ranks:
                ck.add(w, "rank", f"{rank!r} is no rank of [deck]")
            scope = _rid(ck, w, "scope_rule", b, rows, "discard_ban.scope_rule")
            out.append(DiscardBan(rule, kind, rank=str(rank), size=_int(ck, w, b, "size", 1),
                                  scope_rule=scope))
        else:
            ck.add(w, "kind", f"{kind!r} is not one of {', '.join(BAN_KINDS)}")
    return out


def validate_rest(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row],
                  ranks: tuple[str, ...]) -> None:
    """``[concealed]``, ``[[forced_claim]]``, ``[[keo_them]]``, ``[win]``, ``[end]``,
    ``[payment]``, ``[[variant]]``."""
    con = data.get("concealed")
    if ck.keys("concealed", con, ["rule", "bonus"]):
        assert isinstance(con, dict)
        _rid(ck, "concealed", "rule", con, rows)
        _int(ck, "concealed", con, "bonus")
    for sec, whens, opt in (("forced_claim", CLAIM_WHEN, ["counts", "count", "ranks",
                                                          "area_rule", "also_face_down"]),
                            ("keo_them", KEO_WHEN, ["count", "ranks", "rank", "from", "to",
                                                    "area_rule"])):
        raw = data.get(sec)
        if not isinstance(raw, list):
            ck.add(sec, "", f"expected a list of [[{sec}]] entries")
            continue
        for i, c in enumerate(raw):
            w = f"{sec}[{i}]"
            if not ck.keys(w, c, ["rule", "when"], opt):
                continue
            _rid(ck, w, "rule", c, rows)
            if c.get("when") not in whens:
                ck.add(w, "when", f"{c.get('when')!r} is not one of {', '.join(whens)}")
            if "area_rule" in c:
                _rid(ck, w, "area_rule", c, rows, f"{sec}.area_rule")
            if "ranks" in c:
                _names(ck, w, "ranks", c["ranks"], ranks)
            if "rank" in c and c["rank"] not in ranks:
                ck.add(w, "rank", f"{c['rank']!r} is no rank of [deck]")
            for k in ("count", "from", "to"):
                if k in c:
                    _int(ck, w, c, k, 1)
            if "counts" in c and not (isinstance(c["counts"], list) and all(
                    isinstance(n, int) and not isinstance(n, bool) and n >= 1
                    for n in c["counts"])):
                ck.add(w, "counts", f"expected a list of whole numbers, found {c['counts']!r}")
    for sec, req, opt in (
            ("win", ["rule", "threshold", "threshold_rule", "quan", "quan_rule",
                     "quan_claim_rule", "empty_rule", "count_rule"], []),
            ("end", ["rule", "noc_below", "payment_rule"], []),
            ("payment", ["rule", "base", "per_lenh", "quan_rule", "quan_per_lenh",
                         "bust_rule"], [])):
        obj = data.get(sec)
        if not ck.keys(sec, obj, req, opt):
            continue
        assert isinstance(obj, dict)
        for k in req:
            if k == "rule" or k.endswith("_rule"):
                role = f"{sec}.{k}" if f"{sec}.{k}" in ROLE_VALUES else None
                _rid(ck, sec, k, obj, rows, role)
            else:
                _int(ck, sec, obj, k)
    raw = data.get("variant")
    if not isinstance(raw, list) or not raw:
        ck.add("variant", "", "expected a list of [[variant]] entries")
        return
    for i, v in enumerate(raw):
        w = f"variant[{i}]"
        if ck.keys(w, v, ["rule", "players", "opener_cards", "other_cards"]):
            _rid(ck, w, "rule", v, rows)
            for k in ("players", "opener_cards", "other_cards"):
                _int(ck, w, v, k, 1)
