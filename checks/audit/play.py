"""Seeded hands on the real machine and on a mutated one, compared step by step.

A *world* is a fresh copy of the audited modules (`mutants.AUDITED`) and of every
chanspec module that imports them, with at most one module's source replaced by a
mutant's (`build_world`).  It is installed in ``sys.modules`` (a worker process builds
one world per mutant), so imports inside functions see it too.

The real machine plays each hand once (`baseline`): a fixed seeded player chooses (the
greedy player of `chanspec.checks.findings.witness`), and what each step shows is
recorded (`observe`: the legal actions of every pending seat, the faults, the outcome;
at the end of a hand the payment and, for a session, what carries over), with the
lines of the audited modules each configuration ran.  A mutant then replays the same
actions (`replay`) and is compared with the record at every step; the first difference
is its divergence.  Hands whose configuration never ran the mutated lines are not
played: they cannot differ.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import random
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.audit import mutants as mut
from chanspec.checks.audit.imports import imports_of, installed_folders, module_files
from chanspec.model.chan import cards

MAX_STEPS = 3000  # a hand of either table ends long before (nọc cards bound it)
SESSION = 4  # classic: hands per session (what carries over is compared too)


# ------------------------------------------------------------------ worlds


def rebuilt_modules() -> set[str]:
    """The audited modules and every chanspec module that imports one, directly or not:
    what a world holds its own copy of."""
    names = module_files(installed_folders())
    known = set(names)
    users: dict[str, set[str]] = {m: set() for m in known}
    for m, p in names.items():
        for t in imports_of(p, m, known):
            users[t].add(m)
    todo = [mut.module_name(s) for s in mut.AUDITED]
    out: set[str] = set()
    harness = ("chanspec.checks.audit", "chanspec.checks.cli")  # never part of a world
    while todo:
        m = todo.pop()
        if m in out or m.startswith(harness):
            continue
        out.add(m)
        todo.extend(users.get(m, ()))
    return out


class _Replace(importlib.abc.MetaPathFinder, importlib.abc.SourceLoader):
    """Imports some modules from given source texts instead of their files (the import
    system compiles them, as it compiles any file)."""

    def __init__(self, sources: dict[str, tuple[str, str]]):
        self.sources = sources  # module name -> (source text, the file it stands for)
        self.by_path = {origin: text for text, origin in sources.values()}

    def find_spec(self, fullname: str, path: Any, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.sources:
            return None
        return importlib.util.spec_from_loader(fullname, self,
                                               origin=self.sources[fullname][1])

    def get_filename(self, fullname: str) -> str:
        return self.sources[fullname][1]

    def get_data(self, path: str) -> bytes:
        return self.by_path[str(path)].encode("utf-8")


@dataclass
class World:
    """The modules one machine is made of."""

    game: Any
    session: Any
    pay: Any
    invariants: Any


_REBUILT: list[str] = []


@contextlib.contextmanager
def saved_modules() -> Iterator[None]:
    """Put back, on leaving, the modules a world replaces in ``sys.modules``: the process
    goes on with the machine it had (a world built inside stays usable, its own imports
    inside functions then find these)."""
    if not _REBUILT:
        _REBUILT.extend(sorted(rebuilt_modules()))
    kept = {m: sys.modules.get(m) for m in _REBUILT}
    # a package's attribute for its submodule too: `from pkg import mod` reads it first
    missing = object()
    attrs = []
    for m in _REBUILT:
        parent, _, child = m.rpartition(".")
        pkg = sys.modules.get(parent)
        if pkg is not None:
            attrs.append((pkg, child, getattr(pkg, child, missing)))
    try:
        yield
    finally:
        for m, mod in kept.items():
            if mod is None:
                sys.modules.pop(m, None)
            else:
                sys.modules[m] = mod
        for pkg, child, value in attrs:
            if value is missing:
                if hasattr(pkg, child):
                    delattr(pkg, child)
            else:
                setattr(pkg, child, value)


def build_world(mutant: mut.Mutant | None = None) -> World:
    """A fresh world (the mutant's, or the real machine's when None), installed in
    ``sys.modules``."""
    if not _REBUILT:
        _REBUILT.extend(sorted(rebuilt_modules()))
    # names and code first: looking a name up imports its package
    names = {s: mut.module_name(s) for s in mut.AUDITED}
    sources: dict[str, tuple[str, str]] = {}
    for short, path in mut.OVERRIDE.items():
        sources[names[short]] = (path.read_text(encoding="utf-8"), str(path))
    if mutant is not None:
        path = mut.module_path(mutant.module)
        text = mut.mutated_source(path.read_text(encoding="utf-8"), mutant.site)
        sources[names[mutant.module]] = (text, str(path))
    finder = _Replace(sources) if sources else None
    for m in _REBUILT:
        sys.modules.pop(m, None)
    if finder is not None:
        sys.meta_path.insert(0, finder)
    try:
        game = importlib.import_module(names["game"])
        session = importlib.import_module(names["session"])
        pay = importlib.import_module(names["pay"])
        for s in mut.AUDITED:
            importlib.import_module(names[s])
        invariants = importlib.import_module("chanspec.checks.explore.invariants")
    finally:
        if finder is not None:
            sys.meta_path.remove(finder)
    return World(game, session, pay, invariants)


# ------------------------------------------------------------------ hands


@dataclass(frozen=True)
class Config:
    """One table at one player count."""

    ruleset: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.ruleset}/{self.players}p"


def hand_seed(seed: int, cfg: Config, i: int) -> int:
    """The seed of hand `i` of `cfg` in the audit of `seed` (stable across runs)."""
    h = hashlib.sha256(f"audit:{seed}:{cfg.ruleset}:{cfg.players}:{i}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 2


@dataclass
class Hand:
    """What one hand of the real machine showed, step by step."""

    cfg: Config
    index: int
    seed: int
    deal: str  # the deal as JSON
    obs: list[tuple[Any, ...]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    end: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Divergence:
    """The first difference between the real machine (`a`) and the mutant (`b`)."""

    config: str
    hand: int
    step: int  # -1: the deal itself; len(actions): the end of the hand
    what: str  # deal, legal, faults, outcome, end, crash, endless
    a: Any
    b: Any
    path: tuple[str, ...]  # the actions before it

    def as_json(self) -> dict[str, Any]:
        return {"config": self.config, "hand": self.hand, "step": self.step,
                "what": self.what, "a": self.a, "b": self.b}


def _json(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False, default=str)


def code(a: Any) -> str:
    """An action as text, written here and not by the machine's `Action.code`, so that a
    mutant of that method changes no text (``2:eat 3n``, ``0:declare a,b``)."""
    if a.kind == "declare":
        return f"{a.seat}:declare {','.join(a.cuoc)}".rstrip()
    c = "" if a.card is None else f" {cards.code(a.card)}"
    return f"{a.seat}:{a.kind}{c}"


def action(world: World, text: str) -> Any:
    """The world's `Action` for `text` (the inverse of `code`)."""
    seat, _, rest = text.partition(":")
    kind, _, card = rest.strip().partition(" ")
    if kind == "declare":
        return world.game.Action(kind=kind, seat=int(seat), card=None,
                                 cuoc=tuple(r for r in card.split(",") if r))
    return world.game.Action(kind=kind, seat=int(seat),
                             card=cards.parse(card) if card.strip() else None, cuoc=())


def observe(st: Any) -> tuple[Any, ...]:
    """What a step shows: the pending seats' legal actions, the faults, the outcome."""
    legal = tuple(sorted(code(a) for a in st.legal_actions()))
    out = _json(st.outcome()) if st.is_terminal() else None
    return (legal, repr(st.faults), out)


def end_of(world: World, rules: Any, st: Any, session: bool) -> tuple[tuple[Any, ...], Any]:
    """What the end of a hand shows (stuck or not, the payment, what carries over) and
    the carry itself (None when the session stops)."""
    if not st.is_terminal():
        return ("stuck",), None
    paid = _json(world.pay.settle(rules, st).as_json()) if world.pay.has_payment(rules) \
        else None
    if not session:
        return ("over", paid), None
    try:
        c = world.session.carry(rules, st, world.pay.settle(rules, st))
    except world.session.SessionError as exc:
        return ("over", paid, f"stop: {exc}"), None
    return ("over", paid, _json(c.as_json())), c


def rules_of(cfg: Config) -> Any:
    from chanspec.model import kinds
    return kinds.rules(cfg.ruleset, cfg.players)


STOPPED = "(the session stopped before this hand)"


def play(world: World, cfg: Config, seed: int, n: int, *,
         choose: Callable[[Any, random.Random], Any] | None = None,
         base: list[Hand] | None = None, first: int = 0,
         lines: list[set[tuple[str, int]]] | None = None, files: set[str] = frozenset()
         ) -> list[Hand] | Divergence | None:
    """Play hands `first`..`n-1` of `cfg` on `world`: recording them (`choose` picks the
    actions; with `lines`, the audited lines each hand runs are appended to it) or
    replaying `base` and returning the first divergence (None if none)."""
    rules = rules_of(cfg)
    sessions = world.session.plays_sessions(rules) and world.pay.has_payment(rules)
    out: list[Hand] = []
    box: list[Any] = [None]  # what carries over to the next hand of a session
    i = first - first % SESSION if sessions else first  # a session is replayed whole
    while i < n:
        ref = None if base is None else base[i]
        if lines is None:
            got = _hand(world, rules, cfg, seed, i, sessions, box, choose, ref)
        else:
            with LineTrace(set(files)) as tr:
                got = _hand(world, rules, cfg, seed, i, sessions, box, choose, ref)
            lines.append(tr.lines)
        if isinstance(got, Divergence):
            return got
        out.append(got)
        i += 1
    return out if base is None else None


def _hand(world: World, rules: Any, cfg: Config, seed: int, i: int, sessions: bool,
          box: list[Any], choose: Callable[[Any, random.Random], Any] | None,
          ref: Hand | None) -> Hand | Divergence:
    """Hand `i`, recorded (`ref` None) or compared with `ref`."""
    s = hand_seed(seed, cfg, i)
    replaying = ref is not None
    try:
        if sessions:
            if i % SESSION == 0:
                box[0] = world.session.first(rules)
            if box[0] is None:  # the session stopped: the rest of it is not played
                if ref is not None and ref.deal != STOPPED:
                    return Divergence(cfg.label, i, -1, "end", ref.deal, STOPPED, ())
                return Hand(cfg, i, s, STOPPED)
            deal = world.session.deal(rules, s, box[0])
        else:
            deal = world.game.deal_random(rules, s)
        dj = _json(deal.as_json())
    except Exception as exc:  # noqa: BLE001 - a mutant may crash anywhere
        if not replaying:
            raise
        return Divergence(cfg.label, i, -1, "crash", None, _crash(exc), ())
    if ref is not None and ref.deal != dj:
        return Divergence(cfg.label, i, -1, "deal", ref.deal, dj, ())
    rng = random.Random(s)
    rec = Hand(cfg, i, s, dj)
    step = 0
    try:
        st = world.game.State(rules, deal)
        while True:
            ob = observe(st)
            if ref is not None:
                if step >= len(ref.obs):
                    return Divergence(cfg.label, i, step, "endless", None, ob[0],
                                      tuple(ref.actions))
                if ob != ref.obs[step]:
                    what = ("legal", "faults", "outcome")[
                        next(k for k in range(3) if ob[k] != ref.obs[step][k])]
                    return Divergence(cfg.label, i, step, what, ref.obs[step], ob,
                                      tuple(ref.actions[:step]))
            else:
                rec.obs.append(ob)
            if st.is_terminal() or not ob[0] or step >= MAX_STEPS:
                break
            if ref is not None:
                if step >= len(ref.actions):
                    return Divergence(cfg.label, i, step, "endless", None, ob[0],
                                      tuple(ref.actions))
                a = action(world, ref.actions[step])
            else:
                assert choose is not None
                a = choose(st, rng)
                rec.actions.append(code(a))
            st.apply(a, check=False)
            step += 1
        end, box[0] = end_of(world, rules, st, sessions)
    except Exception as exc:  # noqa: BLE001
        if not replaying:
            raise
        assert ref is not None
        return Divergence(cfg.label, i, step, "crash", None, _crash(exc),
                          tuple(ref.actions[:step]))
    if ref is not None and end != ref.end:
        return Divergence(cfg.label, i, step, "end", ref.end, end, tuple(ref.actions))
    rec.end = end
    return rec


def _crash(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:200]}"


# ------------------------------------------------------------------ coverage


class LineTrace:
    """The lines of the given files that run while it is active (sys.settrace)."""

    def __init__(self, files: set[str]):
        self.files = files
        self.lines: set[tuple[str, int]] = set()

    def _local(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines.add((frame.f_code.co_filename, frame.f_lineno))
        return self._local

    def _global(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename in self.files:
            self.lines.add((frame.f_code.co_filename, frame.f_lineno))
            return self._local
        return None

    def __enter__(self) -> LineTrace:
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.settrace(None)


def audited_files() -> dict[str, str]:
    """Short module name → its source file, for every audited module."""
    return {s: str(mut.module_path(s)) for s in mut.AUDITED}
