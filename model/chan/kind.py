"""The Chắn kind: the Bài Chắn family of games played on the 30 Tổ Tôm faces (the family's
Bài Chắn, ``spec/family.toml``; classic Chắn, ``spec/classic.toml``).

Its machine is `chanspec.model.chan.game.State`; its vocabulary is
`chanspec.model.chan.vocab` and its loader `chanspec.model.chan.table`.  Only the registry
(`chanspec.model.kinds`) imports this module.
"""

from __future__ import annotations

from ..kind import Kind
from . import game, vocab
from . import table as table_mod

KIND = Kind(
    name="chan",
    title_vi="Chắn (bài Tổ Tôm 30 quân)",
    title_en="Chắn (the 30 faces of the Tổ Tôm deck)",
    sections=vocab.SECTIONS,
    from_data=table_mod.from_data,
    load=table_mod.load,
    State=game.State,
    Action=game.Action,
    Deal=game.Deal,
    deal_random=game.deal_random,
    game_vi="Bài Chắn",
    game_en="Bài Chắn",
)
