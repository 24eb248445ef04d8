"""The rule-table loader: the family table, its numbers, and clear errors for bad tables."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import tomllib
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, table
from chanspec.model.table import TableError

ROOT = Path(__file__).resolve().parent.parent
FAMILY = ROOT / "spec" / "family.toml"
FAMILY_TEXT = FAMILY.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- a tiny TOML writer


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    """One TOML value, inline (the subset rule tables use: str, int, bool, float, list, dict)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else "nan"
    if isinstance(v, str):
        # JSON string escapes (\" \\ \n \t \uXXXX) are all valid TOML basic-string escapes.
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML form for {type(v).__name__}")


def to_toml(data: dict[str, Any]) -> str:
    """Every top-level key as `key = <inline value>`: valid TOML for any nesting."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


def family_data() -> dict[str, Any]:
    return tomllib.loads(FAMILY_TEXT)


def problems_of(text: str, path: str = "bad.toml") -> list[shared_table.Problem]:
    with pytest.raises(TableError) as info:
        table.load_text(text, path)
    return info.value.problems


# --------------------------------------------------------------------------- the family table


def test_family_table_loads() -> None:
    t = table.load("family")
    assert t.id == "family"
    assert "family.toml" in t.path
    assert len(t.rows) > 30
    assert t.title_vi.startswith("Bài Chắn")


@pytest.mark.parametrize(
    ("players", "opener", "other", "pairs", "min_chan"),
    [(4, 24, 23, 12, 8), (5, 20, 19, 10, 6)],
)
def test_variant_numbers(players: int, opener: int, other: int, pairs: int, min_chan: int) -> None:
    v = table.load("family").variants[players]
    assert (v.opener_cards, v.other_cards, v.pairs, v.min_chan) == (opener, other, pairs, min_chan)
    rules = table.rules("family", players)
    assert (rules.pairs, rules.min_chan, rules.players) == (pairs, min_chan, players)
    assert len(rules.faces) * rules.copies == 120


def test_option_rows_have_values_and_default() -> None:
    t = table.load("family")
    rows = [r for r in t.rows.values() if r.status in ("open", "provisional")]
    assert rows
    for r in rows:
        assert len(r.values) >= 2, r.id
        assert r.default in r.values, r.id
        for v in r.values:
            assert r.value_text[v]["vi"].strip() and r.value_text[v]["en"].strip(), (r.id, v)


def test_family_undecided_points_are_open_rows() -> None:
    rows = table.load("family").rows
    for rid in ("lao-thang", "pass-ca-ban", "returned-card-u", "reclaim-deadline", "timeout"):
        assert rows[rid].status == "open", rid
        assert rows[rid].found_by == "family", rid


def test_every_option_combination_resolves() -> None:
    t = table.load("family")
    space = t.option_space()
    # one pass per value of each option, the others at their default
    for name, values in space:
        for value in values:
            for players in (4, 5):
                r = t.resolve(players, {name: value})
                assert r.option(name) == value


def test_lao_thang_option_changes_the_ca_graph() -> None:
    from chanspec.model.chan import cards

    lao, thang = cards.parse("lao"), cards.parse("thang")
    assert table.rules("family", 4).is_ca(lao, thang)
    assert not table.rules("family", 4, {"lao-thang": "off"}).is_ca(lao, thang)


def test_bad_option_is_option_error() -> None:
    t = table.load("family")
    with pytest.raises(shared_table.OptionError, match="lao-thang"):
        t.parse_options(["lao-thang=maybe"])
    with pytest.raises(shared_table.OptionError, match="lao-thang"):
        t.parse_options(["lao-thangg=on"])
    with pytest.raises(shared_table.OptionError, match="NAME=VALUE"):
        t.parse_options(["lao-thang"])


# --------------------------------------------------------------------------- specific errors


def test_writer_round_trips_the_family_table() -> None:
    data = family_data()
    text = to_toml(data)
    assert tomllib.loads(text) == data
    assert table.load_text(text, "copy.toml").rows.keys() == table.load("family").rows.keys()


def _row(data: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(r for r in data["rule"] if r["id"] == rid)


def _has(problems: list[shared_table.Problem], where: str, field: str, *words: str) -> bool:
    return any(
        p.file == "bad.toml" and p.where == where and p.field == field
        and all(w in p.message for w in words)
        for p in problems
    )


def test_unknown_key_names_file_rule_and_field() -> None:
    data = family_data()
    _row(data, "lao-thang")["defualt"] = "on"
    ps = problems_of(to_toml(data))
    assert _has(ps, "lao-thang", "defualt", "unknown key", "default")


def test_missing_field_names_file_rule_and_field() -> None:
    data = family_data()
    del _row(data, "chiu")["en"]
    ps = problems_of(to_toml(data))
    assert _has(ps, "chiu", "en", "missing")


def test_default_not_among_values() -> None:
    data = family_data()
    _row(data, "timeout")["default"] = "ten-minutes"
    ps = problems_of(to_toml(data))
    assert _has(ps, "timeout", "default", "ten-minutes", "auto-pass")


def test_unknown_face() -> None:
    data = family_data()
    data["win"]["never_complete"] = ["chi", "lao", "tang"]
    ps = problems_of(to_toml(data))
    assert _has(ps, "win", "never_complete[2]", "unknown card", "tang")


def test_bad_toml_syntax_gives_line_number() -> None:
    lines = FAMILY_TEXT.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("copies"))
    lines[n] = "copies = = 4"
    ps = problems_of("\n".join(lines))
    assert len(ps) == 1
    assert ps[0].file == "bad.toml"
    assert ps[0].where.startswith(f"line {n + 1},")
    assert "not valid TOML" in ps[0].message


def test_every_problem_is_reported_at_once() -> None:
    data = family_data()
    _row(data, "timeout")["default"] = "ten-minutes"
    data["deck"]["copies"] = "four"
    ps = problems_of(to_toml(data))
    assert _has(ps, "timeout", "default", "ten-minutes")
    assert _has(ps, "deck", "copies", "expected int")
    message = str(TableError(ps))
    assert "bad.toml: timeout.default" in message and "bad.toml: deck.copies" in message


def test_duplicate_id_and_dangling_reference() -> None:
    data = family_data()
    data["rule"].append(copy.deepcopy(_row(data, "chiu")))
    data["turn"]["chiu_rule"] = "chiuu"
    ps = problems_of(to_toml(data))
    assert _has(ps, "chiu", "id", "duplicate")
    assert _has(ps, "turn", "chiu_rule", "chiuu", "'chiu'")


def test_missing_claim_row() -> None:
    data = family_data()
    data["claim"] = [c for c in data["claim"] if (c["source"], c["claim"]) != ("return", "u")]
    ps = problems_of(to_toml(data))
    assert any(p.where == "claim" and "return" in p.message and "u" in p.message for p in ps)


def test_load_missing_file_and_unknown_builtin(tmp_path: Path) -> None:
    with pytest.raises(shared_table.RulesetNotFound, match="no such file"):
        table.load(str(tmp_path / "nope.toml"))
    with pytest.raises(shared_table.RulesetNotFound, match="built-in"):
        table.load("no-such-ruleset")
    (tmp_path / "folder.toml").mkdir()
    with pytest.raises(shared_table.RulesetNotFound, match="is a folder"):
        table.load(str(tmp_path / "folder.toml"))
    assert issubclass(shared_table.RulesetNotFound, TableError)  # callers catching TableError


# --------------------------------------------------------------------------- mutated tables

SEED = int(os.environ.get("CHANSPEC_FUZZ_SEED", "20240517"))
N_MUTANTS = int(os.environ.get("CHANSPEC_FUZZ_N", "400"))

Path_ = list[Any]


def _paths(obj: Any, prefix: Path_ | None = None) -> list[Path_]:
    prefix = prefix or []
    out: list[Path_] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + [k])
            out += _paths(v, prefix + [k])
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + [i])
            out += _paths(v, prefix + [i])
    return out


def _get(obj: Any, path: Path_) -> Any:
    for p in path:
        obj = obj[p]
    return obj


_ODD_VALUES: list[Any] = [0, -3, 7, 99, True, False, "", "x", "garbage", "1z", "Tam Văn",
                          1.5, [], ["lao"], [1, 2], {}, {"option": "lao-thang", "is": "on"},
                          {"a": 1}, "on", "lao-thang", "chiu"]
_GARBAGE_CARDS = ["10v", "0n", "chichi", "Lao", "", "  ", "Tam  Van", "ZZ", "1x", "4"]


def _mutate_data(rng: random.Random, data: dict[str, Any]) -> str:
    """Apply one random structural mutation in place; return its description."""
    paths = _paths(data)
    op = rng.choice(["delete", "unknown-key", "retype", "card", "default", "dup-id",
                     "drop-claim", "dup-element", "swap-values", "empty"])
    if op == "default":
        rows = [r for r in data["rule"] if isinstance(r, dict) and "default" in r]
        r = rng.choice(rows)
        r["default"] = rng.choice(["nope", "", "ON", 3])
        return f"default of {r.get('id')} -> {r['default']!r}"
    if op == "dup-id":
        r = rng.choice(data["rule"])
        data["rule"].insert(rng.randrange(len(data["rule"]) + 1), copy.deepcopy(r))
        return f"duplicate row {r.get('id') if isinstance(r, dict) else r!r}"
    if op == "drop-claim":
        i = rng.randrange(len(data["claim"]))
        del data["claim"][i]
        return f"drop claim[{i}]"
    if op == "card":
        card_paths = [p for p in paths if isinstance(_get(data, p), str)
                      and re.fullmatch(r"[1-9][vns]|chi|lao|thang", _get(data, p))]
        p = rng.choice(card_paths)
        new = rng.choice(_GARBAGE_CARDS)
        _get(data, p[:-1])[p[-1]] = new
        return f"card at {p} -> {new!r}"
    if op == "unknown-key":
        dicts = [[]] + [p for p in paths if isinstance(_get(data, p), dict)]
        p = rng.choice(dicts)
        k = rng.choice(["extra", "idd", "Values", "rule ", "ü", "default"])
        _get(data, p)[k] = rng.choice(_ODD_VALUES)
        return f"add key {k!r} at {p}"
    p = rng.choice(paths)
    parent, last = _get(data, p[:-1]), p[-1]
    if op == "delete":
        del parent[last]
        return f"delete {p}"
    if op == "retype":
        new = rng.choice(_ODD_VALUES)
        parent[last] = copy.deepcopy(new)
        return f"set {p} = {new!r}"
    if op == "dup-element" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
        return f"duplicate element {p}"
    if op == "swap-values":
        q = rng.choice(paths)
        a, b = _get(data, p), _get(data, q)
        parent[last] = copy.deepcopy(b)
        return f"set {p} to the value at {q} ({type(a).__name__} -> {type(b).__name__})"
    cur = parent[last]
    parent[last] = type(cur)() if isinstance(cur, (list, dict, str)) else 0
    return f"empty {p}"


def _mutate_text(rng: random.Random, text: str) -> tuple[str, str]:
    lines = text.split("\n")
    op = rng.choice(["del-line", "dup-line", "cut", "insert", "swap-lines", "replace-char"])
    if op == "del-line":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + lines[i + 1:]), f"delete line {i + 1}"
    if op == "dup-line":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i + 1] + lines[i:]), f"duplicate line {i + 1}"
    if op == "swap-lines":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"
    pos = rng.randrange(len(text))
    if op == "cut":
        n = rng.randint(1, 40)
        return text[:pos] + text[pos + n:], f"cut {n} chars at {pos}"
    if op == "insert":
        s = rng.choice(['"', "[", "]", "=", "\n", "{", ",", "x", "\\", "#", "\n[[rule]]\n", "1"])
        return text[:pos] + s + text[pos:], f"insert {s!r} at {pos}"
    c = rng.choice("abcdefghijklmnopqrstuvwxyz0123456789-_ ")
    return text[:pos] + c + text[pos + 1:], f"replace char {pos} by {c!r}"


# Where the loader is known to crash on wrongly typed values (see KNOWN_CRASHES below):
# a TypeError/KeyError raised inside these validation functions (model/table.py,
# model/chan/vocab.py).
def _crash_site(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    return frames[-1].name if frames else "?"


def _check_mutant(text: str, what: str, i: int, outcome: dict[str, int]) -> str | None:
    """None when the mutant loads or is refused with TableError; else a description."""
    try:
        t = table.load_text(text, "mutant.toml")
    except TableError as exc:
        assert exc.problems, f"empty TableError for mutant {i} ({what})"
        for p in exc.problems:
            assert p.file == "mutant.toml" and p.message, (what, p)
        net = [p for p in exc.problems if p.where == shared_table.UNCHECKED]
        if net:  # refused, but only by the loader's safety net: a missing field check
            return f"mutant {i}: {what}\n    -> only the safety net caught it: {net[0].message}"
        outcome["rejected"] += 1
        return None
    except Exception as exc:  # noqa: BLE001 - the point of the test
        return f"mutant {i}: {what}\n    -> {type(exc).__name__}: {exc} (in {_crash_site(exc)})"
    # a table that loads must also resolve every variant under every single option
    for name, values in t.option_space():
        for value in values:
            for players in t.variants:
                t.resolve(players, {name: value})
    outcome["loaded"] += 1
    return None


def test_mutated_tables_load_or_raise_table_error() -> None:
    print(f"mutation seed: {SEED} (set CHANSPEC_FUZZ_SEED to change, CHANSPEC_FUZZ_N for count)")
    rng = random.Random(SEED)
    base = family_data()
    outcome = {"loaded": 0, "rejected": 0}

    def structural() -> tuple[str, str]:
        data = copy.deepcopy(base)
        whats = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            try:
                whats.append(_mutate_data(rng, data))
            except (AttributeError, KeyError, IndexError, TypeError, ValueError):
                # an earlier mutation removed what this one edits: nothing more to do
                whats.append("(no further mutation applies)")
        return to_toml(data), "; ".join(whats)

    def textual() -> tuple[str, str]:
        return _mutate_text(rng, FAMILY_TEXT)

    makers: list[Callable[[], tuple[str, str]]] = [structural, structural, textual]
    crashes = []
    for i in range(N_MUTANTS):
        text, what = rng.choice(makers)()
        crash = _check_mutant(text, what, i, outcome)
        if crash:
            crashes.append(crash)
    assert N_MUTANTS >= 300
    assert outcome["loaded"] + outcome["rejected"] + len(crashes) == N_MUTANTS
    # the mutations must actually bite: most corrupt tables are refused
    assert outcome["rejected"] > N_MUTANTS // 2, outcome
    assert not crashes, f"seed {SEED}: {len(crashes)} mutant(s) crashed the loader:\n" + \
        "\n".join(crashes)


# --------------------------------------------------------------------------- nothing is executed


def test_no_eval_or_exec_in_the_code_base() -> None:
    pattern = re.compile(r"(?<![\w.])(eval|exec|compile|__import__)\s*\(")
    offenders = []
    for folder in ("model", "checks", "spec", "bench"):
        for f in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if pattern.search(code):
                    offenders.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "eval/exec/compile found:\n" + "\n".join(offenders)


# --------------------------------------------------------------------------- regressions
# Corruptions the mutation test once found crashing the loader (a value of the wrong type
# reaching a set/dict lookup or an iteration).  Each must now be a field-level TableError,
# not one caught only by the loader's safety net.


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        _get(data, path[:-1])[path[-1]] = value
    return apply


def _del(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        del _get(data, path[:-1])[path[-1]]
    return apply


KNOWN_CRASHES = {
    "claim-kind-is-a-table": _set(["claim", 6, "claim"], {"a": 1}),
    "default-is-a-list": lambda data: _row(data, "timeout").update(default=[1, 2]),
    "variant-without-rule": _del(["variant", 1, "rule"]),
    "priority-tier-holds-a-table": _set(["claims", "priority", 0, 1], {"a": 1}),
    "turn-rule-is-a-table": _set(["turn", "stuck_rule"], {"a": 1}),
    "except-is-a-bool": _set(["pairing", "ca", 1, "except"], False),
    "restriction-option-is-a-table": _set(["restriction", 1, "option"], {"a": 1}),
    "when-option-is-a-table": _set(["pairing", "ca", 2, "when", "option"], {"a": 1}),
}


@pytest.mark.parametrize("name", sorted(KNOWN_CRASHES))
def test_former_loader_crash_is_a_clear_error(name: str) -> None:
    data = family_data()
    KNOWN_CRASHES[name](data)
    with pytest.raises(TableError) as info:
        table.load_text(to_toml(data), "bad.toml")
    assert all(p.where != shared_table.UNCHECKED for p in info.value.problems), info.value


# --------------------------------------------------------------------------- playable tables

_ALL_CODES = list(cards.CODES)


@pytest.mark.parametrize("change, where, field, words", [
    (lambda d: d["deck"].__setitem__("copies", 1), "variant[0]", "players",
     ("cannot be dealt", "93 cards", "only 30")),
    (lambda d: d["deck"].__setitem__("faces", ["1v", "2v"]), "variant[1]", "players",
     ("cannot be dealt", "96 cards", "only 8")),
    (lambda d: d["deck"].__setitem__("faces", [c for c in _ALL_CODES] + ["3n"]), "deck", "faces",
     ("Tam Văn (3n) is listed 2 times",)),
    (lambda d: d["claims"].__setitem__("priority", [["u", "chiu-u"], [], ["chiu"], ["reclaim"],
                                                    ["eat"]]), "claims", "priority",
     ("tier 2 is empty",)),
    (lambda d: d["claims"].__setitem__("priority", [["chiu"], ["u", "chiu-u"], ["reclaim"],
                                                    ["eat"]]), "claims", "priority_says[0]",
     ("'u-before-chiu' says u goes before chiu", "tier 2")),
    (lambda d: d["claims"].__setitem__("priority", [["u", "chiu-u"], ["chiu"], ["eat"],
                                                    ["reclaim"]]), "claims", "priority_says[2]",
     ("'reclaim-deadline' says reclaim goes before eat",)),
    (lambda d: d["claims"].__setitem__("priority_says", [["u", "chiu"], ["chiu", "eat"]]),
     "claims", "priority_says", ("one [higher, lower] pair",)),
    (lambda d: d["claims"]["priority_rules"].pop(), "claims", "priority_rules",
     ("4 tiers need 3 rows",)),
])
def test_tables_that_cannot_be_played_are_refused(
    change: Callable[[dict[str, Any]], Any], where: str, field: str, words: tuple[str, ...]
) -> None:
    data = family_data()
    change(data)
    ps = problems_of(to_toml(data))
    assert _has(ps, where, field, *words), ps


def test_a_deck_just_large_enough_for_every_deal_loads() -> None:
    data = family_data()
    # 24 faces x 4 = 96 cards: 93 dealt to four players, 96 to five (no nọc card left)
    data["deck"]["faces"] = _ALL_CODES[:24]
    ps = problems_of(to_toml(data))
    assert _has(ps, "variant[1]", "players", "96 cards", "only 96")
    assert not any(p.where == "variant[0]" for p in ps)


def test_a_table_for_judging_hands_only_may_have_a_small_deck() -> None:
    data = family_data()
    data["deck"]["faces"] = ["1v", "chi"]
    text = to_toml(data)
    with pytest.raises(TableError, match="cannot be dealt"):
        table.load_text(text, "small.toml")
    t = table.load_text(text, "small.toml", dealt=False)
    assert t.resolve(4).faces == (cards.parse("1v"), cards.CHI)


# --------------------------------------------------------------------------- where the words are


def _seeds() -> Path | None:
    """The family's texts: $CHANSPEC_SEEDS, or ../shared/seeds beside the clone (CI), or
    two levels up (a worktree)."""
    env = os.environ.get("CHANSPEC_SEEDS")
    for cand in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "seeds",
                                                 ROOT.parent.parent / "shared" / "seeds"]:
        if cand.is_dir():
            return cand
    return None


SEEDS = _seeds()
needs_seeds = pytest.mark.skipif(
    SEEDS is None, reason="the family's texts (../shared/seeds) are not beside this clone; "
    "set CHANSPEC_SEEDS to their folder")


def test_every_settled_row_says_where_its_words_are() -> None:
    t = table.load("family")
    missing = [r.id for r in t.rows.values() if r.status == "settled" and not r.locator]
    assert not missing, f"settled rows without a locator: {missing}"
    source_file = t.data["ruleset"]["source"]
    for r in t.rows.values():
        if r.locator:
            assert r.locator.startswith(source_file + " "), r.id


@needs_seeds
def test_every_locator_resolves_to_sentences_of_the_family_text() -> None:
    from chanspec.model import source

    assert SEEDS is not None
    for r in table.load("family").rows.values():
        if r.locator:
            found = source.resolve(r.locator, SEEDS)
            assert found and all(s.strip() for s in found), r.id


@needs_seeds
def test_a_locator_past_the_text_is_refused() -> None:
    from chanspec.model import source

    assert SEEDS is not None
    name = table.load("family").data["ruleset"]["source"]
    assert source.resolve(f"{name} §3 •1 s1", SEEDS)
    for bad, why in ((f"{name} §3 •5 s1", "has 4 bullets"), (f"{name} §4 ¶1 s4", "3 sentences"),
                     (f"{name} §9 ¶1 s1", "no part 9"), ("nosuch.txt §1 ¶1 s1", "no seed file")):
        with pytest.raises(source.LocatorError, match=why):
            source.resolve(bad, SEEDS)


@needs_seeds
@pytest.mark.parametrize("ruleset", ["family", "classic"])
def test_no_sentence_of_the_family_text_is_pasted_into_the_table(ruleset: str) -> None:
    """No sentence of five words or more of any seed a table cites (its [ruleset] source
    and every file its locators name) appears in the table's file."""
    from chanspec.model import source

    assert SEEDS is not None
    t = table.load(ruleset)
    text = shared_table.builtin_path(ruleset).read_text(encoding="utf-8")
    files = {t.data["ruleset"]["source"]} | {
        p[0] for r in t.rows.values() if r.locator for p in source.places(r.locator)}
    assert len(files) >= (2 if ruleset == "classic" else 1)
    for name in sorted(files):
        sents = source.all_sentences((SEEDS / name).read_text(encoding="utf-8"))
        assert len(sents) > 20, name
        pasted = [s for s in sents if len(s.split()) >= 5 and s.rstrip(".") in text]
        assert not pasted, (name, pasted)


@pytest.mark.parametrize("bad", ["§3 •1 s1", "002_b3948e333907311d.txt §3 bullet 1",
                                 "002_b3948e333907311d.txt §3 •1", "x.txt §3 •1 s1;§4 ¶1 s1"])
def test_a_malformed_locator_names_the_row_and_field(bad: str) -> None:
    data = family_data()
    _row(data, "pass-chan-ban")["locator"] = bad
    with pytest.raises(TableError) as info:
        table.load_text(to_toml(data), "bad.toml")
    probs = [p for p in info.value.problems if p.field == "locator"]
    assert probs and probs[0].where == "pass-chan-ban" and "is not a locator" in probs[0].message
