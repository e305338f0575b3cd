"""Hostile input through the protocol (spec/protocol.md, exit codes): documents nested 100,000 deep,
every truncation of a small document, length and count fields far beyond the input. Every case ends
with exit 0, 3 or 6 within a time limit; the harness's own code never crashes, hangs or raises
RecursionError. A crash is allowed only where it was shown to be inside the library
(LIBRARY_CRASHES).

The deep documents run `python -m serbench_py verify` in a fresh process each. The thousands of
truncation and length cases call the same entry point, `main(["verify", ...])`, in a forked child
each (a fresh process without the interpreter's start-up), with the same exit code and stdout."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from deepdocs import bson_doc, deep, deep_hash
from serbench_py import __main__ as cli
from serbench_py.adapters import Bench, load_all

HARNESS = Path(__file__).resolve().parents[1]
VECTORS = HARNESS.parents[1] / "vectors"
EXT = {"json-pretty": "pretty.json", "ubjson-plain": "plain.ubjson"}

# Rows whose library crashes on a document nested 100,000 deep, confirmed with gdb
# (`gdb -batch -ex run -ex bt --args .venv/bin/python -m serbench_py verify ...`):
# - cbor2/write: SIGSEGV in cbor2 6.2.1's Rust extension, `_cbor2::encoder::CBOREncoder::encode_value`
#   recursing once per level (21,000 frames) under `_cbor2::dumps`, with no depth limit.
# - yyjson/tree and yyjson/write: SIGSEGV (C stack overflow) in the yyjson 4.0.6 binding's own
#   recursive converters, `element_to_primitive` (yyjson/document.c:103, Document.as_obj) and
#   `mut_primitive_to_element` (document.c:349, Document(obj)), one C frame per level, no depth limit.
LIBRARY_CRASHES = {"cbor2/write", "yyjson/tree", "yyjson/write"}


def rows() -> list[tuple[str, str, str]]:
    out = [(b.id, t, f) for b in load_all().values() for t in b.tests for f in b.formats]
    assert len(out) > 50
    return out


def _outcome(code: int | None, sig: int | None, stdout: str) -> dict:
    return {"code": code, "signal": sig, "stdout": stdout.strip()}


def verify_process(bench: str, test: str, fmt: str, file: Path, timeout: float = 120) -> dict:
    """`python -m serbench_py verify` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(HARNESS), "PYTHONHASHSEED": "0"}
    argv = [sys.executable, "-m", "serbench_py", "verify", "--bench", bench, "--test", test, "--format", fmt]
    try:
        res = subprocess.run([*argv, "--file", str(file)], capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return _outcome(None, None, "timeout")
    rc = res.returncode
    return _outcome(rc if rc >= 0 else None, -rc if rc < 0 else None, res.stdout + res.stderr[-300:])


def verify_forked(bench: str, test: str, fmt: str, file: Path, timeout: float = 20) -> dict:
    """`main(["verify", ...])` in a forked child: its exit code (or signal) and stdout; killed after
    `timeout` s (a hang: code and signal both None)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(r)
            sys.stdout = open(w, "w", closefd=False)  # pytest's capture is not the child's stdout
            sys.stderr = open(os.devnull, "w")
            code = cli.main(["verify", "--bench", bench, "--test", test, "--format", fmt, "--file", str(file)])
            sys.stdout.flush()
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline = [], time.monotonic() + timeout
    status = None
    while status is None:
        if select.select([r], [], [], 0.05)[0]:
            chunk = os.read(r, 65536)
            if chunk:
                chunks.append(chunk)
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            return _outcome(None, None, "timeout")
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    out = b"".join(chunks).decode(errors="replace")
    if os.WIFSIGNALED(status):
        return _outcome(None, os.WTERMSIG(status), out)
    return _outcome(os.WEXITSTATUS(status), None, out)


def _parallel(fn, cases):
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda c: fn(*c), cases))


# --- deep documents --------------------------------------------------------------------------------


def test_documents_nested_100000_deep_end_in_a_protocol_exit_or_a_library_crash(tmp_path):
    """json-pretty and ubjson-plain use the same decoders as json and ubjson and are left out here."""
    files = {}
    for fmt in ("json", "msgpack", "cbor", "bson", "ubjson"):
        for maps in (False, True):
            p = tmp_path / f"{'maps' if maps else 'arrays'}.{fmt}"
            p.write_bytes(deep(fmt, 100_000, maps))
            files.setdefault(fmt, []).append((p, deep_hash(100_000, maps)))
    cases = [(b, t, f, p, want) for b, t, f in rows() if f in files for p, want in files[f]]
    results = _parallel(lambda b, t, f, p, want: verify_process(b, t, f, p), cases)
    baselines = {b.id for b in load_all().values() if b.baseline}
    bad = []
    for (b, t, f, p, want), o in zip(cases, results, strict=True):
        name = f"{b} {t} {f} {p.name}: {o}"
        if b in baselines:
            if o["code"] != 0 or json.loads(o["stdout"]) != {"hash": want}:
                bad.append(name)
        elif o["code"] not in (0, 3, 6) and not (o["signal"] and f"{b}/{t}" in LIBRARY_CRASHES):
            bad.append(name)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad)


# --- truncation ------------------------------------------------------------------------------------


def test_every_truncation_of_a_small_document_ends_in_exit_0_3_or_6_for_every_row(tmp_path):
    """Every offset for the decode rows (tree, incremental); every 5th for the write rows and the write
    baseline, which read their input with the reference decoder, as hash-object's check does at every
    offset (and test_refcodec at every offset of every vector)."""
    baselines = {b.id for b in load_all().values() if b.baseline}
    cases = []
    for b, t, f in rows():
        for vector in ("all-types", "binary-empty"):
            src = VECTORS / f"{vector}.{EXT.get(f, f)}"
            if not src.exists():
                continue
            full = src.read_bytes()
            for cut in range(0, len(full), 5 if t == "write" else 1):
                p = tmp_path / f"{vector}.{f}.{cut}"
                if not p.exists():
                    p.write_bytes(full[:cut])
                cases.append((b, t, f, p))
    results = _parallel(verify_forked, cases)
    bad = []
    for (b, t, f, p), o in zip(cases, results, strict=True):
        own = b in baselines or t == "write"  # the reference decoder reads the input first
        ok = {
            0: not own or f == "json-pretty",  # a pretty JSON file is complete without its final newline
            3: not own,
            6: own,
        }.get(o["code"], False)
        if not ok:
            bad.append(f"{b} {t} {f} {p.name}: {o}")
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:40])


# --- length and count fields -------------------------------------------------------------------------

HUGE = [
    ("msgpack", b"\x81\xa1a\xdd\xff\xff\xff\xff\x00\x00"),
    ("msgpack", b"\x81\xa1a\xdf\xff\xff\xff\xff\xa1b\x00"),
    ("msgpack", b"\x81\xa1a\xdb\xff\xff\xff\xffab"),
    ("msgpack", b"\x81\xa1a\xc6\xff\xff\xff\xffab"),
    ("cbor", b"\xa1\x61a\x9b" + b"\xff" * 8 + b"\x00"),
    ("cbor", b"\xa1\x61a\xbb" + b"\xff" * 8 + b"\x61b\x00"),
    ("cbor", b"\xa1\x61a\x7b" + b"\xff" * 8 + b"ab"),
    ("cbor", b"\xa1\x61a\x5b" + b"\xff" * 8 + b"ab"),
    ("bson", b"\xff\xff\xff\xff\x0aa\x00\x00"),
    ("bson", bson_doc(b"\x02a\x00\xff\xff\xff\x7fab\x00")),
    ("bson", bson_doc(b"\x05a\x00\xff\xff\xff\x7f\x00ab")),
    ("bson", bson_doc(b"\x03a\x00\xff\xff\xff\x7f\x00")),
    ("ubjson", b"{U\x01a[#L\x7f\xff\xff\xff\xff\xff\xff\xffU\x01}"),
    ("ubjson", b"{U\x01a[$Z#L\x7f\xff\xff\xff\xff\xff\xff\xff}"),
    ("ubjson", b"{U\x01aSL\x7f\xff\xff\xff\xff\xff\xff\xffab}"),
    ("ubjson", b"{U\x01a{#l\x7f\xff\xff\xffU\x01bU\x01}"),
]


def test_lengths_and_counts_beyond_the_input_are_rejected(tmp_path):
    cases = []
    for i, (fmt, data) in enumerate(HUGE):
        p = tmp_path / f"huge{i}.{fmt}"
        p.write_bytes(data)
        cases += [(b, t, f, p) for b, t, f in rows() if f == fmt]
    results = _parallel(verify_forked, cases)
    baselines = {b.id for b in load_all().values() if b.baseline}
    bad = []
    for (b, t, f, p), o in zip(cases, results, strict=True):
        want = 6 if b in baselines or t == "write" else 3
        if o["code"] != want:
            bad.append(f"{b} {t} {f} {p.name}: {o}")
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad)


# --- whose rejection ----------------------------------------------------------------------------------


def _bench(**kw) -> Bench:
    return Bench("fake", "fake", None, ("json",), **kw)


def test_the_reference_decoder_rejecting_is_exit_6_with_its_reason(tmp_path):
    dup = tmp_path / "dup.json"
    dup.write_bytes(b'{"a":1,"a":2}')
    for bench, test in (("hash-data", "write"), ("hash-object", "tree"), ("json", "write"), ("orjson", "write")):
        o = verify_forked(bench, test, "json", dup)
        assert o["code"] == 6 and "duplicate map key" in o["stdout"], (bench, test, o)


def test_a_library_error_is_exit_3_even_a_recursion_error_raised_inside_it(tmp_path):
    deep_json = tmp_path / "deep.json"
    deep_json.write_bytes(deep("json", 5000, False))
    o = verify_forked("json", "tree", "json", deep_json)
    assert o["code"] == 3 and "RecursionError" in o["stdout"], o
    # the harness's own decoder and walk take the same document
    o = verify_forked("hash-object", "tree", "json", deep_json)
    assert o["code"] == 0 and json.loads(o["stdout"])["hash"], o

    def boom(_):
        raise RecursionError("deep inside the library")

    with pytest.raises(cli.Rejected) as e:
        cli.check(_bench(decode=boom), "tree", "json", b"{}")
    assert e.value.code == 3 and "RecursionError: deep inside the library" in str(e.value)
    with pytest.raises(cli.Rejected) as e:
        cli.check(_bench(decode=lambda d: {1: 2}), "tree", "json", b"{}")
    assert e.value.code == 3 and "not in the data model" in str(e.value)


def test_an_exception_in_the_harness_own_code_is_not_reported_as_the_library_s(monkeypatch):
    def broken_walk(_):
        raise RecursionError("in the harness")

    monkeypatch.setattr(cli, "hash_object", broken_walk)
    with pytest.raises(RecursionError):
        cli.check(_bench(decode=lambda d: {}), "tree", "json", b"{}")

    def broken_decoder(_):
        raise IndexError("a bug in the reference decoder")

    monkeypatch.setitem(cli.DECODERS, "json", broken_decoder)
    with pytest.raises(IndexError):
        cli.check(_bench(encode=lambda o: b"{}"), "write", "json", b"{}")


def test_an_error_in_the_timed_loop_is_the_library_s_only_when_the_library_raises_again():
    def flaky(_):
        raise ValueError("the library again")

    r = cli._library_error(flaky, b"", RuntimeError("first"))
    assert r.code == 3 and "ValueError: the library again" in str(r)
    with pytest.raises(RuntimeError, match="a harness bug"):
        cli._library_error(lambda _: 1, b"", RuntimeError("a harness bug"))
