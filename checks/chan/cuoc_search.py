"""A seeded random search for winning hands that hold each cước of a table.

A sample is built pair by pair, not drawn from written-down hands: a number of chắn (6 to
10, some as chíu), cạ to make ten pairs, one pair chosen to hold the winning card (or a
chíu for a chíu-ù, or none at all for a thiên ù), some of the other pairs laid down, a
random source for the winning card, random thông / first-round flags, and sometimes a
dealt hand (the cards held before eating and chíu, topped up with cards discarded later).
The faces are uniform over the deck, except that half the time they come from the faces
the table's ``[[cuoc]]`` conditions name (a winning card of Nhị Vạn, a laid Ngũ Vạn...),
so that rare cước are reached in a few thousand samples.  Each sample is judged by the
win engine and by `cuoc.judge`; nothing here knows what any cước means.

`find_witnesses` returns, for every ``[[cuoc]]`` row, the first sample that declares it
(with the options it was judged under), within a budget of samples.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model.chan import cards, cuoc, table, win
from chanspec.model.chan.table import Rules
from chanspec.model.chan.vocab import WIN_SOURCES


@dataclass(frozen=True)
class Sample:
    """One winning hand and how it was won: the cards held before the winning card
    (laid ones included), the laid groups, the context and the options it was judged
    under."""

    hand: tuple[int, ...]
    laid: tuple[win.Group, ...]
    ctx: cuoc.WinContext
    options: tuple[tuple[str, str], ...]

    def as_json(self) -> dict[str, Any]:
        return {"hand": cards.codes(sorted(self.hand)),
                "laid": [cards.codes(g.faces) for g in self.laid],
                "context": self.ctx.as_json(), "options": dict(self.options)}


def _faces_named(node: Any, key: str | None = None, inside: bool = False) -> set[int]:
    """Every face code mentioned in [[cuoc]] conditions (lists of faces); with `key`, only
    in the lists under that word (``card``: the winning cards named)."""
    out: set[int] = set()
    if isinstance(node, dict):
        for k, v in node.items():
            out |= _faces_named(v, key, inside or k == key)
    elif isinstance(node, list):
        for v in node:
            if isinstance(v, str):
                if key is None or inside:
                    try:
                        out.add(cards.parse(v))
                    except cards.CardError:
                        pass
            else:
                out |= _faces_named(v, key, inside)
    return out


class _Builder:
    def __init__(self, rules: Rules, rng: random.Random, named: Sequence[int]):
        self.rules, self.rng, self.named = rules, rng, named
        self.deck = list(rules.table.deck_faces())
        self.counts = [0] * cards.NUM_FACES

    def face(self, need: int) -> int | None:
        """A face with `need` copies still free; from the named faces half the time."""
        for _ in range(40):
            pool = self.named if self.named and self.rng.random() < 0.5 else self.deck
            f = self.rng.choice(pool)
            if f in self.deck and self.counts[f] + need <= self.rules.copies:
                self.counts[f] += need
                return f
        return None

    def ca(self) -> tuple[int, int] | None:
        for _ in range(40):
            a = self.face(1)
            if a is None:
                return None
            partners = [b for b in self.deck if self.rules.is_ca(a, b)
                        and self.counts[b] < self.rules.copies]
            if partners:
                b = self.rng.choice(partners)
                self.counts[b] += 1
                return (a, b)
            self.counts[a] -= 1
        return None


def random_win(rules: Rules, rng: random.Random, named: Sequence[int] = (),
               winning: Sequence[int] = ()) -> Sample | None:
    """One random sample; None when the pairs drawn do not make a win the engine accepts.
    `named` faces are favoured for every pair, `winning` ones for the winning card."""
    b = _Builder(rules, rng, named)
    n_chan = rng.randint(rules.min_chan, rules.pairs)
    groups: list[tuple[int, ...]] = []
    chan = 0
    while chan < n_chan:
        if n_chan - chan >= 2 and rng.random() < 0.15:
            f = b.face(4)
            if f is not None:
                groups.append((f,) * 4)
                chan += 2
                continue
        f = b.face(2)
        if f is None:
            return None
        groups.append((f, f))
        chan += 1
    while sum(1 if len(g) == 2 else 2 for g in groups) < rules.pairs:
        p = b.ca()
        if p is None:
            return None
        groups.append(p)
    if sum(1 if len(g) == 2 else 2 for g in groups) != rules.pairs:
        return None
    rng.shuffle(groups)
    roll = rng.random()
    kind: win.WinKind
    card: int | None
    if roll < 0.08:
        kind, card, final = "opening", None, None
    else:
        chius = [i for i, g in enumerate(groups) if len(g) == 4]
        if chius and roll < 0.25:
            kind, final = "chiu-u", rng.choice(chius)
        else:
            kind = "u"
            pairs = [i for i, g in enumerate(groups) if len(g) == 2]
            if not pairs:
                return None
            favoured = [i for i in pairs if set(groups[i]) & set(winning or named)]
            final = rng.choice(favoured if favoured and rng.random() < 0.5 else pairs)
        good = [f for f in groups[final] if f in winning]
        card = rng.choice(good if good and rng.random() < 0.8 else list(groups[final]))
    p_laid = (rng.choice((rng.random(), 1.0)) if kind != "opening" else 0.0)
    laid_faces = [groups[i] for i in range(len(groups)) if i != final and rng.random() < p_laid]
    # sometimes lay two chắn of one face (an ăn bòn) instead of a chíu
    laid_groups: list[win.Group] = []
    for g in laid_faces:
        if len(g) == 4 and rng.random() < 0.3:
            laid_groups += [win.group_of(g[:2], rules), win.group_of(g[2:], rules)]
        else:
            laid_groups.append(win.group_of(g, rules))
    every = [f for g in groups for f in g]
    hand = list(every)
    if card is not None:
        hand.remove(card)
    sources = WIN_SOURCES if kind == "chiu-u" else ("own-draw", "other-draw")
    dealt = None
    if rng.random() < 0.5:
        dealt = _dealt(b, hand, laid_groups, rng, 20 if kind == "opening" else 19)
    ctx = cuoc.WinContext(kind=kind, card=card,
                          source=rng.choice(sources) if kind != "opening" else "own-draw",
                          thong=rng.random() < 0.2, first_round=rng.random() < 0.2,
                          dealt=dealt)
    verdict = win.engine(rules).judge(hand, laid_groups, card, kind)
    if not verdict.win:
        return None
    return Sample(tuple(hand), tuple(laid_groups), ctx, tuple(sorted(rules.options.items())))


def _dealt(b: _Builder, hand: Sequence[int], laid: Sequence[win.Group],
           rng: random.Random, size: int) -> tuple[int, ...]:
    """A dealt hand consistent with the sample: the concealed cards, the cards of each
    laid group that came from the hand (one of a pair, three of a chíu), topped up with
    random free faces (cards discarded later)."""
    held = list(hand)
    for g in laid:
        for f in g.faces:
            held.remove(f)
    for g in laid:
        held += list(g.faces[:3]) if g.kind == "chiu" else [rng.choice(g.faces)]
    while len(held) < size:
        fresh = [f for f in b.deck if f not in held and b.counts[f] < b.rules.copies]
        if fresh and rng.random() < 0.5:
            f = rng.choice(fresh)
            b.counts[f] += 1
        else:
            g = b.face(1)
            if g is None:
                break
            f = g
        held.append(f)
    return tuple(cards.counts(held))


def judge_sample(rules: Rules, s: Sample) -> cuoc.Judgement:
    """The cước of a sample (under `rules`, which must have the sample's options)."""
    concealed = cards.counts(s.hand)
    for g in s.laid:
        for f in g.faces:
            concealed[f] -= 1
    if s.ctx.card is not None:
        concealed[s.ctx.card] += 1
    verdict = win.engine(rules).judge(s.hand, s.laid, s.ctx.card, s.ctx.kind)
    return cuoc.judge(rules, concealed, s.laid, verdict, s.ctx)


def option_choices(tbl: table.Table) -> list[dict[str, str]]:
    """The option sets searched: the defaults, and each other value of each open or
    provisional row alone."""
    out: list[dict[str, str]] = [{}]
    for row in tbl.rows.values():
        if row.is_option and row.status in ("open", "provisional"):
            out += [{row.id: v} for v in row.values if v != row.default]
    return out


def samples(tbl: table.Table, seed: int, players: int = 4,
            focus: Mapping[str, Any] | None = None) -> Iterable[tuple[Rules, Sample]]:
    """An endless seeded stream of winning samples, each with the rules it was judged under
    (the defaults seven times in ten, else one open row at another value).  The favoured
    faces are those every [[cuoc]] condition names, or only those of `focus` (one entry)."""
    rng = random.Random(seed)
    choices = option_choices(tbl)
    node = focus if focus is not None else tbl.data.get("cuoc", [])
    named = sorted(_faces_named(node))
    winning = sorted(_faces_named(node, "card"))
    cache: dict[tuple[tuple[str, str], ...], Rules] = {}
    while True:
        opts = {} if rng.random() < 0.7 else rng.choice(choices)
        key = tuple(sorted(opts.items()))
        rules = cache.get(key)
        if rules is None:
            rules = cache[key] = tbl.resolve(players, opts)
        s = random_win(rules, rng, named, winning)
        if s is not None:
            yield rules, s


def find_witnesses(tbl: table.Table, seed: int = 0, budget: int = 20000,
                   players: int = 4) -> Mapping[str, Sample]:
    """For each ``[[cuoc]]`` row, the first sample that declares it: within `budget`
    winning samples favouring every face the conditions name, then, for each row still
    without one, `budget` more favouring the faces its own entry names."""
    entries = tbl.data.get("cuoc", [])
    want = {c["rule"] for c in entries}
    found: dict[str, Sample] = {}

    def run(stream: Iterable[tuple[Rules, Sample]], stop: set[str]) -> None:
        for n, (rules, s) in enumerate(stream):
            if n >= budget or stop <= set(found):
                return
            for h in judge_sample(rules, s).declared:
                found.setdefault(h.row, s)

    run(samples(tbl, seed, players), want)
    for c in entries:
        if c["rule"] not in found:
            run(samples(tbl, seed, players, focus=c), {c["rule"]})
    return found
