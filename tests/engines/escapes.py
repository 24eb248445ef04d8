"""An engine whose helper escapes: it starts a child that leaves the engine's session
(``setsid``), ignores SIGTERM, SIGINT and SIGHUP, and would sleep for a minute; the
engine itself then answers like the reference machine.

``python tests/engines/escapes.py PIDFILE [MODE]``: the child writes its pid to PIDFILE
once it runs, before the engine answers anything.  MODE ``fine`` (default) answers every
request; ``crash`` exits with status 3 after the first answer (the campaign then fails
and must still take the child with it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from chanspec.checks.conform.refengine import Session

CHILD = """
import os, signal, sys, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
with open(sys.argv[1] + ".tmp", "w") as fh:
    fh.write(str(os.getpid()))
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)
"""


def main() -> int:
    pidfile = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "fine"
    subprocess.Popen([sys.executable, "-c", CHILD, pidfile], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not os.path.exists(pidfile) and time.monotonic() < deadline:
        time.sleep(0.01)
    session = Session()
    for n, line in enumerate(sys.stdin):
        resp = session.handle(json.loads(line))
        req = json.loads(line)
        if "id" in req:
            resp["id"] = req["id"]
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()
        if mode == "crash" and n >= 0:
            return 3
        if req.get("op") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
