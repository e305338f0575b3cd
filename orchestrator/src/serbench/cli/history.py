"""`serbench history`: the runs in the store."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from ..report import facts
from ..store import Store
from .common import EXIT_OK, _no_store, _reading_store, say
from .output import _print_columns


def history_rows(db: Store) -> list[dict]:
    """One row per stored run, oldest first: what `serbench history` prints."""
    out = []
    for r in db.runs():
        args, env = json.loads(r["args_json"]), json.loads(r["env_json"])
        cells = db.cells(r["id"])
        real = [c for c in cells if not c["is_baseline"]]
        wall = facts.wall_s(r, env)
        out.append(
            {
                "id": r["id"],
                "started": datetime.fromtimestamp(r["started_at"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "status": db.status(r),
                "mode": r["mode"],
                "measure": args.get("measure") or "time",
                "languages": sorted({c["harness"] for c in cells}),
                "cells": len(real),
                "ok": sum(1 for c in real if c["status"] == "ok"),
                "incorrect_or_failed": sum(1 for c in real if c["status"] in ("incorrect", "failed")),
                "wall_s": round(wall, 1) if wall is not None else None,
                "cpu_model": env.get("cpu_model"),
                "cores": env.get("cores"),
            }
        )
    return out


def cmd_history(args) -> int:
    db = _reading_store(args, missing_ok=True)
    rows = history_rows(db) if db is not None else []
    if args.format == "json":
        print(json.dumps({"schema": "serbench.history/1", "runs": rows}, indent=1))
        return EXIT_OK
    if not rows:
        say(_no_store(args) if db is None else "the store has no runs yet; try `serbench run`")
        return EXIT_OK
    header = ["Run", "Started", "Status", "Mode", "Measure", "Languages", "Cells", "Ok", "Bad", "Wall time", "Machine"]
    table = [
        [
            r["id"],
            r["started"],
            r["status"],
            r["mode"],
            r["measure"],
            ",".join(r["languages"]) or "–",
            str(r["cells"]),
            str(r["ok"]),
            str(r["incorrect_or_failed"]),
            facts.duration(r["wall_s"]) if r["wall_s"] is not None else "–",
            f"{r['cpu_model']}, {r['cores']} cores",
        ]
        for r in rows
    ]
    _print_columns([header, *table])
    return EXIT_OK


def add_parser(command) -> None:
    s = command("history", help="the runs in the store: id, date, mode, measure, languages, cells, wall time")
    s.add_argument("--format", choices=("table", "json"), default="table", help="default: table")
    s.set_defaults(fn=cmd_history)
