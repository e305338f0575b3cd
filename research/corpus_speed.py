"""How long `serbench corpus --data FILE` takes, and how much memory, on big user files (issue 74)
(*benchmark*: run nothing else meanwhile).

It writes three kinds of JSON document at each size, the kinds users bring:
- numbers: one key holding an array of numbers (ints and doubles), as a metrics export;
- twitter: an array of tweet-like objects (text with Unicode and escapes, nested users, ids above 2^53);
- nested: records nested about 380 levels deep (serbench's limit is 500), repeated to the size.
Then it runs `./serbench corpus --out TMP --data FILE` on each in a fresh corpus folder holding a
copy of the standard corpus, so only the user file is written, and prints wall time and peak RSS.

    .venv/bin/python research/corpus_speed.py [--sizes-mb 1,10,50,100] [--kinds numbers,twitter,nested]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["serbench", "überprüfung", "décodage", "編碼", "données", "fast 🚀", "naïve", 'a "quote"', "tab\there"]


def _numbers(rng: random.Random, target: int):
    out, size = [], 0
    while size < target:
        v = rng.randrange(-(2**40), 2**40) if rng.random() < 0.5 else rng.uniform(-1e6, 1e6)
        out.append(v)
        size += len(repr(v)) + 1
    return {"values": out}


def _tweet(rng: random.Random, i: int) -> dict:
    uid = rng.randrange(2**53, 2**63)
    return {
        "id": rng.randrange(2**60, 2**63),
        "created_at": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
        "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 20))),
        "truncated": False,
        "user": {
            "id": uid,
            "screen_name": f"user{uid % 10**6}",
            "followers_count": rng.randint(0, 10**6),
            "verified": rng.random() < 0.1,
            "location": None,
        },
        "retweet_count": rng.randint(0, 5000),
        "entities": {"hashtags": [rng.choice(WORDS) for _ in range(rng.randint(0, 3))], "urls": []},
        "coordinates": [rng.uniform(-180, 180), rng.uniform(-90, 90)] if rng.random() < 0.2 else None,
        "seq": i,
    }


def _twitter(rng: random.Random, target: int):
    out, size, i = [], 0, 0
    while size < target:
        t = _tweet(rng, i)
        out.append(t)
        size += len(json.dumps(t))
        i += 1
    return {"statuses": out}


def _nested(rng: random.Random, target: int):
    def chain(depth: int):
        node: dict = {"leaf": rng.random(), "n": rng.randint(0, 10**9)}
        for d in range(depth):
            node = {"level": d, "name": rng.choice(WORDS), "child": node} if d % 2 else {"list": [d, node]}
        return node

    one = len(json.dumps(chain(250)))
    return {"chains": [chain(250) for _ in range(max(1, target // one))]}


KINDS = {"numbers": _numbers, "twitter": _twitter, "nested": _nested}


def write_document(kind: str, mb: int, dest: Path) -> Path:
    path = dest / f"{kind}-{mb}mb.json"
    doc = KINDS[kind](random.Random(mb), mb * 10**6)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def measure(path: Path, corpus: Path) -> tuple[float, int, int]:
    """Wall seconds, peak RSS in bytes of the corpus command (its own, from wait4), and its exit status."""
    t0 = time.perf_counter()
    cmd = [str(ROOT / ".venv/bin/serbench"), "corpus", "--out", str(corpus), "--data", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - t0, usage.ru_maxrss * 1024, proc.returncode


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--sizes-mb", default="1,10,50,100")
    ap.add_argument("--kinds", default="numbers,twitter,nested")
    ap.add_argument("--keep", type=Path, help="write the documents here and keep them")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="serbench-corpus-speed-") as tmp:
        docs = a.keep or Path(tmp) / "docs"
        docs.mkdir(parents=True, exist_ok=True)
        base = Path(tmp) / "standard"
        subprocess.run(
            [str(ROOT / ".venv/bin/serbench"), "corpus", "--out", str(base)], check=True, stdout=subprocess.DEVNULL
        )
        print(f"{'file':<22} {'bytes':>13} {'wall s':>8} {'peak RSS MB':>12}")
        for mb in [int(x) for x in a.sizes_mb.split(",")]:
            for kind in a.kinds.split(","):
                path = write_document(kind, mb, docs)
                corpus = Path(tmp) / "c"
                shutil.rmtree(corpus, ignore_errors=True)
                shutil.copytree(base, corpus)
                wall, peak, rc = measure(path, corpus)
                rss = f"{peak / 1e6:.0f}"
                print(
                    f"{path.name:<22} {path.stat().st_size:>13,} {wall:>8.1f} {rss:>12}"
                    + (f"  exit {rc}" if rc else ""),
                    flush=True,
                )
                if not a.keep:
                    path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
