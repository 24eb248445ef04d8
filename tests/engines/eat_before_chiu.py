"""A wrong engine: an ordinary eat beats a chíu on the same card (it breaks claim
priority, chiu-before-eat, §2 Chíu).  Everything else is the reference machine: only the
order of the claim tiers changes, eating moved above chíu."""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.table import Rules


def eat_first(rules: Rules) -> Rules:
    tiers = [t for t in rules.priority if "eat" not in t]
    chiu_at = next(i for i, t in enumerate(tiers) if "chiu" in t)
    tiers.insert(chiu_at, ("eat",))
    return dataclasses.replace(rules, priority=tuple(tiers))


if __name__ == "__main__":
    sys.exit(serve(rules_hook=eat_first))
