"""The Ray back end of the partitioned packed search (checks/chan/cluster.py).

One Ray actor per shard, running `cluster.Shard` -- the same code as the local back
end's worker processes, wherever Ray schedules it.  ``address=None`` starts a local Ray
cluster for the search (stopped after it); ``ray://HOST:PORT`` (or any address
`ray.init` takes) joins a running one, and only the search's actors are stopped.
Optional: ``pip install 'chanspec[cluster]'``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from chanspec.checks.chan.shard import Shard, ShardFull


class ClusterError(RuntimeError):
    """A local Ray cluster that could not be started, or one given by address that could
    not be joined (the command says so in one line, exit 2)."""


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


class RayBackend:
    def __init__(self, shards: int, init: Callable[[int], tuple[Any, ...]],
                 address: str | None = None) -> None:
        import ray

        self.ray = ray
        self.shards = shards
        self.started = False
        if not ray.is_initialized():
            if address is None:
                try:
                    ray.init(num_cpus=max(shards, os.cpu_count() or 1),
                             include_dashboard=False, log_to_driver=False,
                             configure_logging=False)
                except Exception as exc:  # noqa: BLE001 - Ray raises many kinds here
                    ray.shutdown()  # whatever it had started
                    first = _first_line(exc)
                    hint = ("Ray keeps its sockets under RAY_TMPDIR (default /tmp/ray) and a "
                            "socket path may be at most 107 bytes: set RAY_TMPDIR to a short "
                            "directory" if "path length" in first else
                            "try --cluster local, which needs no Ray")
                    raise ClusterError(f"--cluster ray: Ray could not start a local "
                                       f"cluster: {first} ({hint})") from None
            else:
                try:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
                except Exception as exc:  # noqa: BLE001 - Ray raises many kinds here
                    raise ClusterError(f"--cluster {address}: Ray could not join that "
                                       f"cluster: {_first_line(exc)} (a cluster's address "
                                       "is ray://HOST:PORT of its head's Ray Client server; "
                                       "joining needs pip install 'ray[client]')") from None
            self.started = True
        actor = ray.remote(num_cpus=1)(Shard)
        self.actors = [actor.options(scheduling_strategy="SPREAD").remote(*init(s))
                       for s in range(shards)]

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]:
        refs = [None if a is None else getattr(act, method).remote(*a)
                for act, a in zip(self.actors, args, strict=True)]
        got = self._get([r for r in refs if r is not None])
        it = iter(got)
        return [None if r is None else next(it) for r in refs]

    def exchange(self, active: list[int], batch: int) -> list[tuple[bool, int, int, int]]:
        """One expansion round: each batch goes from its expander to its owner as a Ray
        object (the coordinator sees only the small statistics)."""
        K = self.shards
        refs = {s: self.actors[s].expand_split.options(num_returns=K + 1).remote(batch)
                for s in active}
        got = self._get([refs[s][K] for s in active])
        todo = []
        for t in range(K):
            parts = [refs[s][t] for s, g in zip(active, got, strict=True) if g[2][t]]
            if parts:
                todo.append(self.actors[t].receive_some.remote(*parts))
        self._get(todo)
        return [(g[0], g[1], sum(g[2]), g[3]) for g in got]

    def _get(self, refs: list[Any]) -> list[Any]:
        try:
            return self.ray.get(refs)
        except self.ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, ShardFull) or isinstance(e, ShardFull):
                raise ShardFull(str(cause or e).splitlines()[-1]) from None
            raise

    def close(self) -> None:
        for act in getattr(self, "actors", []):
            self.ray.kill(act)
        self.actors = []
        if self.started:
            self.ray.shutdown()
            self.started = False
