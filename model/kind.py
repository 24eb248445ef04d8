"""What every game kind gives the checker: the `Kind` record and the `GameState` and
`Rules` protocols.  No game rule lives here.

A *kind* is a game family with its own state machine (Chắn today; Tấn and Chiha are the
next ones).  A *ruleset* is one table of one kind (``spec/family.toml``,
``spec/classic.toml``), and its ``[ruleset] kind`` names the kind (absent: the default of
`chanspec.model.kinds`).  The registry `chanspec.model.kinds` is the one place that names
kinds; everything generic (the explorer, findings, the conformance kit, the report, the
command line) talks to a position only through `GameState`, so a new kind plugs in without
changing them.

**The simultaneous-node contract.**  When `GameState.pending()` holds several seats, the
position is a *simultaneous node*: every pending seat answers once, the answers are
recorded until all have answered, and only then does the state move on.  The order in
which the answers arrive does not change the result: applying the same answers in any
order reaches states with equal `fingerprint()`.  That is what lets the explorer expand
one pending seat at a time (its partial-order reduction) and what lets a conformance
engine that asks one seat at a time (`GameState.ask_order`) be compared with the reference
machine.  A kind that cannot promise it must present one seat at a time (a single pending
seat), as Tấn does for "others may add attack cards".  `tests/test_kinds.py` checks the
contract for every built-in table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

# the sections every table has, whatever its kind; the kind owns all the others
SHARED_SECTIONS = ("schema", "ruleset", "rule")


class Rules(Protocol):
    """One table resolved for a player count and a value of every option: what the
    generic checks read of it (a kind's own rules hold much more)."""

    table: Any  # the kind's table (chanspec.model.chan.table.Table, tan.table.TanTable…)
    options: Mapping[str, str]

    @property
    def players(self) -> int: ...

    def rid(self, role: str) -> str:
        """The row id the table gives a role (``turn.stuck_rule`` -> ``stuck-discard``)."""
        ...

    def option(self, name: str) -> str:
        """The value in force of option row `name`."""
        ...

    def with_options(self, **changes: str) -> Rules:
        """The same table and players under other option values."""
        ...

    def key(self) -> tuple[Any, ...]:
        """(table id, players, options): equal keys are equal rules."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One position of one hand, as every check may use it; nothing else of a kind's
    state is read outside the kind's own modules."""

    rules: Any
    history: list[Any]  # the actions applied, in order
    events: list[dict[str, Any]]  # consequence lines, in the kind's log vocabulary

    def pending(self) -> tuple[int, ...]:
        """The seats whose decision is awaited, in seat order; several seats make a
        simultaneous node whose answers commute (see the module docstring)."""
        ...

    def legal_actions(self, seat: int | None = None) -> list[Any]:
        """What the pending seats (or only `seat`) may do now; empty once over."""
        ...

    def candidate_actions(self, seat: int) -> list[Any]:
        """Actions of `seat` worth asking about, legal or not (for `explain`)."""
        ...

    def explain(self, action: Any) -> Any:
        """An Explanation: legal or not, the rule ids deciding it, Vietnamese, English."""
        ...

    def apply(self, action: Any, *, check: bool = True) -> None: ...

    def child(self, action: Any) -> GameState:
        """A copy with `action` applied (`self` unchanged)."""
        ...

    def is_chance(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def is_stuck(self) -> bool:
        """Not over, not chance, and nobody may act: a deadlock of the rules."""
        ...

    def outcome(self) -> dict[str, Any] | None: ...

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that decides the future: equal fingerprints, equal futures."""
        ...

    def copy(self) -> GameState: ...

    def under(self, rules: Any) -> GameState:
        """This position read under other option values of the same table."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Ruleset, players, options, deal and actions: enough to rebuild the state."""
        ...

    # what the checks used to read from a kind's own fields
    def view(self) -> dict[str, Any]:
        """The position as plain JSON, in the kind's words (for ITF traces, the vectors'
        positions, narration).  A kind with hidden information may take an optional
        ``seat`` (``view(seat=None)``, as Tấn and Chiha do): then the view holds only what
        that seat may know, and without it only what everyone may know."""
        ...

    def decision_point(self) -> tuple[str, str, str]:
        """What kind of decision is pending, as (key, Vietnamese, English); at a
        deadlock, which deadlock (the explorer's stuck classes)."""
        ...

    def ask_order(self) -> list[tuple[int, list[Any]]]:
        """How an engine that asks one seat at a time settles this node: (seat, what
        it is offered), in order."""
        ...

    def progress(self) -> int:
        """A count that never decreases along play; a cycle of moves at equal progress
        is endless play."""
        ...

    def census(self) -> Sequence[int]:
        """How many copies of each card are anywhere in the position, by card index."""
        ...

    def invariants(self) -> list[tuple[str, str]]:
        """The kind's own invariants that fail here, as (check, detail); empty when
        all hold.  The explorer calls it after every step."""
        ...


_S = TypeVar("_S", bound="PlainState")


class PlainState:
    """The identity part of a `GameState` whose position is plain fields (Tấn's and
    Chiha's machines): a copy, the JSON that rebuilds it, a child and a replay.  A kind
    subclasses it and names its fields; its own rules stay in its own module.

    `KIND_NAME` is the ``[ruleset] kind`` written in `to_json`; `COPY_LISTS` are the
    fields that are flat lists, `COPY_NESTED` those that are lists of lists and
    `COPY_DICTS` the dicts: each is copied one level deeper than the object, the rest
    (ints, strings, tuples, the rules) shared.  A kind whose state keeps a cache of the
    position resets it in its own `copy`."""

    KIND_NAME: ClassVar[str]
    COPY_LISTS: ClassVar[tuple[str, ...]] = ()
    COPY_NESTED: ClassVar[tuple[str, ...]] = ()
    COPY_DICTS: ClassVar[tuple[str, ...]] = ()

    rules: Any
    deal: Any
    n: int
    history: list[Any]
    # each kind defines ``__init__(rules, deal)`` and ``apply(action, *, check=True)``
    apply: Callable[..., None]

    @classmethod
    def replay(cls: type[_S], rules: Any, deal: Any, actions: Iterable[Any]) -> _S:
        """The hand of `deal` under `rules` with `actions` applied (each checked)."""
        st = cls(rules, deal)  # type: ignore[call-arg]
        for a in actions:
            st.apply(a)
        return st

    def to_json(self) -> dict[str, Any]:
        """Kind, ruleset, table file, players, options, deal and actions: enough to
        rebuild the state."""
        return {"kind": self.KIND_NAME, "ruleset": self.rules.table.id,
                "table": self.rules.table.path, "players": self.n,
                "options": dict(sorted(self.rules.options.items())),
                "deal": self.deal.as_json(), "actions": [a.as_json() for a in self.history]}

    def copy(self: _S) -> _S:
        c = type(self).__new__(type(self))
        c.__dict__.update(self.__dict__)
        for k in self.COPY_LISTS:
            setattr(c, k, list(getattr(self, k)))
        for k in self.COPY_NESTED:
            setattr(c, k, [list(x) for x in getattr(self, k)])
        for k in self.COPY_DICTS:
            setattr(c, k, dict(getattr(self, k)))
        return c

    def child(self: _S, action: Any) -> _S:
        """A copy with `action` applied (`self` unchanged)."""
        c = self.copy()
        c.apply(action)
        return c


@dataclass(frozen=True)
class Kind:
    """One game family: what the loader and the checks take from it (in the manner of
    OpenSpiel's GameType and its factory)."""

    name: str  # the value of [ruleset] kind
    title_vi: str
    title_en: str
    sections: tuple[str, ...]  # the table sections the kind owns (besides SHARED_SECTIONS)
    # validate and build a table of this kind from parsed TOML: (data, path, dealt=) -> Table
    from_data: Callable[..., Any]
    load: Callable[[str], Any]  # a built-in ruleset by name or a table file by path -> Table
    # the machine; None for a kind whose machine is not written yet (its tables load,
    # and only the commands in `commands` take them)
    State: type | None  # .new(rules, seed=None, deal=None), .replay(rules, deal, actions), …
    Action: type | None  # .kind, .seat, .code(), .parse(text), .as_json(), .from_json(d)
    Deal: type | None  # .as_json(), .from_json(d)
    deal_random: Callable[..., Any] | None  # (rules, seed) -> Deal
    # the chanspec commands that take this kind's tables; None: every command
    commands: frozenset[str] | None = None
    # a seeded random hand told line by line, (rules, seed) -> [(vi, en)], for a kind
    # whose `chanspec play` is that story (None: the command's own narration, Chắn's)
    story: Callable[..., list[tuple[str, str]]] | None = None
    # the game's name in Vietnamese and English, as a place in its text is cited
    # (``Bài Chắn §3, bullet 2``, ``Tấn ¶9 s2``; `chanspec.model.source.cite_section`);
    # empty: the kind's title
    game_vi: str = ""
    game_en: str = ""
    # the kind's own game-log lines (a module with header, record, random_log,
    # read_header, read_line, read_state, first_lines, step, say, say_end, LineProblem
    # and LOG, its `chanspec.model.gamelog.LogFormat`, as `chanspec.model.tan.log`);
    # None: the default format (Chắn's, `chanspec.checks.conform.logs`)
    log: Any = None
    # the kind's meld engine, (rules) -> engine with evaluate, player_lenh, discard_bans
    # and meld_of, as `chanspec.model.chiha.melds.engine`, for `chanspec melds`; None:
    # the kind has no melds
    melds: Callable[..., Any] | None = None
    # the small games `chanspec check` searches exhaustively through the protocol alone,
    # (table) -> [Scale] (`chanspec.model.tan.scales`: .name, .players, .vi, .en, .keeps,
    # .drops, .deal_count, .quick_deals, .rules(options), .deals(rules, n),
    # .deal_seeds(n), .start(rules, deal), .describe()); None: the kind's check is its own
    # (Chắn's, `chanspec.checks.chan.scale`)
    scales: Callable[[Any], Sequence[Any]] | None = None
    # how the kind says things: a module with say_action(state, action) -> (vi, en), the
    # line of an action told in the position it is played from, and say_event(event) ->
    # (vi, en) | None; None: the kind has no such module yet
    words: Any = None

    def game(self, lang: str = "en") -> str:
        """The game's name in `lang` (``"vi"`` or ``"en"``), e.g. ``Tấn``."""
        if lang == "vi":
            return self.game_vi or self.title_vi
        return self.game_en or self.title_en

    @property
    def has_machine(self) -> bool:
        """Does this kind have a machine that plays its tables?"""
        return self.State is not None

    def supports(self, command: str) -> bool:
        """May `chanspec COMMAND --ruleset T` run on a table of this kind?"""
        return self.commands is None or command in self.commands
