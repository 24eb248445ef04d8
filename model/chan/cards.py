"""The 30 faces of the 120-card Tổ Tôm deck, their codes and their Vietnamese names.

These 30 faces are the *universe* of the Tổ Tôm family of decks: every index, count
vector and packed layout in chanspec runs over it.  A rule table picks its deck from it
(``[deck] faces``, with ``copies`` of each): the family's table takes all 30, classic
Chắn 25 of them (Nhị to Cửu of the three suits and Chi Chi).  A deck outside this universe
(the four-colour cards of Tứ Sắc, say) would need another universe: future work.

A *face* (mặt quân) is an integer 0..29:

* ``suit * 9 + (rank - 1)`` for the suited faces, suits Vạn (0), Văn (1), Sách (2);
* 27 Chi Chi, 28 Lão, 29 Thang (the three *yêu* faces, which have no suit).

Compact codes, used in input and JSON: ``1v``…``9v`` (Vạn), ``1n``…``9n`` (Văn),
``1s``…``9s`` (Sách), ``chi``, ``lao``, ``thang``.  Full names with diacritics
("Tam Văn", "Chi Chi") are accepted too and are what people see.

This module is the only code the winning-hand engine and its Z3 oracle share.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable, Sequence

NUM_FACES = 30
COPIES = 4

SUIT_CODES = ("v", "n", "s")
SUIT_NAMES = ("Vạn", "Văn", "Sách")
RANK_NAMES = ("Nhất", "Nhì", "Tam", "Tứ", "Ngũ", "Lục", "Thất", "Bát", "Cửu")
# Other spellings people write for a rank; accepted on input, never printed.
RANK_ALIASES = {"Nhị": 2}

CHI, LAO, THANG = 27, 28, 29
YEU = (CHI, LAO, THANG)
YEU_CODES = ("chi", "lao", "thang")
YEU_NAMES = ("Chi Chi", "Lão", "Thang")
YEU_NAMES_EN = ("Chi Chi (yêu)", "Lão (yêu)", "Thang (yêu)")
SUIT_NAMES_EN = ("Vạn (myriads)", "Văn (strings)", "Sách (coins)")


class CardError(ValueError):
    """A card name that does not exist; the message says what is accepted."""


def face_of(suit: int, rank: int) -> int:
    return suit * 9 + (rank - 1)


def rank_of(face: int) -> int | None:
    """Rank 1..9 of a suited face, None for a yêu face."""
    return face % 9 + 1 if face < 27 else None


def suit_of(face: int) -> int | None:
    return face // 9 if face < 27 else None


def code(face: int) -> str:
    if face >= 27:
        return YEU_CODES[face - 27]
    return f"{face % 9 + 1}{SUIT_CODES[face // 9]}"


def name(face: int) -> str:
    """Vietnamese name with diacritics, e.g. 'Tam Văn', 'Chi Chi'."""
    if face >= 27:
        return YEU_NAMES[face - 27]
    return f"{RANK_NAMES[face % 9]} {SUIT_NAMES[face // 9]}"


def label(face: int) -> str:
    """Name and code together, for messages: 'Tam Văn (3n)'."""
    return f"{name(face)} ({code(face)})"


CODES: tuple[str, ...] = tuple(code(f) for f in range(NUM_FACES))
NAMES: tuple[str, ...] = tuple(name(f) for f in range(NUM_FACES))


def _fold(text: str) -> str:
    """Case- and space-insensitive key; keeps diacritics (Vạn and Văn differ only by them)."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


_LOOKUP: dict[str, int] = {}
for _f in range(NUM_FACES):
    _LOOKUP[_fold(code(_f))] = _f
    _LOOKUP[_fold(name(_f))] = _f
for _alias, _rank in RANK_ALIASES.items():
    for _s in range(3):
        _LOOKUP[_fold(f"{_alias} {SUIT_NAMES[_s]}")] = face_of(_s, _rank)
_LOOKUP[_fold("Chi")] = CHI


def parse(text: str) -> int:
    """One card from a code or a Vietnamese name; a clear error otherwise."""
    key = _fold(text)
    if key in _LOOKUP:
        return _LOOKUP[key]
    accepted = list(CODES) + list(NAMES)
    near = difflib.get_close_matches(key, [_fold(a) for a in accepted], n=1, cutoff=0.5)
    hint = ""
    if near:
        f = _LOOKUP[near[0]]
        hint = f" Did you mean {label(f)}?"
    raise CardError(
        f"unknown card {text!r}.{hint} Accepted: codes 1v..9v (Vạn), 1n..9n (Văn), "
        "1s..9s (Sách), chi, lao, thang; or names such as 'Tam Văn', 'Nhất Vạn', 'Chi Chi', "
        "'Lão', 'Thang'."
    )


def require_in_deck(faces: Iterable[int], deck: Iterable[int], deck_name: str) -> list[int]:
    """`faces` as a list when every card is in `deck`; raises `CardError` naming the first
    card that is not and the faces the deck has (`deck_name` names the table)."""
    have = set(deck)
    out = list(faces)
    for f in out:
        if f not in have:
            shown = ", ".join(code(x) for x in sorted(have))
            raise CardError(f"the deck of ruleset {deck_name} has no {label(f)}; its "
                            f"faces are {shown}")
    return out


def parse_list(items: Sequence[str]) -> list[int]:
    """Cards from a JSON list: each element is exactly one card (a code or a name).

    Elements are never split or joined, so ``["chi", "chi"]`` is two Chi Chi cards and
    ``["Tam Văn"]`` is one card.  Raises `CardError` naming the element that is no card.
    """
    out: list[int] = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise CardError(f"card {i + 1} of the list is {item!r}, not a card code such as "
                            "'3n' or a name such as 'Tam Văn'")
        out.append(parse(item))
    return out


def _is_card(token: str) -> bool:
    return _fold(token) in _LOOKUP


def parse_many(items: Iterable[str] | str) -> list[int]:
    """Cards from command-line arguments (a list), or from one string.

    Each argument, or the one string, holds cards separated by spaces or commas.  Two
    neighbouring words are read as one two-word name ('Tam Văn') only when they cannot be
    read as two cards: ``chi chi`` is two Chi Chi cards.  In the list form an argument
    that is as a whole one card name is that one card, so the single argument
    ``"Chi Chi"`` is one card while the arguments ``chi chi`` are two.  Raises
    `CardError` for a word that is no card.
    """
    tokens: list[str] = []
    if isinstance(items, str):
        tokens = items.replace(",", " ").split()
    else:
        for n, item in enumerate(items, 1):
            words = item.replace(",", " ").split()
            if not words:
                raise CardError(f"argument {n} of the cards is empty ({item!r}); give a card "
                                "code such as '3n' or a name such as 'Tam Văn'")
            if len(words) > 1 and _is_card(" ".join(words)):
                tokens.append(" ".join(words))  # one argument naming one card
            else:
                tokens.extend(words)
    out: list[int] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens):
            pair = tokens[i] + " " + tokens[i + 1]
            if _is_card(pair) and not (_is_card(tokens[i]) and _is_card(tokens[i + 1])):
                out.append(_LOOKUP[_fold(pair)])
                i += 2
                continue
        out.append(parse(tokens[i]))
        i += 1
    return out


def counts(faces: Iterable[int]) -> list[int]:
    c = [0] * NUM_FACES
    for f in faces:
        c[f] += 1
    return c


def expand(cnt: Sequence[int]) -> list[int]:
    """The faces of a count vector, in face order."""
    return [f for f in range(NUM_FACES) for _ in range(cnt[f])]


def names(faces: Iterable[int]) -> str:
    return ", ".join(name(f) for f in faces)


def codes(faces: Iterable[int]) -> list[str]:
    return [code(f) for f in faces]


def same_rank(a: int, b: int) -> bool:
    """Two suited faces of one rank in different suits (the cạ every table knows)."""
    return a != b and rank_of(a) is not None and rank_of(a) == rank_of(b)


def layout(faces: Iterable[int], is_ca: Callable[[int, int], bool] = same_rank
           ) -> list[tuple[str, list[int]]]:
    """A hand as a family lays it out: its chắn first (pairs of identical cards, a face
    held four times giving two), then its cạ (the cards left over, paired by `is_ca`:
    by default two of one rank in different suits; a table's own is `Rules.is_ca`),
    then the loose cards (què); each run in suit and rank order (Vạn, Văn, Sách, Nhất
    to Cửu, then Chi Chi, Lão, Thang).  Returns ``[(kind, cards), ...]`` with kind
    ``"chan"``, ``"ca"`` or ``"que"``; the cards of all groups are `faces` again.

    >>> [(k, codes(g)) for k, g in layout(parse_list(["3n", "3v", "chi", "3v", "9s", "3s"]))]
    [('chan', ['3v', '3v']), ('ca', ['3n', '3s']), ('que', ['9s']), ('que', ['chi'])]
    """
    cnt = counts(faces)
    chan = [("chan", [f, f]) for f in range(NUM_FACES) for _ in range(cnt[f] // 2)]
    left = [f for f in range(NUM_FACES) if cnt[f] % 2]
    ca: list[tuple[str, list[int]]] = []
    loose: list[int] = []
    while left:
        a = left.pop(0)
        b = next((x for x in left if is_ca(a, x)), None)
        if b is None:
            loose.append(a)
        else:
            left.remove(b)
            ca.append(("ca", [a, b]))
    return chan + ca + [("que", [f]) for f in loose]
