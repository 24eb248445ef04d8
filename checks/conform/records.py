"""Any record of a hand, told apart by content: an NDJSON game log, the machine's own
``State.to_json()`` file, or an ITF trace.

`load()` / `load_text()` read any of them as a `logs.GameLog`; the readers of each format
live in `logs`, `itf` and `itf_view` (this module sits above both, so neither imports the other).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chanspec.checks.conform import itf, itf_view, logs
from chanspec.model import textfile
from chanspec.model.chan import table as table_mod


def load_text(text: str, source: str = "<log>",
              table: table_mod.Table | None = None) -> logs.GameLog:
    """An NDJSON log, a `State.to_json()` file or an ITF trace, told apart by content."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            whole = logs.strict_loads(stripped)
        except json.JSONDecodeError:
            whole = None  # several lines: NDJSON
        except logs.DuplicateKey as exc:
            if "\n" in stripped:  # NDJSON: the line reader says which line
                whole = None
            else:
                raise logs.duplicate_key_error(source, 1, exc.key) from None
        except RecursionError:
            raise logs.LogError(source, 1, "", *logs.NESTED_TOO_DEEPLY) from None
        if isinstance(whole, dict) and "type" not in whole:
            return _from_document(whole, source, table)
    return logs.parse(text, source, table)


def _from_document(d: dict[str, Any], source: str, table: table_mod.Table | None) -> logs.GameLog:
    if "#meta" in d and "states" in d:  # a trace of a kind's own format, else Chắn's
        return itf_view.to_log(d, source, table) or itf.to_log(d, source, table)
    if "actions" in d:
        return logs.from_state_json(d, source, table)
    raise logs.LogError(source, 1, "", "a single JSON document that is neither a chanspec "
                        "state file (with 'actions') nor an ITF trace (with '#meta' and "
                        "'states')", "a game log has one JSON object per line, the header first")


def load(path: str | Path, table: table_mod.Table | None = None) -> logs.GameLog:
    p = Path(path)
    try:
        text = textfile.read(p, textfile.LOG_LIMIT)
    except textfile.FileRefused as exc:
        why = exc.why.replace("cannot read:", "cannot read the file:")
        if why.startswith("is "):  # a device, a FIFO, a folder, too large
            why = f"cannot read the file: it {why}"
        raise logs.LogError(str(p), 0, "", why) from None
    return load_text(text, str(p), table)

