"""The Tứ Sắc deck of a Chiha table: faces from the table's ``[deck]`` colours and ranks.

A face is an index ``colour * len(ranks) + rank`` in the table's order.  Its code is the
rank's code followed by the colour's (``tgd`` = Tướng đỏ, ``chv`` = Chốt vàng); its
Vietnamese name is ``<rank> <colour>`` (``Tướng đỏ``), its English one ``<colour>
<rank>`` (``red General``).  `Deck.parse` reads a code, ``rank-colour`` with a hyphen
(``tg-d``) or the Vietnamese name with its diacritics (``"Tướng đỏ"``, ``Tướng-đỏ``),
case-insensitively; anything else is a `ChihaCardError` that lists what is accepted.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


class ChihaCardError(ValueError):
    """A card name that is no face of the Chiha deck; the message says what is accepted."""


class ChihaHandError(ValueError):
    """Cards that are no possible hand (more copies of a face than the deck has)."""


@dataclass(frozen=True)
class Suit:
    """A colour or a rank of the deck: its id, short code and names."""

    id: str
    code: str
    vi: str
    en: str


def _fold(text: str) -> str:
    """Case-, space- and hyphen-insensitive key; keeps diacritics (Tướng and Tượng differ
    only by them)."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().replace("-", " ").split())


@dataclass(frozen=True)
class Deck:
    """The faces of the table (colours × ranks) and how many copies of each."""

    colours: tuple[Suit, ...]
    ranks: tuple[Suit, ...]
    copies: int
    _lookup: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for f in self.faces:
            r, c = self.rank_of(f), self.colour_of(f)
            for key in (self.code(f), f"{r.code}-{c.code}", f"{r.vi} {c.vi}"):
                self._lookup[_fold(key)] = f

    @property
    def faces(self) -> range:
        return range(len(self.colours) * len(self.ranks))

    def face(self, colour: int, rank: int) -> int:
        return colour * len(self.ranks) + rank

    def colour_index(self, f: int) -> int:
        return f // len(self.ranks)

    def rank_index(self, f: int) -> int:
        return f % len(self.ranks)

    def colour_of(self, f: int) -> Suit:
        return self.colours[self.colour_index(f)]

    def rank_of(self, f: int) -> Suit:
        return self.ranks[self.rank_index(f)]

    def rank_id(self, f: int) -> str:
        return self.rank_of(f).id

    def rank_by_id(self, rid: str) -> int:
        return [r.id for r in self.ranks].index(rid)

    def code(self, f: int) -> str:
        """``tgd``: the rank's code, then the colour's."""
        return self.rank_of(f).code + self.colour_of(f).code

    def name(self, f: int, lang: str = "vi") -> str:
        """``Tướng đỏ`` (vi) or ``red General`` (en)."""
        r, c = self.rank_of(f), self.colour_of(f)
        return f"{r.vi} {c.vi}" if lang == "vi" else f"{c.en} {r.en}"

    def parse(self, text: str) -> int:
        """One face from a code, ``rank-colour`` or a Vietnamese name (`ChihaCardError`
        otherwise, with a near match when there is one)."""
        key = _fold(text)
        if key in self._lookup:
            return self._lookup[key]
        near = difflib.get_close_matches(key, list(self._lookup), n=1, cutoff=0.6)
        hint = f" Did you mean {self.code(self._lookup[near[0]])} " \
               f"({self.name(self._lookup[near[0]])})?" if near else ""
        ranks = ", ".join(f"{r.code} {r.vi}" for r in self.ranks)
        colours = ", ".join(f"{c.code} {c.vi}" for c in self.colours)
        raise ChihaCardError(
            f"unknown card {text!r}.{hint} A card is a rank code then a colour code (ranks: "
            f"{ranks}; colours: {colours}), e.g. tgd = Tướng đỏ, chv = Chốt vàng; or its "
            "Vietnamese name, e.g. \"Tướng đỏ\"")

    def parse_all(self, items: Iterable[str]) -> list[int]:
        """Faces from card words; a word may hold several cards separated by spaces or
        commas (``"tgd tgd, siv"``)."""
        out: list[int] = []
        for item in items:
            words = [w for w in item.replace(",", " ").split() if w]
            i = 0
            while i < len(words):  # a Vietnamese name is two words ("Tướng đỏ")
                pair = " ".join(words[i:i + 2])
                if len(words) > i + 1 and _fold(pair) in self._lookup:
                    out.append(self._lookup[_fold(pair)])
                    i += 2
                else:
                    out.append(self.parse(words[i]))
                    i += 1
        return out

    def counts(self, faces: Sequence[int]) -> list[int]:
        """The count vector of `faces` (`ChihaHandError` past the deck's copies)."""
        c = [0] * len(self.faces)
        for f in faces:
            c[f] += 1
        over = [f for f in self.faces if c[f] > self.copies]
        if over:
            f = over[0]
            raise ChihaHandError(
                f"{c[f]} cards {self.code(f)} ({self.name(f)}): the deck has {self.copies} "
                f"of each face (row deck-size); give at most {self.copies}")
        return c
