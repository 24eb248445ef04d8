"""An engine that misbehaves on purpose, to show the driver reports it and never hangs.

``python tests/engines/misbehave.py MODE [N]``: answers like the reference for the first
N requests (default 3), then, by MODE:

* ``crash``    exits with status 3 after writing a message to stderr
* ``hang``     stops answering (sleeps for an hour)
* ``garbage``  prints a line that is not JSON
* ``shape``    answers JSON without the boolean ``ok``
* ``badcard``  answers 'legal' (or 'legal_all') with an action holding an unknown card code
"""

from __future__ import annotations

import json
import sys
import time

from chanspec.checks.conform.refengine import Session


def main() -> int:
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    session = Session()
    for count, line in enumerate(sys.stdin):
        req = json.loads(line)
        if count >= after:
            if mode == "crash":
                print("misbehave: giving up on purpose", file=sys.stderr, flush=True)
                return 3
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                print("Traceback (most recent call last): <not json>", flush=True)
                continue
            if mode == "shape":
                print(json.dumps({"status": "fine", "id": req.get("id")}), flush=True)
                continue
            if mode == "badcard" and req.get("op") in ("legal", "legal_all"):
                print(json.dumps({"ok": True, "id": req.get("id"),
                                  "actions": [{"type": "discard", "seat": 0, "card": "10v"}]}),
                      flush=True)
                continue
        resp = session.handle(req)
        resp["id"] = req.get("id")
        print(json.dumps(resp), flush=True)
        if req.get("op") == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
