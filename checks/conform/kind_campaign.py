"""Differential testing of an engine of any kind with its own game-log format (Tấn,
Chiha): `chanspec conform --ruleset tan --impl CMD`.

Hand ``i`` is the machine's deal of seed ``seed + i``.  Both sides start it; at every step
chanspec asks the engine for every seat's legal actions (``legal_all`` when its start
answer declares it, else ``legal`` seat by seat) and compares them as sets with its own;
then it picks, from ``Random(seed + i)``, one action both sides find legal and applies it
to both.  At the end it compares the outcome objects.  A hand goes on past a difference
as long as some action is legal on both sides.

A difference is keyed by its cause: the decision point, and the kinds of the actions
the engine lacks and has too many (the card's face left out), so one cause found at many
cards is one key.  Each key is counted and keeps its shortest witness, saved as a game log
(``chanspec replay`` reads it: it stops where the sides part) and described with the rows
`explain` cites for the disputed actions: those that allow the missing ones, those that
forbid the extra ones.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.checks.conform.driver import Engine
from chanspec.checks.output import write_atomic
from chanspec.model import kinds

STEP_CAP = 3000  # actions per hand at most (a Tấn hand can go round for ever)


def _key(line: dict[str, Any]) -> str:
    return json.dumps(line, sort_keys=True, separators=(",", ":"))


@dataclass
class Difference:
    """One cause: where (decision point), what the engine lacks and has too many."""

    point: str
    missing: tuple[str, ...]  # action kinds the machine allows and the engine does not
    extra: tuple[str, ...]  # action kinds the engine allows and the machine does not
    what: str = "legal"  # or "refused" (an action the machine plays), "outcome"
    count: int = 0
    rules: list[str] = field(default_factory=list)
    hand: int = 0
    step: int = 0
    example: dict[str, Any] = field(default_factory=dict)
    witness: list[dict[str, Any]] = field(default_factory=list)  # the log lines
    saved: str | None = None

    @property
    def key(self) -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
        return (self.what, self.point, self.missing, self.extra)

    def words(self) -> tuple[str, str]:
        """One line of what differs, (vi, en)."""
        if self.what == "outcome":
            return ("kết quả ván khác", "the outcome differs")
        if self.what == "refused":
            k = ", ".join(self.missing)
            return (f"ở '{self.point}', engine từ chối nước {k} mà luật cho phép",
                    f"at '{self.point}', the engine refuses a {k} the rules allow")
        parts_vi, parts_en = [], []
        if self.missing:
            k = ", ".join(self.missing)
            parts_vi.append(f"engine thiếu nước {k} mà luật cho phép")
            parts_en.append(f"the engine lacks {k} actions the rules allow")
        if self.extra:
            k = ", ".join(self.extra)
            parts_vi.append(f"engine cho nước {k} mà luật cấm")
            parts_en.append(f"the engine allows {k} actions the rules forbid")
        return (f"ở '{self.point}': " + "; ".join(parts_vi),
                f"at '{self.point}': " + "; ".join(parts_en))

    def as_json(self) -> dict[str, Any]:
        vi, en = self.words()
        return {"what": self.what, "point": self.point, "missing": list(self.missing),
                "extra": list(self.extra), "count": self.count, "rules": self.rules,
                "hand": self.hand, "step": self.step, "example": self.example,
                "witness": self.saved, "vi": vi, "en": en}


@dataclass
class Result:
    ruleset: str
    players: int
    seed: int
    hands: int = 0
    steps: int = 0
    cut: int = 0
    seconds: float = 0.0
    differences: dict[tuple[Any, ...], Difference] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "players": self.players, "seed": self.seed,
                "hands": self.hands, "steps": self.steps, "cut": self.cut,
                "seconds": round(self.seconds, 3),
                "hands_per_second": round(self.hands / self.seconds, 2) if self.seconds else
                None,
                "differences": [d.as_json() for d in sorted(
                    self.differences.values(), key=lambda d: (-d.count, d.key))]}


class Campaign:
    """One engine process compared with the machine over seeded hands."""

    def __init__(self, rules: Any, engine: Engine, seed: int) -> None:
        self.rules = rules
        self.kind = kinds.of(rules.table)
        self.engine = engine
        self.result = Result(rules.table.id, rules.players, seed)
        self.all_at_once = False
        self.started = False

    def _start(self, deal: Any) -> None:
        hdr = self.kind.log.header(self.rules, deal)
        resp = self.engine.call({"op": "start", "ruleset": hdr["ruleset"],
                                 "players": hdr["players"], "options": hdr["options"],
                                 "deal": hdr["deal"]})
        if not self.started:
            self.all_at_once = "legal_all" in (resp.get("accepts") or [])
            self.started = True

    def _legal_requests(self) -> list[dict[str, Any]]:
        if self.all_at_once:
            return [{"op": "legal_all"}]
        return [{"op": "legal", "seat": s} for s in range(self.rules.players)]

    def _legal_of(self, answers: list[dict[str, Any]]) -> set[str]:
        out: set[str] = set()
        for resp in answers:
            if not resp["ok"]:
                raise self.engine.fail("protocol", f"the engine refused 'legal': "
                                       f"{resp.get('error', '(no error message)')}")
            out |= {_key(a) for a in self._actions(resp)}
        return out

    def _actions(self, resp: dict[str, Any]) -> list[dict[str, Any]]:
        acts = resp.get("actions")
        if not isinstance(acts, list) or not all(isinstance(a, dict) for a in acts):
            raise self.engine.fail("protocol", "'actions' must be a list of action objects")
        return acts

    def hand(self, i: int) -> None:
        res = self.result
        st = self.kind.State.new(self.rules, seed=res.seed + i)
        deal = st.deal
        rng = random.Random(res.seed + i)
        self._start(deal)
        done: list[Any] = []
        # the legal actions are asked together with the action before them: one round
        # trip a step
        theirs = self._legal_of(self.engine.pipeline(self._legal_requests()))
        while not st.is_terminal():
            if len(done) >= STEP_CAP:
                res.cut += 1
                break
            mine = {_key(a.as_json()): a for a in st.legal_actions()}
            if theirs != set(mine):
                self._differ(st, deal, done, i, mine, theirs)
            both = sorted(set(mine) & theirs)
            if not both:
                break
            a = mine[both[rng.randrange(len(both))]]
            resp, *after = self.engine.pipeline([{"op": "apply", "action": a.as_json()},
                                                 *self._legal_requests()])
            if not resp["ok"]:
                self._note(Difference(st.decision_point()[0], (a.kind,), (), "refused"),
                           st, deal, done, i, {"action": a.as_json(),
                                               "error": resp.get("error")},
                           list(st.explain(a).rules))
                break
            st.apply(a, check=False)
            done.append(a)
            res.steps += 1
            theirs = self._legal_of(after)
        else:
            resp = self.engine.call({"op": "outcome"})
            ours = st.outcome()
            if not resp.get("terminal") or resp.get("outcome") != ours:
                self._note(Difference("over", (), (), "outcome"), st, deal, done, i,
                           {"rules": ours, "engine": resp.get("outcome") if
                            resp.get("terminal") else "not over"}, [])
        res.hands += 1

    def _differ(self, st: Any, deal: Any, done: list[Any], i: int,
                mine: dict[str, Any], theirs: set[str]) -> None:
        missing = [mine[k] for k in sorted(set(mine) - theirs)]
        extra = [json.loads(k) for k in sorted(theirs - set(mine))]
        rules: list[str] = []
        for a in missing:
            rules += st.explain(a).rules
        for line in extra:
            try:
                act = self.kind.log.read_line(self.rules, line)
            except (self.kind.log.LineProblem, ValueError):
                act = None
            if act is not None:
                rules += st.explain(act).rules
        d = Difference(st.decision_point()[0], tuple(sorted({a.kind for a in missing})),
                       tuple(sorted({str(x.get("type")) for x in extra})))
        self._note(d, st, deal, done, i,
                   {"missing": [a.as_json() for a in missing], "extra": extra}, rules)

    def _note(self, d: Difference, st: Any, deal: Any, done: list[Any], i: int,
              example: dict[str, Any], rules: list[str]) -> None:
        known = self.result.differences.get(d.key)
        if known is None:
            known = self.result.differences[d.key] = d
            known.step = len(done) + 1
        known.count += 1
        known.rules = list(dict.fromkeys([*known.rules, *rules]))
        if len(done) + 1 < known.step or not known.witness:  # the earliest of the shortest
            known.hand, known.step, known.example = i, len(done) + 1, example
            known.witness = self.kind.log.record(self.rules, deal, done,
                                                 extra={"x-seed": self.result.seed + i})


def numbered(first: Path, n: int) -> Path:
    """Where the `n`-th witness goes (1: `first` itself; then ``stem-N.ext``, as the
    Chắn campaign names its scenarios)."""
    return first if n == 1 else first.with_name(f"{first.stem}-{n}{first.suffix}")


def run(rules: Any, impl: str, hands: int, seed: int, timeout: float = 5.0,
        save: Path | None = None) -> Result:
    """Compare the engine run as `impl` with the machine on `hands` seeded hands; save
    each difference's witness log (the most frequent first) at `save` and beside it
    (`numbered`), when given."""
    t0 = time.monotonic()
    with Engine(impl, timeout=timeout) as eng:
        c = Campaign(rules, eng, seed)
        for i in range(hands):
            c.hand(i)
        eng.send({"op": "quit"})
    res = c.result
    res.seconds = time.monotonic() - t0
    if save is not None:
        for n, d in enumerate(sorted(res.differences.values(),
                                     key=lambda d: (-d.count, d.key)), 1):
            path = numbered(save, n)
            write_atomic(path, "".join(json.dumps(x, ensure_ascii=False) + "\n"
                                       for x in d.witness))
            d.saved = str(path)
    return res


def report(res: Result, lang: str) -> str:
    from chanspec.checks.output import say

    rate = f"{res.hands / res.seconds:.1f}" if res.seconds else "—"
    lines = [say(lang, f"{res.hands} ván ({res.steps:,} nước, {res.cut} ván bị cắt sau "
                       f"{STEP_CAP:,} nước), {res.seconds:.1f} s, {rate} ván/s; hạt giống "
                       f"{res.seed}",
                 f"{res.hands} hands ({res.steps:,} steps, {res.cut} cut after "
                 f"{STEP_CAP:,}), {res.seconds:.1f} s, {rate} hands/s; seed {res.seed}")]
    if not res.differences:
        lines.append(say(lang, "Không thấy khác biệt nào với máy tham chiếu.",
                         "No difference from the reference machine."))
        return "\n".join(lines)
    lines.append(say(lang, f"{len(res.differences)} khác biệt:",
                     f"{len(res.differences)} distinct differences:"))
    for d in sorted(res.differences.values(), key=lambda d: (-d.count, d.key)):
        vi, en = d.words()
        where = f" — {d.saved}" if d.saved else ""
        rows = ", ".join(d.rules) or "—"
        eg = _example(d)
        lines.append(say(lang, f"  ×{d.count}: {vi} (dòng {rows}; ván {d.hand}, bước "
                               f"{d.step}{'; ví dụ ' + eg if eg else ''}){where}",
                         f"  ×{d.count}: {en} (rows {rows}; hand {d.hand}, step "
                         f"{d.step}{'; e.g. ' + eg if eg else ''}){where}"))
    return "\n".join(lines)


def _example(d: Difference, most: int = 3) -> str:
    """A few of the disputed actions of the witness, as ``seat type card``."""
    def say_line(x: dict[str, Any]) -> str:
        cards = x.get("cards")
        card = " ".join(map(str, cards)) if isinstance(cards, list) else x.get("card")
        return " ".join(str(v) for v in (x.get("seat"), x.get("type"), card) if v is not None)
    acts = [*d.example.get("missing", []), *d.example.get("extra", [])]
    if "action" in d.example:
        acts = [d.example["action"]]
    shown = ", ".join(say_line(x) for x in acts[:most])
    return shown + (", …" if len(acts) > most else "")
