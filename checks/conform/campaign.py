"""Differential testing: play hands on the reference machine and an external engine in
lockstep, compare them at every step, and shrink any mismatch to a minimal scenario.

A *scenario* is a deal plus the actions played, all chosen by Hypothesis from its choice
sequence: the deal is built card by card (seats are dealt mostly chắn, a mix, or random
cards, so that wins, chíu and bans come up often), and each action is an index into the
reference's legal actions at that point.  Because every choice goes through Hypothesis,
`hypothesis.find` can shrink a failing scenario: fewer steps, simpler deals, earlier
choices.

At each step the legal actions of *every* seat (pending or not) are compared as sets;
after the last step both engines' outcomes are compared (result, winner, kind, card).
The first difference is a `Mismatch`.  Engine failures (timeout, crash, garbage, protocol
errors) stop the campaign at once and are reported with the last exchanges.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.conform import logs, replay
from chanspec.checks.conform.driver import Engine, EngineError
from chanspec.checks.conform.refengine import outcome_json
from chanspec.checks.output import count
from chanspec.model import cards
from chanspec.model import table as table_mod
from chanspec.model.game import Action, Deal, State
from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

DEFAULT_MAX_STEPS = 400
DEFAULT_SHRINK_BUDGET = 300  # hands replayed while shrinking, after the first failure


@dataclass(frozen=True)
class Scenario:
    rules: table_mod.Rules
    deal: Deal
    actions: tuple[Action, ...]

    def describe(self) -> str:
        return (f"{self.rules.players} players, options "
                f"{dict(sorted(self.rules.options.items()))}, {count(len(self.actions), 'action')}")


# --------------------------------------------------------------------------- strategies


def build_deal(rules: table_mod.Rules, choose: Callable[[int], int],
               coin: Callable[[], bool]) -> Deal:
    """A deal built card by card from choices: `choose(k)` picks 0..k-1, `coin()` a bool.

    Each seat is dealt in one of three styles: all chắn (one card short of a complete
    hand, the odd card often one of the faces the table singles out: those that may
    never complete ù and the Nhất/yêu group), a quarter chắn and the rest random, or
    random cards.  The nọc is drawn card by card, each card either any card left or,
    often, one that some hand holds an odd number of times (so wins and chíu come up).
    With choices from Hypothesis (`deals`) the deal shrinks toward simple hands; with
    choices from a seeded random generator it is reproducible from the seed.
    """
    v = rules.variant
    faces = list(rules.faces)
    special = sorted(rules.never_complete | rules.odd_group)
    pool = {f: rules.copies for f in faces}

    def take(candidates: list[int]) -> int:
        f = candidates[choose(len(candidates))]
        pool[f] -= 1
        return f

    opener = choose(v.players)
    hands: list[tuple[int, ...]] = []
    for seat in range(v.players):
        k = v.opener_cards if seat == opener else v.other_cards
        style = choose(3)
        hand: list[int] = []
        pairs = {0: k // 2, 1: k // 4, 2: 0}[style]
        for _ in range(pairs):
            avail = [f for f in faces if pool[f] >= 2]
            if not avail:
                break
            f = take(avail)
            pool[f] -= 1
            hand += [f, f]
        while len(hand) < k:
            odd = [f for f in special if pool[f] >= 1]
            if style == 0 and odd and coin():
                hand.append(take(odd))
            else:
                hand.append(take([f for f in faces if pool[f] >= 1]))
        hands.append(tuple(sorted(hand)))
    singles = sorted({f for h in hands for f in set(h) if h.count(f) % 2 == 1})
    noc: list[int] = []
    while any(pool.values()):
        useful = [f for f in singles if pool[f] >= 1]
        if useful and coin():
            noc.append(take(useful))
        else:
            noc.append(take([f for f in faces if pool[f] >= 1]))
    return Deal(tuple(hands), tuple(noc), opener)


@st.composite
def deals(draw: Any, rules: table_mod.Rules) -> Deal:
    """`build_deal` driven by Hypothesis (shrinks toward simple hands)."""
    return build_deal(rules, lambda k: draw(st.integers(0, k - 1)), lambda: draw(st.booleans()))


def option_choices(table: table_mod.Table, fixed: Mapping[str, str],
                   vary: bool) -> list[tuple[str, tuple[str, ...]]]:
    """For each option row: its fixed value, or (with `vary`) every value, default first."""
    out = []
    for name, values in table.option_space():
        default = table.defaults()[name]
        if name in fixed:
            out.append((name, (fixed[name],)))
        elif vary:
            out.append((name, (default, *[v for v in values if v != default])))
        else:
            out.append((name, (default,)))
    return out


# --------------------------------------------------------------------------- lockstep


@dataclass
class SeatDiff:
    seat: int
    extra: list[Action]  # the engine allows them, the rules do not
    missing: list[Action]  # the rules allow them, the engine does not

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "extra": [a.as_json() for a in self.extra],
                "missing": [a.as_json() for a in self.missing]}


@dataclass
class Mismatch:
    step: int  # actions applied before the comparison that failed
    kind: str  # legal | refused | outcome
    seats: list[SeatDiff] = field(default_factory=list)
    refused: Action | None = None
    refused_error: str = ""
    reference_outcome: dict[str, Any] | None = None
    engine_outcome: dict[str, Any] | None = None
    resolution: list[str] = field(default_factory=list)  # rows that decided the last claim

    def as_json(self) -> dict[str, Any]:
        return {
            "step": self.step, "kind": self.kind, "seats": [d.as_json() for d in self.seats],
            "refused": None if self.refused is None else self.refused.as_json(),
            "refused_error": self.refused_error,
            "reference_outcome": self.reference_outcome, "engine_outcome": self.engine_outcome,
            "resolution": self.resolution,
        }


def _parse_actions(engine: Engine, resp: dict[str, Any], seat: int, n: int) -> set[Action]:
    acts = resp.get("actions")
    if not isinstance(acts, list):
        raise engine.fail("protocol", f"'legal' for seat {seat} must answer with a list "
                           f"'actions'; got {str(resp)[:200]}")
    out = set()
    for i, a in enumerate(acts):
        if not isinstance(a, dict) or a.get("type") not in logs.ACTION_TYPES:
            raise engine.fail("protocol", f"'legal' for seat {seat}: actions[{i}] is not an "
                               f"action object with a known type: {a!r}")
        try:
            out.add(logs.LineCheck("<legal>", 1, a, n).action_fields(a, f"actions[{i}]."))
        except logs.LogError as exc:
            raise engine.fail("protocol", f"'legal' for seat {seat}: {exc.field}: "
                               f"{exc.message}") from None
    return out


class _StopShrinking(KeyboardInterrupt):
    """Raised to leave `hypothesis.find` at once when the shrinking budget is spent.

    Hypothesis lets KeyboardInterrupt through untouched (any other exception would be
    taken as a failure of the scenario), and `campaign` catches exactly this subclass.
    """


class Runner:
    """Plays hands for Hypothesis: reference and engine in lockstep, choices drawn lazily.

    Known failures are cached by (rules, deal, actions so far), so that Hypothesis'
    replays of a failing scenario fail again the same way without asking the engine.
    Once the engine has failed, or `shrink_budget` hands have been played after the
    first failure, the next hand stops the search (`_StopShrinking`).  The failure
    reported is the one with the fewest steps seen (`best`).
    """

    def __init__(self, engine: Engine, shrink_budget: int, max_steps: int):
        self.engine = engine
        self.shrink_budget = shrink_budget
        self.max_steps = max_steps
        self.failing: dict[tuple[Any, ...], Played] = {}
        self.first_failure: Played | None = None
        self.best: Played | None = None  # the failure reported
        self.error: EngineError | None = None
        self.searched = 0  # hands played up to the first failure
        self.steps = 0  # steps compared up to the first failure
        self.evaluations = 0
        self.shrinks = 0

    def play(self, draw: Any, rules: table_mod.Rules, deal: Deal) -> Played:
        if self.error is not None or (self.failing and self.shrinks >= self.shrink_budget):
            raise _StopShrinking
        self.evaluations += 1
        if self.failing:
            self.shrinks += 1
        base = (rules.key(), deal)
        ref = State(rules, deal)
        actions: list[Action] = []
        prev: tuple[State, Action] | None = None
        started = False
        try:
            while True:
                known = self.failing.get((*base, tuple(actions)))
                if known is not None:
                    self._better(known)
                    return known
                if not started:
                    self._start(rules, deal)
                    started = True
                mismatch = self._compare_legal(ref, len(actions), prev)
                if mismatch is not None:
                    return self._fail(Played(rules, deal, tuple(actions), mismatch))
                acts = ref.legal_actions()
                if not acts or len(actions) >= self.max_steps:
                    break
                a = acts[draw(st.integers(0, len(acts) - 1))]
                resp = self.engine.send({"op": "apply", "action": a.as_json()})
                if not resp["ok"]:
                    m = Mismatch(len(actions), "refused", refused=a,
                                 refused_error=str(resp.get("error", "")))
                    return self._fail(Played(rules, deal, tuple(actions), m))
                before = ref.copy() if ref.phase == "window" else None
                ref.apply(a)
                actions.append(a)
                prev = (before, a) if before is not None else None
            m = self._compare_outcome(ref)
            if m is not None:
                return self._fail(Played(rules, deal, tuple(actions), m))
        except EngineError as exc:
            self.error = exc
            return self._fail(Played(rules, deal, tuple(actions), None, exc))
        if not self.failing:
            self.searched += 1
            self.steps += len(actions)
        return Played(rules, deal, tuple(actions))

    def _fail(self, p: Played) -> Played:
        if not self.failing:
            self.searched += 1
            self.steps += len(p.actions)
            self.first_failure = p
        self.failing[(p.rules.key(), p.deal, p.actions)] = p
        self._better(p)
        return p

    def _better(self, p: Played) -> None:
        """Keep the failure with the fewest steps; on a tie the later one, which
        Hypothesis' shrinker only tries when it is smaller in its own order."""
        if self.best is None or len(p.actions) <= len(self.best.actions):
            self.best = p

    def _start(self, rules: table_mod.Rules, deal: Deal) -> None:
        self.engine.call({"op": "start", "ruleset": rules.table.id, "players": rules.players,
                          "options": dict(sorted(rules.options.items())),
                          "deal": deal.as_json()})

    def _compare_legal(self, ref: State, step: int,
                       prev: tuple[State, Action] | None) -> Mismatch | None:
        n = ref.n
        resps = self.engine.pipeline([{"op": "legal", "seat": s} for s in range(n)])
        diffs = []
        for s, resp in enumerate(resps):
            if not resp["ok"]:
                raise self.engine.fail("protocol", f"'legal' for seat {s} failed: "
                                       f"{resp.get('error', '(no error message)')}")
            theirs = _parse_actions(self.engine, resp, s, n)
            mine = set(ref.legal_actions(s))
            if theirs != mine:
                diffs.append(SeatDiff(s, sorted(theirs - mine), sorted(mine - theirs)))
        if not diffs:
            return None
        res = replay.claim_resolution(prev[0], prev[1], ref) if prev else []
        return Mismatch(step, "legal", diffs, resolution=res)

    def _compare_outcome(self, ref: State) -> Mismatch | None:
        resp = self.engine.call({"op": "outcome"})
        theirs: dict[str, Any] = {"terminal": resp.get("terminal")}
        if resp.get("terminal"):
            o = resp.get("outcome")
            if not isinstance(o, dict):
                raise self.engine.fail("protocol", "'outcome' with terminal true needs an "
                                       "'outcome' object")
            theirs["outcome"] = {k: o.get(k) for k in ("result", "winner", "kind", "card")}
        mine = outcome_json(ref)
        if theirs != mine:
            return Mismatch(len(ref.history), "outcome", reference_outcome=mine,
                            engine_outcome=theirs)
        return None


@dataclass(frozen=True)
class Played:
    """A hand as played: the scenario, and how it failed (if it did)."""

    rules: table_mod.Rules
    deal: Deal
    actions: tuple[Action, ...]
    mismatch: Mismatch | None = None
    error: EngineError | None = None

    @property
    def failed(self) -> bool:
        return self.mismatch is not None or self.error is not None


@st.composite
def played_hands(draw: Any, runner: Runner, table: table_mod.Table, players: Sequence[int],
                 options: Sequence[tuple[str, Sequence[str]]]) -> Played:
    """Players, options (first value first), a deal, then the hand in lockstep."""
    n = draw(st.sampled_from(list(players)))
    opts = {name: draw(st.sampled_from(list(values))) for name, values in options}
    rules = table.resolve(n, opts)
    deal = draw(deals(rules))
    return runner.play(draw, rules, deal)


@dataclass
class CampaignResult:
    status: str  # conforming | mismatch | engine-error
    command: str
    seed: int
    hands: int = 0  # hands compared before the first failure (or in all)
    steps: int = 0
    evaluations: int = 0  # hands played in all, shrinking included
    seconds: float = 0.0
    first_steps: int | None = None  # steps of the first failing hand, before shrinking
    scenario: Scenario | None = None
    mismatch: Mismatch | None = None
    error: EngineError | None = None
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 0 if self.status == "conforming" else 1

    def as_json(self) -> dict[str, Any]:
        sc = self.scenario
        return {
            "result": self.status, "command": self.command, "seed": self.seed,
            "hands": self.hands, "steps": self.steps, "evaluations": self.evaluations,
            "seconds": round(self.seconds, 3), "first_failure_steps": self.first_steps,
            "scenario": None if sc is None else {
                "players": sc.rules.players, "options": dict(sorted(sc.rules.options.items())),
                "deal": sc.deal.as_json(), "actions": [a.as_json() for a in sc.actions]},
            "mismatch": None if self.mismatch is None else self.mismatch.as_json(),
            "engine_error": None if self.error is None else self.error.as_json(),
        }


def campaign(command: str | Sequence[str], *, hands: int = 100, seed: int | None = None,
             timeout: float = 5.0, players: Sequence[int] = (4, 5),
             options: Mapping[str, str] | None = None, vary_options: bool = False,
             ruleset: str = "family", max_steps: int = DEFAULT_MAX_STEPS,
             shrink_budget: int = DEFAULT_SHRINK_BUDGET) -> CampaignResult:
    """Compare up to `hands` generated hands; shrink the first failure to a minimal one."""
    table = table_mod.load(ruleset)
    fixed = dict(options or {})
    table.check_options(fixed)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    cmd_text = command if isinstance(command, str) else " ".join(command)
    result = CampaignResult("conforming", cmd_text, seed)
    t0 = time.monotonic()
    engine = Engine(command, timeout)
    try:
        engine.start()
    except EngineError as exc:
        result.status, result.error = "engine-error", exc
        return result
    runner = Runner(engine, shrink_budget, max_steps)
    strategy = played_hands(runner, table, players, option_choices(table, fixed, vary_options))
    cfg = settings(max_examples=hands, database=None, deadline=None, derandomize=False,
                   suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                   verbosity=Verbosity.quiet)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                found: Played | None = find(strategy, lambda p: p.failed, settings=cfg,
                                            random=random.Random(seed))
            except NoSuchExample:
                found = None
            except _StopShrinking:
                found = runner.best
            if found is not None and runner.best is not None and \
                    len(runner.best.actions) < len(found.actions):
                found = runner.best
    finally:
        engine.close()
        result.seconds = time.monotonic() - t0
    result.hands, result.steps, result.evaluations = runner.searched, runner.steps, \
        runner.evaluations
    if runner.first_failure is not None:
        result.first_steps = len(runner.first_failure.actions)
    if found is not None:
        result.scenario = Scenario(found.rules, found.deal, found.actions)
        result.mismatch, result.error = found.mismatch, found.error
        result.status = "engine-error" if found.error is not None else "mismatch"
        result.log = failure_log(result)
    return result


def failure_log(result: CampaignResult) -> list[dict[str, Any]]:
    """The minimal scenario as a game log, ending with what the engine did differently.

    Reference lines up to the mismatch; then the engine's disputed action (one it allows
    that the rules forbid, else one the rules allow that it refused), or its disagreeing
    ``end`` line.  ``chanspec replay`` accepts it; the header's ``x-conform`` field sums
    the mismatch up.
    """
    sc = result.scenario
    assert sc is not None
    m = result.mismatch
    upto = len(sc.actions) if m is None else m.step
    summary: dict[str, Any] = {"engine": result.command, "seed": result.seed,
                               "status": result.status}
    if m is not None:
        summary["mismatch"] = m.as_json()
    if result.error is not None:
        summary["engine_error"] = {"kind": result.error.kind, "message": result.error.message}
    lines = logs.record(sc.rules, sc.deal, sc.actions[:upto], extra={"x-conform": summary})
    if m is None:
        return lines
    if m.kind == "legal":
        d = next((d for d in m.seats if d.extra), m.seats[0])
        pool = d.extra or d.missing
        # a claim or a discard says more than a pass or a timeout
        disputed = min(pool, key=lambda a: (a.kind in ("pass", "timeout"), a))
        lines.append({**disputed.as_json(),
                      "x-conform": "engine allows, rules forbid" if d.extra else
                      "rules allow, engine does not offer it"})
    elif m.kind == "refused" and m.refused is not None:
        lines.append({**m.refused.as_json(), "x-conform": "rules allow, engine refused it"})
    elif m.kind == "outcome":
        eo = (m.engine_outcome or {}).get("outcome")
        if isinstance(eo, dict):
            lines = [ln for ln in lines if ln.get("type") != "end"]
            end: dict[str, Any] = {"type": "end", "result": eo.get("result")}
            if eo.get("result") == "win":
                end.update(seat=eo.get("winner"), kind=eo.get("kind"), card=eo.get("card"))
            end["x-conform"] = "the engine's outcome"
            lines.append(end)
    return lines


# --------------------------------------------------------------------------- report


def _acts(actions: Sequence[Action]) -> str:
    return ", ".join(logs.codes_of(actions)) or "—"


def render(result: CampaignResult, lang: str, say: Any) -> str:
    """Human report: the seed, the verdict, and the minimal scenario step by step."""
    out = [say(lang, f"Hạt giống: {result.seed} (chạy lại với --seed {result.seed})",
               f"Seed: {result.seed} (rerun with --seed {result.seed})")]
    if result.status == "conforming":
        out.append(say(lang, f"Phù hợp: {result.hands} ván, {result.steps} bước, không lệch "
                       f"({result.seconds:.1f} giây).",
                       f"Conforming: {count(result.hands, 'hand')}, {count(result.steps, 'step')}, "
                       "no mismatch "
                       f"({result.seconds:.1f} s)."))
        return "\n".join(out)
    if result.error is not None:
        e = result.error
        kinds = {"timeout": ("không trả lời kịp", "did not answer in time"),
                 "crash": ("đã thoát hoặc bị lỗi", "exited or crashed"),
                 "garbage": ("trả lời không phải JSON", "answered with something not JSON"),
                 "protocol": ("sai giao thức", "broke the protocol"),
                 "start": ("không chạy được", "could not be started")}
        vi, en = kinds.get(e.kind, (e.kind, e.kind))
        out.append(say(lang, f"Engine {vi}: {e.message}", f"The engine {en}: {e.message}"))
        if e.returncode is not None:
            out.append(say(lang, f"Mã thoát của engine: {e.returncode}",
                           f"Engine exit code: {e.returncode}", "  "))
        if e.exchanges:
            out.append(say(lang, "Các trao đổi cuối:", "Last exchanges:", "  "))
            for sent, got in e.exchanges[-4:]:
                out.append(f"    >> {sent[:300]}")
                out.append(f"    << {got[:300]}")
        if e.stderr:
            out.append(say(lang, "stderr của engine (cuối):", "Engine stderr (tail):", "  "))
            out += [f"    {ln}" for ln in e.stderr.splitlines()[-10:]]
    sc = result.scenario
    if sc is None:
        return "\n".join(out)
    m = result.mismatch
    if m is not None:
        out.append(say(lang, f"Lệch luật sau {m.step} bước (đã thu gọn; {result.evaluations} "
                       f"ván đã chơi).",
                       f"Mismatch after {m.step} step(s) (shrunk; {result.evaluations} hands "
                       "played)."))
    out.append(say(lang, f"Kịch bản tối thiểu: {sc.rules.players} người, tùy chọn khác mặc "
                   f"định: {_non_default(sc.rules) or 'không'}",
                   f"Minimal scenario: {sc.rules.players} players, non-default options: "
                   f"{_non_default(sc.rules) or 'none'}"))
    for seat, h in enumerate(sc.deal.hands):
        opener = " (mở đầu / opener)" if seat == sc.deal.opener else ""
        out.append(f"  người/seat {seat}{opener}: {' '.join(cards.codes(h))}")
    out.append(f"  nọc: {' '.join(cards.codes(sc.deal.noc[:12]))} …")
    upto = len(sc.actions) if m is None else m.step
    st = State(sc.rules, sc.deal)
    for i, a in enumerate(sc.actions[:upto], start=1):
        card = st.window.card if st.window is not None else None
        vi, en = logs.say_action(a, card)
        out.append(say(lang, f"Bước {i}: {vi}", f"Step {i}: {en}", "  "))
        for ln in logs.step(st, a):
            vi, en = logs.say_line(ln)
            out.append(say(lang, f"→ {vi}", f"→ {en}", "      "))
    if m is None:
        return "\n".join(out)
    if m.resolution:
        out.append(say(lang, f"Bước vừa rồi phân xử nhiều người cùng nhận quân theo luật: "
                       f"{', '.join(m.resolution)}",
                       f"The last step settled competing claims by: {', '.join(m.resolution)}",
                       "  "))
    if m.kind == "legal":
        for d in m.seats:
            out.append(say(lang, f"Người {d.seat}: luật cho phép {_acts(st.legal_actions(d.seat))}",
                           f"Seat {d.seat}: the rules allow "
                           f"{_acts(st.legal_actions(d.seat))}", "  "))
            for a in d.extra:
                ex = st.explain(a)
                out.append(say(lang, f"engine cho thêm {a.code()}: luật cấm vì {ex.vi} "
                               f"({', '.join(ex.rules)})",
                               f"the engine also allows {a.code()}: forbidden because {ex.en} "
                               f"({', '.join(ex.rules)})", "    "))
            for a in d.missing:
                ex = st.explain(a)
                out.append(say(lang, f"engine thiếu {a.code()}: luật cho phép "
                               f"({', '.join(ex.rules)})",
                               f"the engine lacks {a.code()}: allowed by "
                               f"{', '.join(ex.rules)}", "    "))
    elif m.kind == "refused" and m.refused is not None:
        out.append(say(lang, f"Engine từ chối {m.refused.code()} dù luật cho phép: "
                       f"{m.refused_error}",
                       f"The engine refused {m.refused.code()}, which the rules allow: "
                       f"{m.refused_error}", "  "))
    else:
        out.append(say(lang, f"Kết quả khác: máy tham chiếu {m.reference_outcome}, engine "
                       f"{m.engine_outcome}",
                       f"Outcomes differ: reference {m.reference_outcome}, engine "
                       f"{m.engine_outcome}", "  "))
    return "\n".join(out)


def _non_default(rules: table_mod.Rules) -> str:
    d = rules.table.defaults()
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.options.items()) if d.get(k) != v)
