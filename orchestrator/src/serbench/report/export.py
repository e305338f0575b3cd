"""JSON and CSV exports of one run (every cell, every column)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3


def to_json(run: sqlite3.Row, cells: list[sqlite3.Row]) -> str:
    r = dict(run)
    for k in ("args_json", "env_json", "manifest_json"):
        r[k[:-5]] = json.loads(r.pop(k))
    return json.dumps({"schema": "serbench.export/1", "run": r, "cells": [dict(c) for c in cells]}, indent=1) + "\n"


def to_csv(run: sqlite3.Row, cells: list[sqlite3.Row]) -> str:
    buf = io.StringIO()
    if cells:
        w = csv.DictWriter(buf, fieldnames=list(cells[0].keys()), lineterminator="\n")
        w.writeheader()
        for c in cells:
            w.writerow(dict(c))
    return buf.getvalue()
