"""The shared foundation and the reference machine of the Chắn kind (Bài Chắn and classic
Chắn): rule tables, the game kinds and their registry, cards, winning hands, the game.

The one door to a ruleset is `load(name_or_path)` / `rules(name, players, **options)`
(from `chanspec.model.kinds`); every game state follows `GameState` (`chanspec.model.kind`).
"""

from .kind import GameState, Kind
from .kinds import builtin_names, load, rules

__all__ = ["GameState", "Kind", "builtin_names", "load", "rules"]
