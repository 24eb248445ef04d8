"""The Chiha kind (bài Xệp, seed 004): a Tứ Sắc game on 4 colours × 7 ranks, melds worth
lệnh.  Its tables load (`chanspec.model.chiha.table`), its meld engine runs
(`chanspec.model.chiha.melds`) and its machine plays a hand (`chanspec.model.chiha.game`,
told by `chanspec.model.chiha.words`, logged by `chanspec.model.chiha.log`); the
commands not in `commands` refuse its tables in one line.  Only the registry
(`chanspec.model.kinds`) imports this module.
"""

from __future__ import annotations

from chanspec.model.kind import Kind

from . import game, log, melds, vocab, words
from . import table as table_mod

KIND = Kind(
    name=table_mod.KIND_NAME,
    title_vi="Chiha (bài Xệp, bộ Tứ Sắc)",
    title_en="Chiha (Xệp, on the Tứ Sắc deck)",
    sections=vocab.SECTIONS,
    from_data=table_mod.from_data,
    load=table_mod.load,
    State=game.State,
    Action=game.Action,
    Deal=game.Deal,
    deal_random=game.deal_random,
    commands=frozenset({"conform", "flow", "melds", "play", "replay", "rules", "serve"}),
    story=words.story,
    game_vi="Chiha",
    game_en="Chiha",
    log=log,
    melds=melds.engine,
)
