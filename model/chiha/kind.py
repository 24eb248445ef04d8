"""The Chiha kind (bài Xệp, seed 004): a Tứ Sắc game on 4 colours × 7 ranks, melds worth
lệnh.  Its tables load (`chanspec.model.chiha.table`) and its meld engine runs
(`chanspec.model.chiha.melds`; no command prints it yet); its machine is not written
yet, so the commands that play hands refuse its tables in one line.  Only the registry
(`chanspec.model.kinds`) imports this module.
"""

from __future__ import annotations

from chanspec.model.kind import Kind

from . import table as table_mod
from . import vocab

KIND = Kind(
    name=table_mod.KIND_NAME,
    title_vi="Chiha (bài Xệp, bộ Tứ Sắc)",
    title_en="Chiha (Xệp, on the Tứ Sắc deck)",
    sections=vocab.SECTIONS,
    from_data=table_mod.from_data,
    load=table_mod.load,
    State=None,
    Action=None,
    Deal=None,
    deal_random=None,
    commands=frozenset(),  # `chanspec melds` will be the first
    game_vi="Chiha",
    game_en="Chiha",
)
