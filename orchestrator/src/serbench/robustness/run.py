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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..corpus import formats as F
from ..explain import Explainer
from .cases import ACCEPT, IMPL, REJECT
from .limits import Exit, Limits, run_limited

DECODE_TESTS = ("tree", "incremental")
OUTCOMES = ("accepted", "other-hash", "rejected", "crashed", "hung", "oom", "harness")
#: what runtimes print when an allocation fails (CPython, C++, Rust's default alloc error handler,
#: glibc/C libraries' messages, the JVM, Go)
OOM_PATTERN = re.compile(
    r"MemoryError|std::bad_alloc|bad_alloc|memory allocation of \d+ bytes failed|out of memory|"
    r"Cannot allocate memory|OutOfMemoryError|runtime: cannot allocate|fatal error: runtime: out of memory",
    re.IGNORECASE,
)
STACK_PATTERN = re.compile(r"overflowed its stack|stack overflow|stack exhausted|goroutine stack exceeds", re.I)

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


def classify(ex: Exit, hashes: Iterable[str], limits: Limits) -> tuple[str, str | None, str | None]:
    """(outcome, hash printed or None, reason) of one verify process, per spec/protocol.md's exit codes."""
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
    if ex.code in (2, 4, 5):
        return "harness", None, f"exit {ex.code} from verify (a protocol error, not the library): {error or tail}"
    both = f"{error or ''} {ex.stderr}"
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
    if outcome in ("crashed", "hung", "oom"):
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


def verify_argv(row: Row, path: Path) -> list[str]:
    return row.harness.command() + [
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
    ex = run_limited(verify_argv(row, case_dir / case["file"]), row.harness.env(), limits)
    # an accept case allows its one hash; a reject case any (accepting it is wrong whatever the hash)
    allowed = case["hashes"] if case["expect"] != REJECT else []
    outcome, h, reason = classify(ex, allowed, limits)
    if outcome == "other-hash" and case["expect"] == ACCEPT:
        why = _explain(case_dir / case["file"], row.format, h)
        reason = f"{reason}; {why}" if why else reason
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


def run_rows(
    rows: list[Row],
    cases: list[dict],
    case_dir: Path,
    limits: Limits,
    record: Callable[[dict], None],
    progress: Callable[[int, int, str], None],
    row_done: Callable[[Row, list[dict], float], None],
    jobs: int = 1,
) -> int:
    """Every row against every case of its format; `record` stores each result as it comes.
    Sequential by default: a case that allocates or spins must not disturb another's limits."""
    import time

    by_format: dict[str, list[dict]] = {}
    for c in cases:
        by_format.setdefault(c["format"], []).append(c)
    total = sum(len(by_format.get(r.format, [])) for r in rows)
    done = 0
    # One at a time runs in this thread, so Ctrl-C reaches run_limited, which kills the process group
    # at once; with --jobs N, threads each wait on their own process.
    pool = ThreadPoolExecutor(max_workers=jobs) if jobs > 1 else None
    mapper = pool.map if pool else map
    try:
        for row in rows:
            mine = by_format.get(row.format, [])
            t0 = time.monotonic()
            results = []
            progress(done, total, row.label)
            for res in mapper(lambda c, row=row: run_case(row, c, case_dir, limits), mine):
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


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def summary_line(results: list[dict]) -> str:
    """One line a user can read: how the row treats malformed, valid and implementation-defined input,
    and whether anything crashed, hung or ran out of memory."""
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
    failures = [(o[k], k) for k in ("crashed", "hung", "oom") if o[k]]
    words = {"crashed": "crash", "hung": "hang", "oom": "memory blow-up"}
    if failures:
        parts.append(", ".join(f"{_n(k, words[w])}" for k, w in failures).upper())
    else:
        parts.append("no crash, hang or memory blow-up")
    if o["harness"]:
        parts.append(f"{o['harness']} not judged (harness)")
    return "; ".join(parts)


def totals(results: list[dict]) -> dict[str, int]:
    o = Counter(r["outcome"] for r in results)
    return {k: o[k] for k in OUTCOMES}
