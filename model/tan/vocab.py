"""The words of a Tấn table (``spec/tan.toml``) and the checks of its sections.

* ``[deck]``: ``[[deck.suit]]`` (id, code, vi, en) and ``[[deck.rank]]`` (id, code, vi,
  en, count), the ranks listed from the strongest to the weakest (row ``rank-order``);
  ``count`` is what a rank counts for when a drawn card picks the first attacker.
* ``[deal]``: ``hand`` (cards dealt to each seat and refilled to), ``players`` (the
  player counts), and the rows of the dealing decisions.
* When the row ``[deck] rule`` (or ``[deal] rule``) names is open or provisional, its
  values are `SIZE_VALUES`: ``full`` is the pack (the hand) as listed, ``short`` the pack
  from the strongest rank down to ``[deck] short_weakest`` (the hand ``[deal]
  short_hand``), e.g. Durak's 36 cards and six-card hands.
* ``[play]``, ``[end]``, ``[variants]``: one field per decision of the machine, each
  naming the row the decision cites (`FIELDS`).  A field whose row is open or provisional
  is read through that row's value: the row must have exactly the values the machine
  knows (`ROLE_VALUES`), so a table cannot give the machine a reading it does not play.

Each field is read by `chanspec.model.tan.game` under the same name (``play.after_take``
is the row ``after-take``; `TanRules.value("play.after_take")` its value in force).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chanspec.model.table import Row, _Checker

SECTIONS = ("deck", "deal", "play", "end", "variants")

# every field of [deal], [play], [end], [variants] that names a row (without `_rule`)
FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("players", "dealer", "shuffle", "direction", "trump", "first_attacker",
             "count_from", "setup_order"),
    "play": ("single", "lead", "beat_suit", "trump_beats", "trump_on_trump", "trump_choice",
             "pace", "take_when_able", "take", "take_what", "add", "add_who", "add_ranks",
             "add_order", "add_limit", "first_limit", "add_after_take", "pass", "pass_scope",
             "defender_out", "discard",
             "next_after_beat", "after_take", "refill", "out_turn", "named_card",
             "early_card", "no_counting", "hand_count", "sort"),
    "end": ("trump_last", "out", "end", "same_round"),
    "variants": ("doi_hai_chu", "doi_first", "cung_chu", "cung_draw", "cung_check",
                 "cung_no_trump", "xa_chu", "xa_once", "xa_redeal"),
}
ON_OFF = ("off", "on")
# the values the machine reads for a field whose row is open or provisional
ROLE_VALUES: dict[str, tuple[str, ...]] = {
    "deal.direction": ("one-way", "deal-opposite"),
    "deal.first_attacker": ("count-card", "dealer-then-winner", "lowest-trump"),
    "deal.count_from": ("drawer-is-one", "next-is-one"),
    "deal.setup_order": ("xa-cung-doi", "cung-xa-doi"),
    "play.pace": ("one-at-a-time", "several-open"),
    "play.take_when_able": ("may-take", "must-beat"),
    "play.take_what": ("attack-cards", "all-table"),
    "play.add_who": ("attacker-and-others", "others-only"),
    "play.add_ranks": ("all-table", "attack-only"),
    "play.add_order": ("attacker-first", "round-from-defender"),
    "play.add_limit": ("none", "six"),
    "play.first_limit": ("as-others", "five"),
    "play.add_after_take": ("take-ends", "add-to-taker"),
    "play.pass_scope": ("whole-round", "this-card"),
    "play.defender_out": ("round-beaten", "defender-draws"),
    "play.after_take": ("right-of-attacker", "after-taker"),
    "play.refill": ("from-attacker", "defender-last"),
    "play.out_turn": ("next-holding", "previous-attacker"),
    "end.end": ("play-to-last", "first-out"),
    "end.same_round": ("order-of-emptying", "shared-place"),
    "variants.doi_hai_chu": ON_OFF,
    "variants.cung_chu": ON_OFF,
    "variants.cung_no_trump": ("gives-nothing", "gives-highest"),
    "variants.xa_chu": ON_OFF,
    "variants.xa_redeal": ("whole-deal", "own-hand"),
}
# the pack (row [deck] rule) and the hand (row [deal] rule), when those rows are open or
# provisional: the full pack and hand as listed, or the short ones ([deck] short_weakest,
# [deal] short_hand)
SIZE_VALUES = ("full", "short")
# readings the machine does not play yet: choosing one is refused in one line
UNPLAYED: dict[str, tuple[str, ...]] = {"play.pace": ("several-open",)}


def _rid(ck: _Checker, where: str, fld: str, obj: Mapping[str, Any],
         rows: Mapping[str, Row], role: str) -> str:
    v = obj.get(fld)
    ck.ref(where, fld, v, rows)
    if not isinstance(v, str) or v not in rows:
        return ""
    row = rows[v]
    want = ROLE_VALUES.get(role)
    if want is None:
        if row.is_choice:
            ck.add(where, fld, f"row {v!r} is open or provisional, but the machine reads "
                   f"{role} as settled; settle the row or name a settled one")
    elif tuple(sorted(row.values)) != tuple(sorted(want)):
        ck.add(where, fld, f"row {v!r} is read for {role}; it must have exactly the values "
               f"{', '.join(want)} (it has {', '.join(row.values) or 'none'})")
    return v


def _size_row(ck: _Checker, where: str, fld: str, obj: Mapping[str, Any],
              rows: Mapping[str, Row], short: str) -> bool:
    """Is the row `obj[fld]` names open or provisional (then it has the values
    `SIZE_VALUES` and `obj[short]` gives the short reading)?"""
    row = rows.get(obj.get(fld)) if isinstance(obj.get(fld), str) else None
    if row is None or not row.is_choice:
        if short in obj:
            ck.add(where, short, f"only read when row {obj.get(fld)!r} is open or provisional "
                   f"(with the values {', '.join(SIZE_VALUES)})")
        return False
    if tuple(sorted(row.values)) != SIZE_VALUES:
        ck.add(where, fld, f"row {row.id!r} is read for the {where} size; it must have exactly "
               f"the values {', '.join(SIZE_VALUES)} (it has {', '.join(row.values)})")
    if short not in obj:
        ck.add(where, short, f"missing: row {row.id!r} is open or provisional, so the "
               f"{short} of its value 'short' is needed")
    return True


def validate_deck(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``[deck]``: the suits and the ranks (strongest first)."""
    deck = data.get("deck")
    if not ck.keys("deck", deck, ["rule", "order_rule", "suit", "rank"], ["short_weakest"]):
        return [], []
    assert isinstance(deck, dict)
    for fld in ("rule", "order_rule"):
        ck.ref("deck", fld, deck.get(fld), rows)
    _size_row(ck, "deck", "rule", deck, rows, "short_weakest")
    out: list[list[dict[str, Any]]] = []
    for sec, extra in (("suit", []), ("rank", ["count"])):
        items = deck.get(sec)
        got: list[dict[str, Any]] = []
        if not isinstance(items, list) or not items:
            ck.add("deck", sec, f"expected a list of [[deck.{sec}]] entries")
        else:
            for i, it in enumerate(items):
                w = f"deck.{sec}[{i}]"
                if not ck.keys(w, it, ["id", "code", "vi", "en", *extra]):
                    continue
                if not all(isinstance(it.get(k), str) and it[k]
                           for k in ("id", "code", "vi", "en")):
                    ck.add(w, "", "id, code, vi and en must be non-empty strings")
                    continue
                if extra and not (isinstance(it["count"], int) and not isinstance(it["count"], bool)
                                  and it["count"] >= 1):
                    ck.add(w, "count", f"expected a whole number of at least 1, found "
                           f"{it['count']!r}")
                    continue
                got.append(dict(it))
            for k in ("id", "code"):
                seen = [g[k] for g in got]
                if len(set(seen)) != len(seen):
                    ck.add("deck", sec, f"two {sec}s share one {k}")
        out.append(got)
    suits, ranks = out
    weakest = deck.get("short_weakest")
    if weakest is not None and ranks and (
            not isinstance(weakest, str) or weakest not in [r["id"] for r in ranks[1:]]):
        ck.add("deck", "short_weakest", f"expected the id of a rank below the strongest "
               f"({', '.join(r['id'] for r in ranks[1:])}), found {weakest!r}")
    if suits and ranks and len(suits) * len(ranks) > 64:
        ck.add("deck", "rank", f"{len(suits)} suits × {len(ranks)} ranks is more than the "
               "machine's 64 cards")
    return suits, ranks


def validate_deal(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]
                  ) -> tuple[int, tuple[int, ...]]:
    """``[deal]``: the hand size and the player counts."""
    deal = data.get("deal")
    req = ["rule", "hand", "players"] + [f"{f}_rule" for f in FIELDS["deal"]]
    if not ck.keys("deal", deal, req, ["short_hand"]):
        return 0, ()
    assert isinstance(deal, dict)
    ck.ref("deal", "rule", deal.get("rule"), rows)
    if _size_row(ck, "deal", "rule", deal, rows, "short_hand"):
        short = deal.get("short_hand")
        if not isinstance(short, int) or isinstance(short, bool) or short < 1:
            ck.add("deal", "short_hand", f"expected a whole number of at least 1, found "
                   f"{short!r}")
    for f in FIELDS["deal"]:
        _rid(ck, "deal", f"{f}_rule", deal, rows, f"deal.{f}")
    hand = deal.get("hand")
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        ck.add("deal", "hand", f"expected a whole number of at least 1, found {hand!r}")
        hand = 0
    players = deal.get("players")
    if not (isinstance(players, list) and players and all(
            isinstance(p, int) and not isinstance(p, bool) and p >= 2 for p in players)
            and len(set(players)) == len(players)):
        ck.add("deal", "players", f"expected a list of distinct player counts of at least 2, "
               f"found {players!r}")
        players = []
    return int(hand), tuple(sorted(players))


def validate_fields(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]
                    ) -> dict[str, str]:
    """``[play]``, ``[end]``, ``[variants]``: every field names a row; the map from
    ``section.field`` to row id (``[deal]``'s included)."""
    out: dict[str, str] = {}
    for sec, fields in FIELDS.items():
        obj = data.get(sec)
        if sec != "deal" and not ck.keys(sec, obj, [f"{f}_rule" for f in fields]):
            continue
        if not isinstance(obj, dict):
            continue
        for f in fields:
            if sec == "deal":
                v = obj.get(f"{f}_rule")
                rid = v if isinstance(v, str) and v in rows else ""
            else:
                rid = _rid(ck, sec, f"{f}_rule", obj, rows, f"{sec}.{f}")
            if rid:
                out[f"{sec}.{f}"] = rid
    return out
