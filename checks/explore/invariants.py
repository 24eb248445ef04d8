"""Invariants of the reference machine, checked step by step while a game is played.

`Watch` wraps one `State` and applies actions to it, checking after every step:

* **the kind's own** (`State.invariants()`, the ``GameState`` protocol): for Chắn the
  census (each face somewhere exactly ``rules.copies`` times, as ``State.census()``
  counts hands, laid groups, dead cards at the gates, the card in the window and the
  nọc) and the hand sizes (``hand_size ==
  expected_hand_size``, both as the variant row of the table gives for the phase);
* **pending**: only the seats in ``pending()`` have legal actions, and a pending seat has
  at least one unless the state is stuck (which only the ``as-written`` value of the
  stuck-discard option may allow);
* **ù**: in every claim window and at the opening, ``Action("u", s)`` is legal exactly
  when the table's [[claim]] row for the card's source allows ù, ``s`` did not give the
  card, ``s`` has not declined a win earlier in the hand (tracked here from the actions,
  not read from the machine), and the winning-hand engine's full ``judge()`` says win;
  ``chiu-u`` is legal only when all that holds for a chíu-ù, and when it holds but
  chíu-ù is refused, the refusal names a restriction row that bans chíu;
* **priority**: when a claim window resolves, the claim applied is the highest of the
  answers by the table's tiers, ties broken in the table's seat order;
* **identity**: ``child(a)`` equals the state after ``apply(a)``; every few steps and at
  the end, ``to_json`` -> JSON text -> ``from_json`` rebuilds the same fingerprint,
  legal actions and outcome;
* **termination**: the measure (nọc left, concealed cards, phase rank, answers missing)
  decreases strictly at every step, so no hand runs for ever.

A failed check raises `Finding` whose message carries everything needed to replay it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.output import count
from chanspec.model.chan import cards
from chanspec.model.chan import win as win_mod
from chanspec.model.chan.game import Action, State
from chanspec.model.chan.table import Rules

WIN_KINDS = ("u", "chiu-u")
ROUNDTRIP_EVERY = 16


class Finding(AssertionError):
    """A violated invariant (or a property of the rules worth reporting), replayable."""

    def __init__(self, check: str, message: str, st: State, label: str = ""):
        self.check = check
        self.detail = message
        self.label = label
        self.actions = [a.code() for a in st.history]
        self.state_json = st.to_json()
        super().__init__(self.render())

    def render(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.state_json["options"].items()))
        return (
            f"[{self.check}] {self.detail}\n"
            f"  game: {self.label or '(hand-built deal)'}; players={self.state_json['players']}; "
            f"options: {opts}\n"
            f"  replay ({count(len(self.actions), 'action')}): {json.dumps(self.actions)}\n"
            f"  state JSON (for `chanspec explain FILE --seat N`): "
            f"{json.dumps(self.state_json, ensure_ascii=False)}"
        )

    def as_json(self) -> dict[str, Any]:
        return {"check": self.check, "detail": self.detail, "game": self.label,
                "actions": self.actions, "state": self.state_json}


def seat_order(rules: Rules, gate: int) -> list[int]:
    """Seat order for equal claims, read from the table's [claims] section."""
    data = rules.table.data["claims"]
    value = rules.options[data["tie_break_option"]]
    start = gate if value == "owner-first" else gate + 1
    return [(start + i) % rules.players for i in range(rules.players)]


def tier(rules: Rules, kind: str) -> int:
    for i, names in enumerate(rules.priority):
        if kind in names:
            return i
    raise KeyError(kind)


def measure(st: State) -> tuple[int, int, int, int]:
    """A value that every action makes strictly smaller (lexicographically)."""
    if st.is_terminal():
        return (-1, 0, 0, 0)
    if st.phase == "declare":  # after the win, before the hand ends
        return (-1, 1, 0, 0)
    concealed = sum(sum(h) for h in st.hands)
    if st.phase == "window":
        assert st.window is not None
        return (st.noc_left(), concealed, 1 if st.window.second else 2, len(st.pending()))
    return (st.noc_left(), concealed, 3, 1)


# Why a non-terminal state may have no legal action.  Both are properties of the rules
# (reported as findings by `chanspec explore`), not faults of the machine.
STUCK_BANS = "stuck-all-banned"  # every card banned from discard, stuck-discard=as-written
STUCK_EMPTY = "stuck-empty-hand"  # a discard/return is due but no concealed card is left


def stuck_kind(st: State) -> str | None:
    """Which allowed kind of deadlock `st` is in, or None if it is not one of them."""
    if st.phase not in ("opening", "discard", "return") or st.actor is None:
        return None
    if not any(st.hands[st.actor]):
        return STUCK_EMPTY
    if st.rules.options.get(st.rules.rid("turn.stuck_rule")) == "as-written":
        return STUCK_BANS
    return None


def chiu_ban_rules(rules: Rules) -> set[str]:
    return {r.rule for r in rules.restrictions if "chiu" in r.bans}


@dataclass
class Stats:
    """TLC-like counts of a campaign."""

    games: int = 0
    steps: int = 0
    distinct: int = 0
    max_depth: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    windows_resolved: int = 0
    claims_applied: dict[str, int] = field(default_factory=dict)
    stuck: int = 0
    seen: set[int] = field(default_factory=set)

    def note_state(self, st: State) -> None:
        h = hash(st.fingerprint())
        if h not in self.seen:
            self.seen.add(h)
            self.distinct += 1

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "steps": self.steps, "distinct_states": self.distinct,
                "max_depth": self.max_depth, "outcomes": dict(sorted(self.outcomes.items())),
                "windows_resolved": self.windows_resolved,
                "claims_applied": dict(sorted(self.claims_applied.items())),
                "stuck": self.stuck}


class Watch:
    """Plays one hand, checking every invariant at every step."""

    def __init__(self, st: State, label: str = "", *, explain_checks: bool = True,
                 rng: random.Random | None = None, stats: Stats | None = None):
        self.st = st
        self.label = label
        self.rules = st.rules
        self.engine = win_mod.engine(st.rules)
        self.declined: set[int] = set()
        self.explain_checks = explain_checks
        self.rng = rng or random.Random(0)
        self.stats = stats
        self.chiu_bans = chiu_ban_rules(st.rules)
        self.known_rules = set(st.rules.table.rows)
        self.check_state()

    # ------------------------------------------------------------------ helpers
    def fail(self, check: str, message: str) -> Finding:
        return Finding(check, message, self.st, self.label)

    def legal(self) -> list[Action]:
        return self.st.legal_actions()

    # ------------------------------------------------------------------ stepping
    def step(self, action: Action) -> None:
        st = self.st
        before = measure(st)
        legal = st.legal_actions()
        if action not in legal:
            raise self.fail("legal", f"{action.code()} is not legal here")
        if self.explain_checks:
            self.check_explanations(action, legal)
        mine = [a for a in legal if a.seat == action.seat]
        could_win = any(a.kind in WIN_KINDS for a in mine)
        if could_win and action.kind not in WIN_KINDS:
            self.declined.add(action.seat)
        window = st.window if st.phase == "window" else None
        child = st.child(action)
        events_before = len(st.events)
        try:
            st.apply(action)
        except Exception as exc:  # noqa: BLE001 - any crash of a legal action is a finding
            raise self.fail("apply", f"applying legal {action.code()} raised "
                            f"{type(exc).__name__}: {exc}") from exc
        if child.fingerprint() != st.fingerprint():
            raise self.fail("identity", f"child({action.code()}) differs from apply()")
        after = measure(st)
        if not after < before:
            raise self.fail("termination", f"measure did not decrease: {before} -> {after} "
                            f"after {action.code()}")
        if window is not None and st.window is not window:
            self.check_resolution(window, st.events[events_before:])
        if self.stats is not None:
            self.stats.steps += 1
            self.stats.max_depth = max(self.stats.max_depth, len(st.history))
            self.stats.note_state(st)
        self.check_state()
        if st.is_terminal() or len(st.history) % ROUNDTRIP_EVERY == 0:
            self.check_roundtrip()

    # ------------------------------------------------------------------ state checks
    def check_state(self) -> None:
        self.check_kind()
        self.check_pending()
        self.check_wins()
        if self.st.is_terminal():
            out = self.st.outcome()
            if not out or out.get("result") not in ("win", "draw"):
                raise self.fail("outcome", f"terminal state with outcome {out!r}")
            if out["result"] == "draw" and self.st.noc_left() != 0:
                raise self.fail("outcome", "a drawn hand with cards left in the nọc")

    def check_kind(self) -> None:
        """The kind's own invariants (`State.invariants`: for Chắn the census, each face
        exactly ``copies`` times, recounted from the fields, and the hand sizes of the
        variant row)."""
        for check, detail in self.st.invariants():
            raise self.fail(check, detail)

    def check_pending(self) -> None:
        st = self.st
        pend = set(st.pending())
        every = st.legal_actions()
        per: list[Action] = []
        for s in range(st.n):
            mine = st.legal_actions(s)
            if s not in pend and mine:
                raise self.fail("pending", f"seat {s} is not pending but may {mine[0].code()}")
            per += mine
        if sorted(per) != sorted(every):
            raise self.fail("pending", "legal_actions() differs from the union over seats")
        if st.is_terminal():
            if pend or every:
                raise self.fail("pending", "a terminal state still has decisions")
            return
        if not pend:
            raise self.fail("pending", f"phase {st.phase} but nobody is pending")
        empty = [s for s in pend if not st.legal_actions(s)]
        if empty:
            kind = stuck_kind(st)
            if kind is None:
                raise self.fail("pending", f"pending seat(s) {empty} have no legal action")
            if kind == STUCK_BANS:
                self.check_stuck(empty[0])

    def check_stuck(self, seat: int) -> None:
        """Stuck on bans is allowed only when every card in hand is banned from discard."""
        st = self.st
        for f in range(cards.NUM_FACES):
            if st.hands[seat][f]:
                kind = "return" if st.phase == "return" else "discard"
                e = st.explain(Action(kind, seat, f))
                if e.legal or not e.rules:
                    raise self.fail("stuck", f"seat {seat} is stuck but {kind} "
                                    f"{cards.name(f)} is not explained as banned")

    def check_wins(self) -> None:
        st = self.st
        if st.phase == "opening":
            s = st.opener
            want = s not in self.declined and self.engine.judge(
                st.held_faces(s), st.laid[s], None, "opening").win
            if (Action("u", s) in st.legal_actions()) != want:
                raise self.fail("u-legal", f"opening ù of seat {s}: engine says {want}, "
                                "machine disagrees")
            return
        if st.phase != "window":
            for a in st.legal_actions():
                if a.kind in WIN_KINDS:
                    raise self.fail("u-legal", f"{a.code()} legal outside a claim window")
            return
        w = st.window
        assert w is not None
        x = w.card
        legal = set(st.legal_actions())
        pend = set(st.pending())
        src = self.card_source()
        if src != (w.source, w.giver):
            raise self.fail("window", f"window says {w.source} from {w.giver}; the history "
                            f"says {src}")
        claims = self.rules.claims
        for s in range(st.n):
            eligible = s in pend and s != w.giver and s not in self.declined
            held = st.held_faces(s)
            u_want = (eligible and claims[(w.source, "u")].allowed
                      and self.engine.judge(held, st.laid[s], x, "u").win)
            if (Action("u", s) in legal) != u_want:
                raise self.fail("u-legal", f"seat {s} ù on {cards.name(x)} ({w.source}): the "
                                f"table and engine say {u_want}, the machine disagrees")
            conceal = st.hands[s][x]
            cu_want = (eligible and claims[(w.source, "chiu-u")].allowed and conceal >= 3
                       and self.engine.judge(held, st.laid[s], x, "chiu-u").win)
            cu_legal = Action("chiu-u", s) in legal
            if cu_legal and not cu_want:
                raise self.fail("u-legal", f"seat {s} may chíu-ù on {cards.name(x)} but the "
                                "table and engine say no")
            if cu_want and not cu_legal:
                why = set(st.explain(Action("chiu-u", s)).rules)
                if not why or not why <= self.chiu_bans:
                    raise self.fail("u-legal", f"seat {s} chíu-ù on {cards.name(x)} refused by "
                                    f"{sorted(why)}, which is no chíu ban")

    def card_source(self) -> tuple[str, int | None]:
        """Where the window's card came from, read from the event log."""
        for e in reversed(self.st.events):
            t = e.get("type")
            if t == "timeout-as":
                e = e["action"]
                t = e.get("type")
            if t == "draw":
                return ("draw", None)
            if t in ("discard", "return"):
                return (t, int(e["seat"]))
        return ("?", None)

    # ------------------------------------------------------------------ transitions
    def check_resolution(self, w: Any, new_events: Sequence[dict[str, Any]]) -> None:
        """The applied claim is the highest answer (tier, then seat order)."""
        st = self.st
        answers = [a for a in w.responses.values() if a.kind != "pass"]
        applied: tuple[str, int] | None = None
        for e in new_events:
            if e.get("type") == "end" and e.get("result") == "win":
                applied = (str(e["kind"]), int(e["seat"]))
                break
            if e.get("type") == "laid":
                seat = int(e["seat"])
                resp = w.responses.get(seat)
                kind = "chiu" if len(e["group"]) == 4 else (resp.kind if resp else "?")
                applied = (kind, seat)
                break
            if e.get("type") in ("passed-on", "dead", "draw", "end"):
                break
        if applied is None and st.phase == "declare" and st.result is not None:
            # a win under a table with a declaration phase: no end line until xướng
            applied = (str(st.result["kind"]), int(st.result["winner"]))
        if self.stats is not None:
            self.stats.windows_resolved += 1
            k = applied[0] if applied else "none"
            self.stats.claims_applied[k] = self.stats.claims_applied.get(k, 0) + 1
        if not answers:
            if applied is not None:
                raise self.fail("priority", f"{applied} applied although everybody passed")
            return
        order = seat_order(self.rules, w.gate)
        best = min(answers, key=lambda a: (tier(self.rules, a.kind), order.index(a.seat)))
        if applied != (best.kind, best.seat):
            offered = sorted(a.code() for a in w.responses.values())
            raise self.fail("priority", f"answers {offered} on {cards.name(w.card)} at gate "
                            f"{w.gate}: the table's priority picks {best.code()}, the machine "
                            f"applied {applied}")
        for a in answers:
            if tier(self.rules, a.kind) < tier(self.rules, best.kind):
                raise self.fail("priority", f"{best.code()} went through over {a.code()}")
        if best.kind in ("eat", "reclaim"):
            laid = st.laid[best.seat][-1]
            if sorted(laid.faces) != sorted((w.card, best.card)):
                raise self.fail("priority", f"{best.code()} laid {laid.faces}")

    # ------------------------------------------------------------------ identity
    def check_roundtrip(self) -> None:
        st = self.st
        text = json.dumps(st.to_json(), ensure_ascii=False)
        back = State.from_json(json.loads(text))
        if back.fingerprint() != st.fingerprint():
            raise self.fail("roundtrip", "from_json(to_json()) has another fingerprint")
        if back.legal_actions() != st.legal_actions() or back.outcome() != st.outcome():
            raise self.fail("roundtrip", "from_json(to_json()) has other legal actions/outcome")
        if back != st or back.events != st.events:
            raise self.fail("roundtrip", "from_json(to_json()) differs (== or events)")

    def check_explanations(self, chosen: Action, legal: Iterable[Action]) -> None:
        """The chosen action explains as legal; an illegal candidate action of a random seat
        (pending or not) explains as illegal, with rule ids of the table."""
        st = self.st
        e = st.explain(chosen)
        if not e.legal or not e.rules or not set(e.rules) <= self.known_rules:
            raise self.fail("explain", f"legal {chosen.code()} explained as {e}")
        legal_set = set(legal)
        s = self.rng.randrange(st.n)
        cands = [a for a in st.candidate_actions(s) if a not in legal_set]
        if not cands:
            return
        a = self.rng.choice(cands)
        e = st.explain(a)
        if (e.legal or not e.rules or not set(e.rules) <= self.known_rules
                or e.en.startswith("allowed")):
            raise self.fail("explain", f"illegal {a.code()} explained as {e}")


CLAIM_KINDS = ("u", "chiu-u", "chiu", "reclaim", "eat")


def choose(acts: Sequence[Action], rng: random.Random, eager: float = 0.0) -> Action:
    """A random legal action; with probability `eager`, a claim (wins first) if there is one.

    Uniform play rarely wins (most hands end drawn); eager play reaches wins, chíu and
    reclaims far more often, so both are used to cover the machine.  After a win (phase
    declare) an eager player declares correctly; otherwise any declaration listed.
    """
    if eager and rng.random() < eager:
        if acts and acts[0].kind == "declare":
            return acts[0]  # the declaration phase lists the correct declaration first
        for kinds in (("u", "chiu-u"), CLAIM_KINDS):
            claims = [a for a in acts if a.kind in kinds]
            if claims:
                return rng.choice(claims)
    return rng.choice(acts)


def play_random(st: State, rng: random.Random, label: str = "", *,
                stats: Stats | None = None, explain_checks: bool = True,
                eager: float = 0.0, max_steps: int = 5000) -> Watch:
    """Play random legal actions under watch until the hand ends (or is stuck)."""
    w = Watch(st, label, explain_checks=explain_checks, rng=rng, stats=stats)
    for _ in range(max_steps):
        acts = st.legal_actions()
        if st.is_terminal() or not acts:
            break
        w.step(choose(acts, rng, eager))
    else:
        raise w.fail("termination", f"no end after {max_steps} steps")
    if stats is not None:
        stats.games += 1
        if st.is_terminal():
            out = st.outcome() or {}
            key = out.get("result", "?") + (f":{out.get('kind')}" if out.get("kind") else "")
            stats.outcomes[key] = stats.outcomes.get(key, 0) + 1
        else:
            stats.stuck += 1
            key = stuck_kind(st) or "stuck"
            stats.outcomes[key] = stats.outcomes.get(key, 0) + 1
    return w
