"""The Chắn kind: the Bài Chắn family of games played on the 30 Tổ Tôm faces (the family's
Bài Chắn, ``spec/family.toml``; classic Chắn, ``spec/classic.toml``).

Its machine is `chanspec.model.chan.game.State`; its vocabulary and loader are, until they move
into ``model/chan/``, the Chắn half of `chanspec.model.table`.  Only the registry
(`chanspec.model.kinds`) imports this module.
"""

from __future__ import annotations

from .. import table as table_mod
from ..kind import Kind
from . import game

# the table sections Chắn owns (everything but schema, ruleset and rule)
SECTIONS = ("deck", "variant", "pairing", "win", *table_mod.TURN_SECTIONS,
            "cuoc", "scoring", "cai", "declaration", *table_mod.SETTLE_SECTIONS)

KIND = Kind(
    name="chan",
    title_vi="Chắn (bài Tổ Tôm 30 quân)",
    title_en="Chắn (the 30 faces of the Tổ Tôm deck)",
    sections=SECTIONS,
    from_data=table_mod.from_data,
    load=table_mod.load,
    State=game.State,
    Action=game.Action,
    Deal=game.Deal,
    deal_random=game.deal_random,
    game_vi="Bài Chắn",
    game_en="Bài Chắn",
)
