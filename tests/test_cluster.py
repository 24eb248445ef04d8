"""The partitioned packed search (checks/chan/cluster.py): the same result as the
single-process packed search for any number of shards, on every back end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from chanspec.checks.chan import cluster, packed_search, scale
from chanspec.checks.cli import app as cli
from chanspec.model.chan import table

BASE = table.load("family")


def setup(name: str, deals: int, opts: dict[str, str] | None = None,
          seed: int = 1) -> tuple[table.Rules, list]:
    rules = scale.scaled_rules(BASE, scale.SCALES[name], opts or {})
    return rules, scale.deals(rules, deals, seed)


@pytest.fixture(scope="module")
def ranks2() -> tuple[table.Rules, list, str]:
    rules, deals = setup("ranks2", 5)
    one = packed_search.search(rules, deals, check_every=100)
    return rules, deals, cluster.document(one)


@pytest.mark.parametrize("shards", [1, 2, 3])
def test_local_shards_give_the_single_process_result(ranks2, shards: int) -> None:
    rules, deals, want = ranks2
    got = cluster.search(rules, deals, shards=shards, backend="local", check_every=100)
    assert cluster.document(got) == want
    assert sum(got.shard_states) == got.distinct  # every state has exactly one owner
    assert sum(got.levels) == got.distinct and len(got.levels) == got.depth + 1
    if shards > 1:
        assert all(n > 0 for n in got.shard_states)


def test_levels_are_the_same_for_any_number_of_shards(ranks2) -> None:
    rules, deals, _ = ranks2
    levels = [cluster.search(rules, deals, shards=k, backend="inline", check_every=100,
                             batch=700).levels for k in (1, 2, 3)]
    assert levels[0] == levels[1] == levels[2]


@pytest.mark.parametrize("shards,batch", [(1, 4096), (2, 300), (3, 1000)])
def test_a_cap_cuts_the_same_states(shards: int, batch: int) -> None:
    """chiu3 cut mid-level by the cap: the kept states (and so every finding) are the
    single process's, whatever the shards and the batch size."""
    rules, deals = setup("chiu3", 1)
    want = packed_search.search(rules, deals, cap=15_000, check_every=100)
    assert not want.complete
    got = cluster.search(rules, deals, shards=shards, backend="inline", cap=15_000,
                         check_every=100, batch=batch)
    assert cluster.document(got) == cluster.document(want)


@pytest.mark.parametrize("option,what", [("stuck-discard", "stuck-all-banned"),
                                         ("empty-hand", "stuck-empty-hand")])
def test_violations_and_their_shortest_paths_are_the_same(option: str, what: str) -> None:
    rules, deals = setup("five", 2, {option: "as-written"})
    want = packed_search.search(rules, deals, check_every=50)
    assert what in {v.what for v in want.violations()}
    for k in (2, 3):
        got = cluster.search(rules, deals, shards=k, backend="local", check_every=50,
                             batch=500)
        assert cluster.document(got) == cluster.document(want)
        assert got.exit_code() == want.exit_code() == 11


def test_a_search_too_big_for_one_capped_shard_finishes_on_three(ranks2) -> None:
    rules, deals, want = ranks2
    total = json.loads(want)["distinct"]
    limit = total * 6 // 10  # one shard would need all of them
    with pytest.raises(cluster.ShardFull):
        cluster.search(rules, deals, shards=1, backend="local", check_every=100,
                       max_states=limit)
    got = cluster.search(rules, deals, shards=3, backend="local", check_every=100,
                         max_states=limit)
    assert max(got.shard_states) <= limit
    assert cluster.document(got) == want


OWNERS = """
import json, sys
from chanspec.checks.chan import cluster, scale
from chanspec.model.chan import table
from chanspec.model.chan.packed import Packed
rules = scale.scaled_rules(table.load("family"), scale.SCALES["ranks2"], {})
pk = Packed(rules, scale.deals(rules, 40, 3))
ps = [pk.initial(i) for i in range(40)]
ps += [pk.step(p, a) for p in ps for a in pk.legal(p)]
print(json.dumps([[cluster.fingerprint(p), cluster.owner(cluster.fingerprint(p), k)]
                  for p in ps for k in (2, 3, 7)]))
"""


def test_owners_are_the_same_in_every_process() -> None:
    runs = []
    for seed in ("0", "12345"):  # Python's own hash() would differ between these
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", OWNERS], env=env, check=True,
                             capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 100
    for k in (2, 3, 7):
        owners = {o for fp, o in runs[0][(2, 3, 7).index(k)::3]}
        assert owners == set(range(k))  # every shard owns some


def test_cluster_ray_without_ray_is_one_line_and_exit_2(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code = cli.main(["check", "--scales", "ranks2=1", "--cluster", "ray", "--quiet",
                     "--no-write", "--out", "/nonexistent/never-written"])
    assert code == 2
    err = capsys.readouterr().err
    assert "pip install 'chanspec[cluster]'" in err


def test_a_cluster_that_cannot_be_joined_is_one_line_and_exit_2(tmp_path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'chanspec[cluster]')")
    r = subprocess.run([sys.executable, "-m", "chanspec.checks.cli", "check", "--machine",
                        "packed", "--scales", "ranks2=1", "--cluster", "ray://127.0.0.1:1",
                        "--shards", "2", "--quiet", "--no-write", "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert "--cluster ray://127.0.0.1:1: Ray could not join that cluster" in r.stderr


def test_a_bad_cluster_name_is_refused(capsys) -> None:
    code = cli.main(["check", "--scales", "ranks2=1", "--cluster", "slurm", "--quiet",
                     "--no-write", "--out", "/nonexistent/never-written"])
    assert code == 2
    assert "--cluster 'slurm'" in capsys.readouterr().err


def test_ray_shards_give_the_single_process_result(ranks2) -> None:
    """On a local Ray cluster started and stopped by the test (the batches go from
    expander to owner as Ray objects); a shard over its cap fails there too."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install "
                                            "'chanspec[cluster]')")
    rules, deals, want = ranks2
    total = json.loads(want)["distinct"]
    t0 = time.perf_counter()
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
    try:
        for k in (2, 3):
            got = cluster.search(rules, deals, shards=k, backend="ray", check_every=100,
                                 max_states=total * 6 // 10)
            assert cluster.document(got) == want
        with pytest.raises(cluster.ShardFull):
            cluster.search(rules, deals, shards=1, backend="ray", check_every=100,
                           max_states=total * 6 // 10)
        assert ray.is_initialized()  # joined, not started, by the search: left running
    finally:
        ray.shutdown()
    assert time.perf_counter() - t0 < 120


@pytest.mark.parametrize("name,deals,cap", [("ranks2", 2, 10_000_000), ("chiu4", 1, 8_000),
                                            ("chiu3", 1, 8_000), ("five", 2, 10_000_000)])
def test_every_family_scale(name: str, deals: int, cap: int) -> None:
    """The packed machine plays the family's table only (classic: `packed.unsupported`;
    Chiha and Tấn have no packed machine), so these are the scales it searches."""
    rules, ds = setup(name, deals)
    want = cluster.document(packed_search.search(rules, ds, cap=cap, check_every=100))
    got = cluster.search(rules, ds, shards=3, backend="inline", cap=cap, check_every=100,
                         batch=512)
    assert cluster.document(got) == want


def _findings(out) -> dict:
    doc = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    doc.pop("seconds")
    for ex in doc["explorations"]:
        for k in ("seconds", "states_per_second", "states_per_core_second",
                  "bytes_per_state"):
            ex.pop(k)
    for q in doc["quotients"]:
        q.pop("seconds", None)
    return doc


def test_chanspec_check_cluster_local_writes_the_same_findings(tmp_path) -> None:
    runs = []
    for extra in ([], ["--cluster", "local", "--shards", "2", "--batch", "500"]):
        out = tmp_path / str(len(runs))
        code = cli.main(["check", "--scales", "five=1", "--machine", "packed", "--quiet",
                         "--no-write", "--out", str(out),
                         "--questions", str(out / "OPEN_QUESTIONS.md"), *extra])
        runs.append((code, _findings(out)))
    assert runs[0][0] == runs[1][0]
    assert runs[0][1] == runs[1][1]
    assert runs[0][1]["explorations"][0]["distinct"] > 1000
