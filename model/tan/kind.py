"""The Tấn kind (seed 003): a 52-card attack-and-defend game for two to four with a
trump suit.  Only the registry (`chanspec.model.kinds`) imports this module."""

from __future__ import annotations

from chanspec.model.kind import Kind

from . import game, log, scales, vocab, words
from . import table as table_mod

KIND = Kind(
    name=table_mod.KIND_NAME,
    title_vi="Tấn (bài tú lơ khơ 52 lá)",
    title_en="Tấn (the 52-card pack)",
    sections=vocab.SECTIONS,
    from_data=table_mod.from_data,
    load=table_mod.load,
    State=game.State,
    Action=game.Action,
    Deal=game.Deal,
    deal_random=game.deal_random,
    commands=frozenset({"check", "conform", "flow", "play", "replay", "rules", "serve"}),
    story=words.story,
    game_vi="Tấn",
    game_en="Tấn",
    log=log,
    scales=scales.scales,
    words=words,
)
