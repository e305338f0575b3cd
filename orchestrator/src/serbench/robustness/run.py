"""Runs every decoder row against the cases of its format, one `verify` process per case
(spec/protocol.md), and classifies each outcome (docs/robustness.md):

| outcome | what happened |
|---|---|
| `accepted` | exit 0 with a hash the case allows (or any hash where it names none) |
| `other-hash` | exit 0 with a hash the case does not allow: the library changed the data |
| `rejected` | exit 3 with a reason: a clean error |
| `crashed` | a signal, or an exit code outside the protocol |
| `hung` | still running at the wall-clock limit (killed) |
| `oom` | ran out of the memory limit: MemoryError, std::bad_alloc, a failed allocation, or a signal after one |
| `harness` | exit 6 (the harness's reference decoder or own limits), or a broken protocol (exit 2, 4, 5, |
| | no hash): never the library's |

Each outcome is then judged against the case's expectation (`verdict`).
"""

from __future__ import annotations

import json
import re
import signal
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import locate, threads
from ..corpus import formats as F
from ..explain import Explainer
from .cases import ACCEPT, IMPL, REJECT
from .limits import Exit, Limits, run_limited

DECODE_TESTS = ("tree", "incremental")
#: "quadratic": killed at the time limit where the row's own growth explains it (growth.py)
OUTCOMES = ("accepted", "other-hash", "rejected", "crashed", "hung", "quadratic", "oom", "harness")
#: what runtimes print when an allocation fails (CPython, C++, Rust's default alloc error handler,
#: glibc/C libraries' messages, the JVM, Go)
OOM_PATTERN = re.compile(
    r"MemoryError|std::bad_alloc|bad_alloc|memory allocation of \d+ bytes failed|out of memory|"
    r"Cannot allocate memory|OutOfMemoryError|runtime: cannot allocate|fatal error: runtime: out of memory",
    re.IGNORECASE,
)
STACK_PATTERN = re.compile(r"overflowed its stack|stack overflow|stack exhausted|goroutine stack exceeds", re.I)
#: a runtime's fatal error with its trace, which no harness can catch: Go's runtime exits 2 (the
#: protocol's usage-error code) on "fatal error: stack overflow / out of memory" and on a panic that
#: escapes, printing the goroutines' stacks; exit 2 with this on stderr is a crash, not a usage error
RUNTIME_FATAL = re.compile(r"^(fatal error: |panic: )", re.M)
GROWING_STACK = re.compile(r"^runtime\.(newstack|copystack|morestack)\b", re.M)
RUNTIME_TRACE = re.compile(r"^goroutine \d+ (?:.* )?\[[^]]+\]:", re.M)

# verdicts: what the outcome means given the expectation
PASS, WRONG, ACCEPTED_MALFORMED, REJECTED_VALID = "pass", "wrong-value", "accepted-malformed", "rejected-valid"
IMPL_ACCEPTED, IMPL_REJECTED, FAIL, NOT_JUDGED = "impl-accepted", "impl-rejected", "failure", "not-judged"


@dataclass(frozen=True)
class Row:
    """One decoder row: a (harness, benchmark, test, format) that `verify` can decode with."""

    harness: object  # harnesses.Harness
    bench: dict
    test: str
    format: str

    @property
    def label(self) -> str:
        return f"{self.harness.name}/{self.bench['id']} {self.test} {self.format}"


def plan_rows(
    harnesses: list, listings: dict[str, dict], case_formats: set[str], libs: list[str], formats: list[str],
    tests: list[str],
) -> list[Row]:  # fmt: skip
    """Every non-baseline benchmark's decode tests (tree, incremental) on the formats it and the case
    corpus share, narrowed by --lib, --format and --test as `run` narrows them."""
    from ..runner import _matches

    rows = []
    for h in harnesses:
        for b in listings[h.name]["benchmarks"]:
            if b.get("baseline") or (libs and not _matches(b, libs)):
                continue
            for test in b["tests"]:
                if test not in DECODE_TESTS or (tests and test not in tests):
                    continue
                for fmt in b["formats"]:
                    if fmt in case_formats and (not formats or fmt in formats):
                        rows.append(Row(h, b, test, fmt))
    return rows


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def _last_lines(text: str, n: int = 2) -> str:
    return " | ".join(ln.strip() for ln in text.strip().splitlines()[-n:] if ln.strip())[:400]


def _line_matching(text: str, pattern: re.Pattern) -> str:
    """The first line that says what happened (e.g. "memory allocation of 2147483648 bytes failed"),
    rather than the last lines of a backtrace."""
    for line in text.splitlines():
        if pattern.search(line):
            return line.strip()[:300]
    return ""


def _json_line(text: str) -> dict:
    """The last JSON object line of stdout ({"hash": ...} or {"error": ...})."""
    for line in reversed(text.strip().splitlines()):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if isinstance(v, dict):
            return v
    return {}


def classify(
    ex: Exit, hashes: Iterable[str], limits: Limits, own_code: Callable[[str], bool] = lambda _: False
) -> tuple[str, str | None, str | None]:
    """(outcome, hash printed or None, reason) of one verify process, per spec/protocol.md's exit codes.
    `own_code(stderr)` says whether a runtime's fatal trace points into the harness's own code (its
    walk or reference decoder), which is then the harness's fault, never the library's."""
    hashes = set(hashes)
    out = _json_line(ex.stdout)
    tail = _last_lines(ex.stderr)
    if ex.code is None:
        return "hung", None, f"still running after {limits.timeout_s:g} s; the process group was killed"
    if ex.code == 0:
        h = out.get("hash")
        if not isinstance(h, str) or not re.fullmatch(r"[0-9a-f]{16}", h):
            return "harness", None, "exit 0 without a hash on stdout (a harness bug): " + (tail or ex.stdout[-200:])
        if not hashes or h in hashes:
            return "accepted", h, None
        return "other-hash", h, f"hash {h}, expected {' or '.join(sorted(hashes))}"
    error = out.get("error") if isinstance(out.get("error"), str) else None
    if ex.code == 3:
        reason = error or tail or "exit 3 without a reason"
        if OOM_PATTERN.search(reason):
            return "oom", None, reason
        return "rejected", None, reason
    if ex.code == 6:
        return (
            "harness",
            None,
            "exit 6, the harness's own limit or reference decoder: " + (error or tail or "no reason"),
        )
    both = f"{error or ''} {ex.stderr}"
    fatal = ex.code == 2 and RUNTIME_FATAL.search(ex.stderr) and RUNTIME_TRACE.search(ex.stderr)
    if ex.code in (2, 4, 5) and not fatal:
        return "harness", None, f"exit {ex.code} from verify (a protocol error, not the library): {error or tail}"
    if fatal:
        said = _line_matching(ex.stderr, RUNTIME_FATAL)
        if own_code(ex.stderr):
            return "harness", None, f"exit 2, a runtime fatal error in the harness's own code: {said}"
        if GROWING_STACK.search(ex.stderr):
            # Go's stacks grow by copying into a block twice the size: under RLIMIT_AS a runaway
            # recursion fails there, as "out of memory", before its 1 GB stack limit
            return "crashed", None, f"exit 2 (stack overflow: the stack could not grow), a runtime fatal error: {said}"
        if OOM_PATTERN.search(said):
            return "oom", None, f"exit 2 after a failed allocation: {said}"
        what = " (stack overflow)" if STACK_PATTERN.search(ex.stderr) else ""
        return "crashed", None, f"exit 2{what}, a runtime fatal error: {said}"
    if ex.code < 0:
        sig = _signal_name(-ex.code)
        if OOM_PATTERN.search(both) or (-ex.code == signal.SIGKILL):
            # SIGKILL that is not our timeout is the kernel's OOM killer
            said = _line_matching(both, OOM_PATTERN) or tail
            return "oom", None, f"killed by {sig} after a failed allocation" + (f": {said}" if said else "")
        what = " (stack overflow)" if STACK_PATTERN.search(both) else ""
        said = _line_matching(both, STACK_PATTERN) or tail
        return "crashed", None, f"{sig}{what}" + (f": {said}" if said else "")
    if OOM_PATTERN.search(both):
        return "oom", None, f"exit {ex.code} after a failed allocation: {_line_matching(both, OOM_PATTERN)}"
    what = " (stack overflow)" if STACK_PATTERN.search(both) else ""
    return "crashed", None, f"exit {ex.code}{what}, outside the protocol" + (f": {tail}" if tail else "")


def verdict(expect: str, outcome: str) -> str:
    """The outcome judged against what a correct decoder must do with the case."""
    if outcome in ("crashed", "hung", "quadratic", "oom"):
        return FAIL
    if outcome == "harness":
        return NOT_JUDGED
    if outcome == "other-hash":
        return ACCEPTED_MALFORMED if expect == REJECT else WRONG
    accepted = outcome == "accepted"
    if expect == ACCEPT:
        return PASS if accepted else REJECTED_VALID
    if expect == REJECT:
        return ACCEPTED_MALFORMED if accepted else PASS
    return IMPL_ACCEPTED if accepted else IMPL_REJECTED


def verify_argv(row: Row, path: Path, limits: Limits | None) -> list[str]:
    """The row's verify of one file, started as the limits need (None: as `run` starts it)."""
    start = row.harness.limited_command(limits.memory_bytes, limits.stack_bytes) if limits else row.harness.command()
    return start + [
        "verify", "--bench", row.bench["id"], "--test", row.test, "--format", row.format, "--file", str(path),
    ]  # fmt: skip


_EXPLAINERS: dict[Path, Explainer | None] = {}


def _explain(path: Path, fmt: str, got: str) -> str | None:
    """The systematic change of the case's document that gives the hash the library printed, if any
    (explain.py); the document is decoded and each change hashed once per case file."""
    try:
        if path not in _EXPLAINERS:
            _EXPLAINERS[path] = Explainer(F.DECODERS[fmt](path.read_bytes()))
        found = _EXPLAINERS[path]
        return found.explain(got) if found else None
    except Exception:  # deeper than the reference decoder or hash recurse, or not decodable: no claim
        _EXPLAINERS[path] = None
        return None


def run_case(row: Row, case: dict, case_dir: Path, limits: Limits) -> dict:
    """One case in one process: the stored result row."""
    if row.test == "write":  # a writer's case: writers.py classifies it
        from .writers import run_case as run_writer_case

        return run_writer_case(row, case, case_dir, limits)
    ex = run_limited(verify_argv(row, case_dir / case["file"], limits), row.harness.env(), limits)
    # an accept case allows its one hash; a reject case any (accepting it is wrong whatever the hash)
    allowed = case["hashes"] if case["expect"] != REJECT else []
    outcome, h, reason = classify(ex, allowed, limits, row.harness.crash_in_own_code)
    if outcome == "other-hash" and case["expect"] == ACCEPT:
        # a systematic change of the whole case first; else cut the case down through the row's
        # own verify to the first value it reads differently (locate.py), with a smaller budget than
        # run's, since a run can have many such cases
        path = case_dir / case["file"]
        why = (
            _explain(path, row.format, h)
            or locate.locate_file(
                path, row.format, row.harness, row.bench, row.test, limits=limits, max_calls=30, budget_s=20
            ).message
        )
        reason = f"{reason}; {why}" if why else reason
    return result_row(row, case, outcome, h, reason, ex)


#: what names a result in the store (robustness_results' key within a run)
RESULT_KEY = ("harness", "bench", "test", "format", "case_name")


def row_key(row: Row) -> tuple:
    return (row.harness.name, row.bench["id"], row.test, row.format)


def result_key(result: dict) -> tuple:
    return tuple(result[k] for k in RESULT_KEY)


def remaining(row: Row, cases: list[dict], finished: frozenset) -> list[dict]:
    """The cases of the row's format whose `result_key` is not in `finished`."""
    return [c for c in cases if c["format"] == row.format and row_key(row) + (c["name"],) not in finished]


def result_row(row: Row, case: dict, outcome: str, h: str | None, reason: str | None, ex: Exit) -> dict:
    return {
        "harness": row.harness.name,
        "bench": row.bench["id"],
        "test": row.test,
        "format": row.format,
        "library": row.bench["library"],
        "version": row.bench["version"],
        "case_name": case["name"],
        "class": case["class"],
        "expect": case["expect"],
        "outcome": outcome,
        "verdict": verdict(case["expect"], outcome),
        "hash": h,
        "reason": reason,
        "exit_code": ex.code,
        "wall_s": round(ex.wall_s, 4),
        "maxrss_kb": ex.maxrss_kb,
        "file": case["file"],
    }


FAILING = ("crashed", "hung", "oom", "harness")


def limits_stop_row(row: Row, cases: list[dict], case_dir: Path, limits: Limits) -> str | None:
    """Why the row cannot run at all under the limits, or None. Its smallest valid case is run under
    them; when that fails and the same case passes with no limits, every failure of the row would be
    the limits' (e.g. a runtime that cannot start inside RLIMIT_AS), never the library's."""
    valid = [c for c in cases if c["expect"] == ACCEPT]
    if not valid:
        return None
    case = min(valid, key=lambda c: ((case_dir / c["file"]).stat().st_size, c["name"]))
    path = case_dir / case["file"]
    outcome, _, reason = classify(run_limited(verify_argv(row, path, limits), row.harness.env(), limits), [], limits)
    if outcome not in FAILING:
        return None
    free = Limits(timeout_s=limits.timeout_s, memory_bytes=1 << 62, stack_bytes=limits.stack_bytes)
    unlimited, _, _ = classify(run_limited(verify_argv(row, path, None), row.harness.env(), free), [], free)
    if unlimited in FAILING:
        return None  # the library's own behaviour on that case: the cases will show it
    return f"not run: {case['format']}/{case['name']} fails under the limits ({reason}) and passes without them"


def run_rows(
    rows: list[Row],
    cases: list[dict],
    case_dir: Path,
    limits: Limits,
    record: Callable[[dict], None],
    progress: Callable[[int, int, str], None],
    row_done: Callable[[Row, list[dict], float], None],
    jobs: int = 1,
    finished: frozenset = frozenset(),
) -> int:
    """Every row against every case of its format but those in `finished` (`result_key`s: a resumed run's
    finished cases); `record` stores each result as it comes, in case order. `jobs` cases of one row run
    side by side, each under its own limits (limits.default_jobs)."""
    import time

    by_format: dict[str, list[dict]] = {}
    for c in cases:
        by_format.setdefault(c["format"], []).append(c)

    def todo(row: Row) -> list[dict]:
        return remaining(row, by_format.get(row.format, []), finished)

    rows = [r for r in rows if todo(r)]
    total = sum(len(todo(r)) for r in rows)
    done = 0
    # One at a time runs in this thread, so Ctrl-C reaches run_limited, which kills the process group
    # at once; with --jobs N, threads each wait on their own process.
    pool = threads.pool(jobs) if jobs > 1 else None
    mapper = pool.map if pool else map
    try:
        for row in rows:
            mine = todo(row)
            t0 = time.monotonic()
            results = []
            progress(done, total, row.label)
            stop = limits_stop_row(row, mine, case_dir, limits)
            if stop:
                none = Exit(None, "", "", 0.0, None)
                each = (result_row(row, c, "harness", None, stop, none) for c in mine)
            else:
                each = mapper(lambda c, row=row: run_case(row, c, case_dir, limits), mine)
            for res in each:
                record(res)
                results.append(res)
                done += 1
                progress(done, total, f"{row.label} {res['case_name']}")
            row_done(row, results, time.monotonic() - t0)
    finally:
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)
    return done


# --- summaries ------------------------------------------------------------------------------------


def _n(k: int, word: str, plural: str | None = None) -> str:
    return f"{k} {word if k == 1 else plural or word + 's'}"


def summary_line(results: list[dict]) -> str:
    """One line a user can read: how the row treats malformed, valid and implementation-defined input,
    and whether anything crashed, hung or ran out of memory."""
    if results and results[0].get("test") == "write":  # a writer's line: writers.py
        from .writers import summary_line as writer_line

        return writer_line(results)
    v = Counter(r["verdict"] for r in results)
    o = Counter(r["outcome"] for r in results)
    n_reject = sum(1 for r in results if r["expect"] == REJECT and r["verdict"] != NOT_JUDGED)
    n_accept = sum(1 for r in results if r["expect"] == ACCEPT and r["verdict"] != NOT_JUDGED)
    n_impl = sum(1 for r in results if r["expect"] == IMPL and r["verdict"] != NOT_JUDGED)
    parts = []
    bad_malformed = sum(1 for r in results if r["expect"] == REJECT and r["verdict"] == ACCEPTED_MALFORMED)
    failed_malformed = sum(1 for r in results if r["expect"] == REJECT and r["verdict"] == FAIL)
    if n_reject:
        if bad_malformed:
            parts.append(f"accepts {bad_malformed} of {n_reject} malformed cases")
        elif failed_malformed:
            parts.append(f"rejects {n_reject - failed_malformed} of {n_reject} malformed cases")
        else:
            parts.append(f"rejects all {n_reject} malformed cases")
    if n_accept:
        ok = sum(1 for r in results if r["expect"] == ACCEPT and r["verdict"] == PASS)
        parts.append(
            f"reads {ok} of {n_accept} valid cases right"
            if ok < n_accept
            else f"reads all {n_accept} valid cases right"
        )
    if n_impl:
        parts.append(f"accepts {v[IMPL_ACCEPTED]} of {n_impl} implementation-defined cases")
    if v[WRONG]:
        parts.append(_n(v[WRONG], "wrong value"))
    return "; ".join(parts + failure_parts(o))


_FAILURE_WORDS = {
    "crashed": ("crash", "crashes"),
    "hung": ("hang", "hangs"),
    "quadratic": ("quadratic growth", "quadratic growths"),
    "oom": ("memory blow-up", None),
}


def failure_parts(outcomes: Counter) -> list[str]:
    """The end of a row's summary line, for decoders and writers alike: its crashes, hangs, quadratic
    growths and memory blow-ups in capitals (or that there were none), and what was not judged."""
    failures = [(outcomes[k], k) for k in _FAILURE_WORDS if outcomes[k]]
    out = [", ".join(_n(k, *_FAILURE_WORDS[w]) for k, w in failures).upper()] if failures else []
    out = out or ["no crash, hang or memory blow-up"]
    if outcomes["harness"]:
        out.append(f"{outcomes['harness']} not judged (harness)")
    return out


def totals(results: list[dict]) -> dict[str, int]:
    o = Counter(r["outcome"] for r in results)
    return {k: o[k] for k in OUTCOMES}
