"""The results store: SQLite (DESIGN §7). Every (cell, round) is committed as soon as its process ends,
so a run killed at any point keeps all finished work, and `run --resume` does only what is left."""

from __future__ import annotations

import errno
import hashlib
import json
import sqlite3
import statistics
import time
from pathlib import Path

from .. import canary, threads
from ..corpus.build import compressed_sizes
from .locks import RunBusy as RunBusy  # raised by claim(); importers take it from here
from .locks import RunLocks, StoreError

SCHEMA_VERSION = 2
LATENCY_FIELDS = ("count", "p50_ns", "p99_ns", "p999_ns", "p9999_ns", "p99999_ns", "max_ns")  # p99999: optional
# Columns added after version 1, as (name, type): a store made by an older serbench gains them on open.
ADDED_COLUMNS = (
    [("output_gzip_bytes", "INTEGER"), ("output_zstd_bytes", "INTEGER")]
    + [(f"lat_{k}", "REAL") for k in LATENCY_FIELDS]
    + [("bimodal", "INTEGER")]  # samples in two clusters (stats.bimodal)
    + [("build", "TEXT")]  # how the library was compiled (`list`'s optional `build`, e.g. "debian -O2")
    # process-level statistics (stats.summarize): within- and between-process spread, CI half-width
    # relative to the time, processes, warm-up samples dropped
    + [("rcv_within", "REAL"), ("cv_between", "REAL"), ("rel_ci", "REAL")]
    + [("n_rounds", "INTEGER"), ("warmup_dropped", "INTEGER")]
    # --measure instructions (instructions.py): gross, baseline and net per operation, whether a
    # repeat counted the same, and the raw counts (tool, n1, n2, instructions of each process)
    + [("instructions_per_op", "REAL"), ("instr_baseline", "REAL"), ("instr_net", "REAL")]
    + [("instr_deterministic", "INTEGER"), ("instr_json", "TEXT")]
    # latency pooled over forks (latency.py): how many forks the lat_* figures cover, and their
    # pooled histogram (None when a harness gives no buckets)
    + [("lat_forks", "INTEGER"), ("lat_buckets_json", "TEXT")]
    # the steps the row's loop declares for its test (`list`'s `steps`, contracts.py), as JSON
    + [("steps", "TEXT")]
)
# Columns added to other tables, as (table, name, type).
ADDED_TABLE_COLUMNS = [("samples", "canary_ns", "INTEGER")]  # protocol 1.9, canary.py

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
-- Compressed sizes of encoder outputs by content (gzip -9 and zstd -19 take seconds on a 7.5 MB
-- output): computed once per distinct output, after the run's cells (never beside a benchmark),
-- and reused by every cell and later run with the same bytes.
CREATE TABLE IF NOT EXISTS output_sizes (sha256 TEXT PRIMARY KEY, gzip_bytes INTEGER, zstd_bytes INTEGER);
-- Outputs whose sizes are still to compute: kept in the store, so an interrupted run loses none.
CREATE TABLE IF NOT EXISTS pending_outputs (cell_id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, output BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    started_at REAL NOT NULL,
    finished_at REAL,
    status TEXT NOT NULL,                 -- running | done | interrupted
    mode TEXT NOT NULL,
    args_json TEXT NOT NULL,              -- the filters and options, to resume with
    env_json TEXT NOT NULL,               -- CPU, governor, kernel, runtimes, compilers, git commit
    manifest_json TEXT NOT NULL           -- corpus manifest: sizes, hashes, compressed sizes
);
CREATE TABLE IF NOT EXISTS cells (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    harness TEXT NOT NULL, bench TEXT NOT NULL, test TEXT NOT NULL,
    dataset TEXT NOT NULL, format TEXT NOT NULL,
    library TEXT NOT NULL, version TEXT NOT NULL, notes TEXT NOT NULL,
    is_baseline INTEGER NOT NULL, baseline_bench TEXT,
    measures TEXT,
    status TEXT NOT NULL DEFAULT 'pending', -- pending | ok | incorrect | failed | unsupported
    reason TEXT,
    output_bytes INTEGER,
    median_ns REAL, ci_low_ns REAL, ci_high_ns REAL, rcv REAL, outliers INTEGER, n_samples INTEGER,
    noisy INTEGER,
    baseline_ns REAL, net_ns REAL, net_ci_low_ns REAL, net_ci_high_ns REAL,
    allocs_per_op REAL, alloc_bytes_per_op REAL, alloc_method TEXT,
    code_size_bytes INTEGER, code_size_method TEXT,
    UNIQUE (run_id, harness, bench, test, dataset, format)
);
CREATE TABLE IF NOT EXISTS rounds (
    cell_id INTEGER NOT NULL REFERENCES cells(id),
    round INTEGER NOT NULL,               -- 0..R-1; -2 latency; -1 the allocation pass before protocol 1.5
    status TEXT NOT NULL,                 -- ok | incorrect | failed | unsupported
    reason TEXT,
    wall_s REAL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (cell_id, round)
);
CREATE TABLE IF NOT EXISTS samples (
    cell_id INTEGER NOT NULL REFERENCES cells(id),
    round INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    iterations INTEGER NOT NULL,
    wall_ns INTEGER NOT NULL,
    cpu_ns INTEGER,
    canary_ns INTEGER,                    -- protocol 1.9: the canary's time just before the batch
    PRIMARY KEY (cell_id, round, idx)
);
-- The clean canary time of each harness on each machine (canary.py): the first run that measured it
-- sets it, and every later run of the store is brought to the same speed.
CREATE TABLE IF NOT EXISTS canary_references (
    machine TEXT NOT NULL, harness TEXT NOT NULL, reference_ns REAL NOT NULL, run_id TEXT NOT NULL,
    PRIMARY KEY (machine, harness)
);
-- serbench robustness (docs/robustness.md): runs of their own, so `report` and `history` of benchmark
-- runs are unchanged, and an older store gains these tables on open
CREATE TABLE IF NOT EXISTS robustness_runs (
    id TEXT PRIMARY KEY,
    started_at REAL NOT NULL,
    finished_at REAL,
    status TEXT NOT NULL,                 -- running | done | interrupted
    args_json TEXT NOT NULL,              -- filters, limits, command line
    env_json TEXT NOT NULL,
    cases_json TEXT NOT NULL              -- the case manifest the run used
);
CREATE TABLE IF NOT EXISTS robustness_results (
    run_id TEXT NOT NULL REFERENCES robustness_runs(id),
    harness TEXT NOT NULL, bench TEXT NOT NULL, test TEXT NOT NULL, format TEXT NOT NULL,
    library TEXT NOT NULL, version TEXT NOT NULL,
    case_name TEXT NOT NULL, class TEXT NOT NULL, expect TEXT NOT NULL,
    outcome TEXT NOT NULL,                -- accepted | other-hash | rejected | crashed | hung | oom | harness
    verdict TEXT NOT NULL,
    hash TEXT, reason TEXT, exit_code INTEGER, wall_s REAL, maxrss_kb INTEGER, file TEXT NOT NULL,
    PRIMARY KEY (run_id, harness, bench, test, format, case_name)
);
"""
ROBUSTNESS_FIELDS = (
    "harness", "bench", "test", "format", "library", "version", "case_name", "class", "expect", "outcome",
    "verdict", "hash", "reason", "exit_code", "wall_s", "maxrss_kb", "file",
)  # fmt: skip

CELL_KEY = ("harness", "bench", "test", "dataset", "format")


#: the WAL file is truncated to this after a checkpoint: without a limit it keeps the largest size it
#: ever reached, and on a disk that fills it had taken the whole free space (issue 74)
WAL_LIMIT_BYTES = 64 << 20


def out_of_space(e: BaseException) -> bool:
    """Whether `e` is a full disk (or quota): SQLite's SQLITE_FULL, or an OSError ENOSPC/EDQUOT."""
    if isinstance(e, sqlite3.OperationalError):
        return "disk is full" in str(e) or "database or disk is full" in str(e)
    return isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT)


class Store(RunLocks):
    # How many canaries around a sample it is divided by (canary.factors; None: the process's median). Runs
    # keep canary.WINDOW; research/canary_effect.py --window finalizes a copy of a store other ways.
    canary_window: int | None = canary.WINDOW
    # The slope every harness's times are given (canary.slope); None: each harness's own, fitted from the
    # run (runner.canary_references). research/canary_effect.py --slope finalizes a copy of a store other ways.
    canary_slope: float | None = None
    # The deadzone every harness's canary is given (canary.factor); None: canary.DEADZONE.
    # research/canary_effect.py --deadzone finalizes a copy of a store other ways.
    canary_deadzone: float | None = None
    # The zone above a run's clean canary time within which a process is chosen as clean (canary.brought);
    # None: no choice, every process corrected (as runs finalized before 2026-12-05). Runs keep canary.ZONE;
    # research/canary_effect.py --zone finalizes a copy of a store other ways.
    canary_zone: float | None = canary.ZONE

    def __init__(self, path: Path, readonly: bool = False):
        self.path = path
        self._claims: dict[str, int] = {}
        self.readonly = readonly
        if readonly:  # a store that cannot take a write (a full disk): read as it is, nothing migrated
            try:
                self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
                self.db.row_factory = sqlite3.Row
                self.db.execute("SELECT 1 FROM runs LIMIT 1")
            except sqlite3.DatabaseError as e:
                raise StoreError(f"cannot read the results store {path} ({e})") from e
            return
        if path.is_dir():
            raise StoreError(f"--db {path} is a folder; give a file path, e.g. --db {path / 'serbench.db'}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(
                f"cannot create the folder of the results store {path}: {e.strerror}; pass --db with a writable path"
            ) from e
        try:
            # isolation_level=None: we commit explicitly, once per finished (cell, round).
            self.db = sqlite3.connect(str(path), isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
            self.db.executescript(SCHEMA)
            for table, name, kind in [("cells", n, k) for n, k in ADDED_COLUMNS] + ADDED_TABLE_COLUMNS:
                if name not in {r["name"] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) or "readonly" in str(e):
                raise StoreError(
                    f"cannot open the results store {path} for writing ({e}); "
                    "pass --db with a path in a writable folder"
                ) from e
            raise StoreError(
                f"{path} is not a serbench results store ({e}); pass --db with a new file or an existing store"
            ) from e

    @classmethod
    def for_reading(cls, path: Path) -> Store:
        """The store, for a command that only reads it: opened as usual (which brings an older store's
        schema up to date), or, where it cannot take a write (a full disk, a read-only mount), read-only."""
        try:
            return cls(path)
        except StoreError as e:
            if not isinstance(e.__cause__, sqlite3.OperationalError):
                raise
            return cls(path, readonly=True)

    def checkpoint(self) -> bool:
        """Copy the WAL into the main file and truncate the WAL: after it the main file alone holds every
        committed cell, and the WAL is bounded. False when it could not (a full disk): the WAL still holds
        every committed transaction, and the next open that has room completes it (SQLite's recovery)."""
        if self.readonly:
            return False
        try:
            row = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.DatabaseError:
            return False
        return row is not None and row[0] == 0

    def close(self) -> None:
        for run_id in list(self._claims):
            self.release(run_id)
        self.checkpoint()
        self.db.close()

    def status(self, run: sqlite3.Row) -> str:
        """The run's status as it is now: a 'running' run whose process is gone was interrupted."""
        if run["status"] == "running" and not self.is_live(run["id"]):
            return "interrupted"
        return run["status"]

    def resumable_run(self, table: str = "runs") -> sqlite3.Row | None:
        """The latest unfinished run (of `table`: runs, or robustness_runs) that no live process is executing."""
        for r in self.db.execute(f"SELECT * FROM {table} WHERE status!='done' ORDER BY started_at DESC"):
            if self.status(r) == "interrupted":
                return r
        return None

    # --- runs -------------------------------------------------------------------------------------
    def create_run(self, run_id: str, mode: str, args: dict, env: dict, manifest: dict) -> None:
        self.db.execute(
            "INSERT INTO runs VALUES (?, ?, NULL, 'running', ?, ?, ?, ?)",
            (run_id, time.time(), mode, json.dumps(args), json.dumps(env), json.dumps(manifest)),
        )

    def finish_run(self, run_id: str, status: str = "done") -> None:
        self.db.execute("UPDATE runs SET finished_at=?, status=? WHERE id=?", (time.time(), status, run_id))

    def _change_run_env(self, run_id: str, change) -> None:
        """Apply `change` to the run's env_json dict in one write transaction."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            env = json.loads(self.run(run_id)["env_json"])
            change(env)
            self.db.execute("UPDATE runs SET env_json=? WHERE id=?", (json.dumps(env), run_id))

    def append_run_env(self, run_id: str, key: str, value) -> None:
        """Append `value` to the list `key` of the run's env_json (facts gathered while it runs)."""
        self._change_run_env(run_id, lambda env: env.setdefault(key, []).append(value))

    def set_run_env(self, run_id: str, key: str, value) -> None:
        """Set `key` of the run's env_json to `value` (a fact true of the run as a whole, as stored now)."""
        self._change_run_env(run_id, lambda env: env.__setitem__(key, value))

    def run(self, run_id: str) -> sqlite3.Row | None:
        return self.db.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()

    def latest_run(self, status: str | None = None) -> sqlite3.Row | None:
        q = "SELECT * FROM runs" + (" WHERE status=?" if status else "") + " ORDER BY started_at DESC LIMIT 1"
        return self.db.execute(q, (status,) if status else ()).fetchone()

    def runs(self) -> list[sqlite3.Row]:
        return self.db.execute("SELECT * FROM runs ORDER BY started_at").fetchall()

    # --- cells ------------------------------------------------------------------------------------
    def add_cell(self, run_id: str, cell: dict) -> int:
        cols = [
            "run_id",
            *CELL_KEY,
            "library",
            "version",
            "notes",
            "is_baseline",
            "baseline_bench",
            "measures",
            "code_size_bytes",
            "code_size_method",
            "build",
            "steps",
        ]
        vals = [run_id] + [cell.get(c) for c in cols[1:]]
        self.db.execute(f"INSERT OR IGNORE INTO cells ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})", vals)
        row = self.db.execute(
            "SELECT id FROM cells WHERE run_id=? AND " + " AND ".join(f"{k}=?" for k in CELL_KEY),
            [run_id] + [cell[k] for k in CELL_KEY],
        ).fetchone()
        return row["id"]

    def cells(self, run_id: str) -> list[sqlite3.Row]:
        return self.db.execute("SELECT * FROM cells WHERE run_id=? ORDER BY id", (run_id,)).fetchall()

    def done_rounds(self, cell_id: int) -> dict[int, sqlite3.Row]:
        rows = self.db.execute("SELECT * FROM rounds WHERE cell_id=?", (cell_id,)).fetchall()
        return {r["round"]: r for r in rows}

    def record_round(
        self,
        cell_id: int,
        rnd: int,
        status: str,
        reason: str | None,
        wall_s: float,
        samples: list[dict],
        alloc: dict | None = None,
        check: dict | None = None,
        latency: dict | None = None,
        output: bytes | None = None,
    ) -> None:
        """One finished process: its samples and outcome, in one transaction."""
        updates: dict = {}
        if alloc:
            updates |= {
                "allocs_per_op": alloc.get("allocs_per_op"),
                "alloc_bytes_per_op": alloc.get("alloc_bytes_per_op"),
                "alloc_method": alloc.get("method"),
            }
        if check and check.get("output_bytes") is not None:
            updates["output_bytes"] = check["output_bytes"]
        pending = None
        if output is not None:
            updates["output_bytes"] = len(output)
            sha = hashlib.sha256(output).hexdigest()
            known = self.db.execute(
                "SELECT gzip_bytes, zstd_bytes FROM output_sizes WHERE sha256 = ?", (sha,)
            ).fetchone()
            if known:
                updates |= {"output_gzip_bytes": known["gzip_bytes"], "output_zstd_bytes": known["zstd_bytes"]}
            else:
                pending = (cell_id, sha, output)
        if latency:
            updates |= self._pooled_latency(cell_id, latency)
        if status != "ok":
            updates |= {"status": status, "reason": reason}
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?, ?)",
                (cell_id, rnd, status, reason, wall_s, time.time()),
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO samples (cell_id, round, idx, iterations, wall_ns, cpu_ns, canary_ns) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (cell_id, rnd, i, s["iterations"], s["wall_ns"], s.get("cpu_ns"), s.get("canary_ns"))
                    for i, s in enumerate(samples)
                ],
            )
            if pending:
                self.db.execute("INSERT OR REPLACE INTO pending_outputs VALUES (?, ?, ?)", pending)
            if updates:
                self.update_cell(cell_id, **updates)

    def _pending_shas(self, run_id: str) -> list[str]:
        """The distinct encoder outputs of the run whose compressed sizes are still to compute."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT DISTINCT p.sha256 FROM pending_outputs p JOIN cells c ON c.id = p.cell_id WHERE c.run_id = ?",
                (run_id,),
            )
        ]

    def pending_output_count(self, run_id: str) -> int:
        return len(self._pending_shas(run_id))

    def compress_pending(self, run_id: str, workers: int = 2, progress=None) -> int:
        """The gzip and zstd sizes of the run's encoder outputs still pending (record_round), each
        distinct output once, `workers` at a time (zlib and zstd release the GIL); called when no
        benchmark runs. Returns how many outputs were compressed."""
        shas = self._pending_shas(run_id)
        workers = max(1, workers)

        def blob(sha: str) -> bytes:
            return self.db.execute("SELECT output FROM pending_outputs WHERE sha256 = ? LIMIT 1", (sha,)).fetchone()[0]

        done = 0
        with threads.pool(workers) as pool:
            # `workers` outputs at a time, so at most that many are in memory (each read here, in
            # this thread: the connection is not shared with the pool)
            for i in range(0, len(shas), workers):
                batch = shas[i : i + workers]
                done += self._store_sizes(run_id, {sha: pool.submit(compressed_sizes, blob(sha)) for sha in batch})
                if progress:
                    progress(done, len(shas))
        return done

    def _store_sizes(self, run_id: str, futures: dict) -> int:
        for sha, fut in futures.items():
            sizes = fut.result()
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute(
                    "INSERT OR REPLACE INTO output_sizes VALUES (?, ?, ?)",
                    (sha, sizes["gzip_bytes"], sizes["zstd_bytes"]),
                )
                self.db.execute(
                    "UPDATE cells SET output_gzip_bytes = ?, output_zstd_bytes = ? WHERE id IN "
                    "(SELECT cell_id FROM pending_outputs WHERE sha256 = ?) AND run_id = ?",
                    (sizes["gzip_bytes"], sizes["zstd_bytes"], sha, run_id),
                )
                self.db.execute(
                    "DELETE FROM pending_outputs WHERE sha256 = ? "
                    "AND cell_id IN (SELECT id FROM cells WHERE run_id = ?)",
                    (sha, run_id),
                )
        return len(futures)

    def run_wall_s(self, run_id: str) -> float:
        """Wall seconds of every process the run has finished so far (what its time budget counts on
        resume)."""
        row = self.db.execute(
            "SELECT SUM(r.wall_s) AS s FROM rounds r JOIN cells c ON c.id=r.cell_id WHERE c.run_id=?", (run_id,)
        ).fetchone()
        return row["s"] or 0.0

    def samples(self, cell_id: int, speed: canary.Speed | None = None) -> dict[int, list[float]]:
        """Per-iteration wall ns, grouped by round; with `speed`, the rounds the cell's time is computed from,
        brought to the speed at which the canary takes `speed.reference_ns` (canary.brought: with a
        `speed.clean_ns`, the rounds at the run's clean speed alone, else each sample by the canaries
        around it, to the power `speed.slope`; rounds without a canary as measured)."""
        out: dict[int, list[float]] = {}
        canaries: dict[int, list[int | None]] = {}
        for r in self.db.execute(
            "SELECT round, iterations, wall_ns, canary_ns FROM samples "
            "WHERE cell_id=? AND round>=0 ORDER BY round, idx",
            (cell_id,),
        ):
            out.setdefault(r["round"], []).append(r["wall_ns"] / r["iterations"])
            canaries.setdefault(r["round"], []).append(r["canary_ns"])
        return canary.brought(out, canaries, speed, self.canary_window)

    def process_count(self, cell_id: int) -> int:
        """How many timed processes (rounds with samples) the cell has, whichever its time is computed from."""
        row = self.db.execute(
            "SELECT COUNT(DISTINCT round) AS n FROM samples WHERE cell_id=? AND round>=0", (cell_id,)
        ).fetchone()
        return row["n"]

    def process_medians(self, run_id: str) -> dict[str, dict[int, list[tuple[float, float]]]]:
        """Each harness's processes in the run, per cell: (median ns per iteration, median canary ns), for
        the timed rounds with a canary in every sample (canary.process_median)."""
        per: dict[tuple[str, int, int], tuple[list[float], list[int | None]]] = {}
        for r in self.db.execute(
            "SELECT c.harness, s.cell_id, s.round, s.iterations, s.wall_ns, s.canary_ns FROM samples s "
            "JOIN cells c ON c.id = s.cell_id WHERE c.run_id = ? AND s.round >= 0",
            (run_id,),
        ):
            times, canaries = per.setdefault((r["harness"], r["cell_id"], r["round"]), ([], []))
            times.append(r["wall_ns"] / r["iterations"])
            canaries.append(r["canary_ns"])
        out: dict[str, dict[int, list[tuple[float, float]]]] = {}
        for (harness, cell_id, _), (times, canaries) in per.items():
            m = canary.process_median(canaries)
            if m is not None:
                out.setdefault(harness, {}).setdefault(cell_id, []).append((statistics.median(times), m))
        return out

    def canary_reference(self, machine: str, harness: str, run_id: str, candidate: float | None) -> float | None:
        """The machine's clean canary time for `harness`: the stored one, else `candidate` (from
        `run_id`'s own processes), which is then stored for the runs after it."""
        if candidate is not None:  # kept only where the machine has none yet (the primary key)
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(
                    "INSERT OR IGNORE INTO canary_references VALUES (?, ?, ?, ?)", (machine, harness, candidate, run_id)
                )
        row = self.db.execute(
            "SELECT reference_ns FROM canary_references WHERE machine=? AND harness=?", (machine, harness)
        ).fetchone()
        return None if row is None else row["reference_ns"]

    def _pooled_latency(self, cell_id: int, row: dict) -> dict:
        """The cell's lat_* columns after one more fork's latency row (latency.pool)."""
        from .. import latency as lat

        cur = self.db.execute(
            "SELECT lat_forks, lat_buckets_json, lat_max_ns FROM cells WHERE id=?", (cell_id,)
        ).fetchone()
        previous = None
        if cur is not None and cur["lat_forks"]:
            buckets = json.loads(cur["lat_buckets_json"]) if cur["lat_buckets_json"] else None
            previous = {"forks": cur["lat_forks"], "buckets": buckets, "max_ns": cur["lat_max_ns"]}
        state = lat.pool(previous, row)
        if state is None:
            return {}
        out = {f"lat_{k}": state.get(k) for k in LATENCY_FIELDS}
        buckets = state.get("buckets")
        return out | {"lat_forks": state["forks"], "lat_buckets_json": json.dumps(buckets) if buckets else None}

    def update_cell(self, cell_id: int, **fields) -> None:
        sets = ", ".join(f"{k}=?" for k in fields)
        self.db.execute(f"UPDATE cells SET {sets} WHERE id=?", (*fields.values(), cell_id))

    # --- robustness runs (docs/robustness.md) ------------------------------------------------------
    def create_robustness_run(self, run_id: str, args: dict, env: dict, cases: dict) -> None:
        self.db.execute(
            "INSERT INTO robustness_runs VALUES (?, ?, NULL, 'running', ?, ?, ?)",
            (run_id, time.time(), json.dumps(args), json.dumps(env), json.dumps(cases)),
        )

    def reopen_robustness_run(self, run_id: str) -> None:
        self.db.execute("UPDATE robustness_runs SET finished_at=NULL, status='running' WHERE id=?", (run_id,))

    def finish_robustness_run(self, run_id: str, status: str = "done") -> None:
        self.db.execute("UPDATE robustness_runs SET finished_at=?, status=? WHERE id=?", (time.time(), status, run_id))

    def record_robustness(self, run_id: str, result: dict) -> None:
        """One case's outcome, committed at once (a killed run keeps what it finished)."""
        cols = ("run_id", *ROBUSTNESS_FIELDS)
        self.db.execute(
            f"INSERT OR REPLACE INTO robustness_results ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})",
            [run_id] + [result.get(k) for k in ROBUSTNESS_FIELDS],
        )

    def robustness_run(self, run_id: str | None = None) -> sqlite3.Row | None:
        """The run, or the latest one."""
        if run_id:
            return self.db.execute("SELECT * FROM robustness_runs WHERE id=?", (run_id,)).fetchone()
        return self.db.execute("SELECT * FROM robustness_runs ORDER BY started_at DESC LIMIT 1").fetchone()

    def robustness_results(self, run_id: str) -> list[dict]:
        rows = self.db.execute(
            "SELECT * FROM robustness_results WHERE run_id=? ORDER BY harness, bench, test, format, case_name",
            (run_id,),
        ).fetchall()
        return [dict(r) for r in rows]
