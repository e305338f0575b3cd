"""The user's own data (`--data FILE`): every mistake a user can make is one line that names the file
and says what to do (exit 2); names are unique; the exact bytes can be measured; and a --data run
writes only what is missing, shows progress, and leaves nothing half-written behind."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import struct
import tracemalloc

import cbor2
import msgpack
import pytest
from serbench import runner
from serbench.cli import main
from serbench.corpus import build
from serbench.corpus.build import ensure_corpus, load_user_file, open_user_files, user_dataset_names
from serbench.corpus.formats import DECODERS, FORMATS, MAX_DEPTH, FormatError
from serbench.corpus.generator import DEFAULT_SEED
from serbench.objhash import hash_value, hex64
from serbench.report import markdown
from serbench.store import Store

from .test_runner import FakeHarness


def _main(capsys, *argv) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.strip().splitlines()


def _nested_json(depth: int) -> bytes:
    """A map at the root holding arrays nested `depth` containers deep in all."""
    return b'{"a":' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


@pytest.fixture
def cdir(tmp_path, corpus):
    """A copy of the session's standard corpus, so a test writes only its user files."""
    dest = tmp_path / "c"
    shutil.copytree(corpus[0], dest)
    return dest


def _nested(depth: int):
    v: list = []
    for _ in range(depth - 2):
        v = [v]
    return {"a": v}


# --- 1. deep nesting and lone surrogates: one line, exit 2, not a traceback --------------------------


@pytest.mark.parametrize(
    "name,content,words",
    [
        ("deep.json", _nested_json(100_000), ["deep.json", f"nested deeper than {MAX_DEPTH}"]),
        ("surrogate.json", b'{"s": "a\\ud800b"}', ["surrogate.json", "$.s", "lone surrogate", "U+D800"]),
        ("surrogate-key.json", b'{"\\udfff": 1}', ["surrogate-key.json", "lone surrogate", "U+DFFF"]),
    ],
)
def test_run_with_a_deep_or_surrogate_data_file_is_one_line_naming_the_file_and_exit_2(
    capsys, tmp_path, name, content, words
):
    f = tmp_path / name
    f.write_bytes(content)
    args = ["--db", str(tmp_path / "s.db"), "run", "--lang", "python", "--data", str(f)]
    code, err = _main(capsys, *args, "--corpus", str(tmp_path / "c"))
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith(f"serbench: {f}: "), err
    assert all(w in err[0] for w in words), err[0]
    assert not (tmp_path / "c" / "user-deep.json").exists()


def test_a_document_at_the_depth_limit_is_written_in_every_format_and_one_level_more_is_refused(tmp_path, cdir):
    ok = tmp_path / "ok.json"
    ok.write_bytes(_nested_json(MAX_DEPTH))
    m = ensure_corpus(cdir, DEFAULT_SEED, open_user_files([ok]))
    entry = next(d for d in m["datasets"] if d["dataset"] == "user-ok")
    assert set(entry["files"]) == set(FORMATS) and not entry["skipped"]
    for fmt, f in entry["files"].items():
        assert hex64(hash_value(DECODERS[fmt]((cdir / f["file"]).read_bytes()))) == entry["hash"], fmt
    deep = tmp_path / "deep.json"
    deep.write_bytes(_nested_json(MAX_DEPTH + 1))
    with pytest.raises(FormatError, match=f"nested deeper than {MAX_DEPTH} levels"):
        load_user_file(deep)


@pytest.mark.parametrize(
    "name,content",
    [
        ("deep.msgpack", b"\x81\xa1a" + b"\x91" * 100_000 + b"\x90"),
        ("deep.cbor", b"\xa1\x61a" + b"\x81" * 100_000 + b"\x80"),
        ("limit.msgpack", msgpack.packb(_nested(MAX_DEPTH + 1))),
        ("limit.cbor", cbor2.dumps(_nested(MAX_DEPTH + 1))),
    ],
)
def test_msgpack_and_cbor_files_nested_past_the_limit_are_refused(tmp_path, name, content):
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(FormatError, match=f"^{f}: nested deeper than {MAX_DEPTH} levels"):
        load_user_file(f)


# --- 2. unique names ---------------------------------------------------------------------------------


def test_two_data_files_with_the_same_name_become_two_datasets_named_by_their_folders(tmp_path, cdir):
    for folder, value in (("a", 1), ("b", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "data.json").write_text(json.dumps({"v": value}))
    users = open_user_files([tmp_path / "a" / "data.json", tmp_path / "b" / "data.json"])
    assert [u.name for u in users] == ["user-a-data", "user-b-data"]
    m = ensure_corpus(cdir, DEFAULT_SEED, users)
    hashes = {d["dataset"]: d["hash"] for d in m["datasets"]}
    assert hashes["user-a-data"] == hex64(hash_value({"v": 1})) and hashes["user-b-data"] == hex64(hash_value({"v": 2}))
    assert len({d["dataset"] for d in m["datasets"]}) == len(m["datasets"])


def test_names_that_clean_up_to_the_same_text_are_made_distinct(tmp_path):
    for n in ("my data.json", "my-data.json", "my-data.msgpack"):
        (tmp_path / n).write_bytes(b'{"a":1}' if n.endswith(".json") else msgpack.packb({"a": 1}))
    users = open_user_files([tmp_path / "my data.json", tmp_path / "my-data.json", tmp_path / "my-data.msgpack"])
    names = [u.name for u in users]
    assert len(set(names)) == 3 and all(n.startswith("user-my-data") for n in names), names


def test_the_same_data_file_given_twice_is_an_error(tmp_path):
    f = tmp_path / "data.json"
    f.write_text('{"a": 1}')
    with pytest.raises(FormatError, match="given twice"):
        open_user_files([f, tmp_path / "." / "data.json"])


# --- 3. duplicate keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,content",
    [
        ("dup.json", b'{"x": {"k": 1, "k": 2}}'),
        ("dup.msgpack", b"\x81\xa1x\x82\xa1k\x01\xa1k\x02"),
        ("dup.cbor", b"\xa1\x61x\xa2\x61k\x01\x61k\x02"),
    ],
)
def test_duplicate_keys_are_refused_naming_the_key_and_the_file(tmp_path, name, content):
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(FormatError, match=rf'^{f}: .*key "k" appears twice'):
        load_user_file(f)


# --- 4. what was measured: the file, and its exact bytes -----------------------------------------------


def test_the_users_exact_bytes_are_a_dataset_in_their_own_format_with_the_same_hash(tmp_path, cdir):
    f = tmp_path / "pretty.json"
    original = b'{\n  "b": [1, 2.5, "\\u00e9"],\n  "a": null\n}\n'
    f.write_bytes(original)
    users = open_user_files([f])
    m = ensure_corpus(cdir, DEFAULT_SEED, users)
    by_name = {d["dataset"]: d for d in m["datasets"]}
    re, orig = by_name["user-pretty"], by_name["user-pretty.original"]
    assert orig["hash"] == re["hash"] and list(orig["files"]) == ["json"] and orig["original"] is True
    assert (cdir / orig["files"]["json"]["file"]).read_bytes() == original
    assert (cdir / re["files"]["json"]["file"]).read_bytes() != original  # re-encoded, compact
    source = {"path": str(f), "format": "json", "bytes": len(original), "sha256": hashlib.sha256(original).hexdigest()}
    assert re["source"] == orig["source"] == source
    assert user_dataset_names(users, "both") == ["user-pretty", "user-pretty.original"]
    assert user_dataset_names(users, "original") == ["user-pretty.original"]
    assert user_dataset_names(users, "reencoded") == ["user-pretty"]
    # The plan gives the original only its own format, with the expected hash of the document.
    script = tmp_path / "fake.py"
    script.write_text("")
    h = FakeHarness(tmp_path, script)
    listing = {
        "benchmarks": [
            {"id": "lib", "library": "lib", "version": "1", "formats": ["json", "msgpack"], "tests": ["tree"]}
        ]
    }
    cells = runner.plan(
        [h],
        {"fake": listing},
        m,
        cdir,
        libs=[],
        formats=[],
        tests=[],
        datasets=["user-pretty.original"],
    )
    assert [(c.dataset["dataset"], c.format, c.file.read_bytes()) for c in cells] == [
        ("user-pretty.original", "json", original)
    ]


def test_the_report_names_the_measured_file_and_says_the_data_is_reencoded(tmp_path, cdir):
    f = tmp_path / "mine.msgpack"
    f.write_bytes(msgpack.packb({"a": [1, 2, 3], "b": "x"}))
    m = ensure_corpus(cdir, DEFAULT_SEED, open_user_files([f]))
    store = Store(tmp_path / "s.db")
    store.create_run("r", "quick", {"rounds": 3}, {"cpu_model": "x"}, m)
    for ds in ("user-mine", "user-mine.original"):
        cid = store.add_cell(
            "r",
            {
                "harness": "python",
                "bench": "lib",
                "test": "tree",
                "dataset": ds,
                "format": "msgpack",
                "library": "lib",
                "version": "1",
                "notes": "",
                "is_baseline": 0,
                "baseline_bench": None,
            },
        )
        store.record_round(cid, 0, "ok", None, 0.1, [{"iterations": 1, "wall_ns": 100}] * 3)
    runner.finalize(store, "r", 50, 1)
    text = markdown.render(store.run("r"), store.cells("r"))
    sha = hashlib.sha256(f.read_bytes()).hexdigest()
    assert f"`{f}`" in text and sha in text and f"{f.stat().st_size} B" in text
    assert "re-encoded" in text and "compact JSON" in text and "exact bytes" in text


# --- 5. write only what is missing; progress; no partial files -----------------------------------------


def _mtimes(d):
    return {p.name: p.stat().st_mtime_ns for p in d.iterdir() if p.name != "manifest.json"}


def test_a_data_run_reuses_the_standard_corpus_and_writes_only_the_users_files(tmp_path, cdir, corpus):
    dest = cdir
    before = _mtimes(dest)
    f = tmp_path / "mine.json"
    f.write_text('{"a": [1, 2, 3]}')
    steps = []
    m = ensure_corpus(dest, DEFAULT_SEED, open_user_files([f]), progress=lambda d, t, label: steps.append(label))
    after = _mtimes(dest)
    assert {k: after[k] for k in before} == before  # no standard file rewritten
    assert {n for n in after if n not in before} == {
        e["files"][fmt]["file"] for e in m["datasets"] if e["kind"] == "user" for fmt in e["files"]
    }
    assert any("user-mine" in s and "msgpack" in s for s in steps)
    # A second run with the same file writes nothing at all.
    again = _mtimes(dest)
    steps.clear()
    assert ensure_corpus(dest, DEFAULT_SEED, open_user_files([f]), progress=lambda d, t, label: steps.append(label))
    assert _mtimes(dest) == again and not [s for s in steps if s]
    # A run without --data still has the standard corpus and does not rewrite it.
    assert {d["dataset"] for d in ensure_corpus(dest, DEFAULT_SEED, [])["datasets"]} == {
        d["dataset"] for d in corpus[1]["datasets"]
    }
    assert _mtimes(dest) == again


def test_the_same_bytes_under_another_formats_extension_are_read_as_that_format(tmp_path, cdir, corpus):
    """ok.msgpack copied to ok.cbor was taken from the cache as MessagePack (keyed on the bytes alone),
    where a fresh corpus refuses it as CBOR: the format is part of the cache's key (issue 74)."""
    packed = tmp_path / "a" / "ok.msgpack"
    packed.parent.mkdir()
    packed.write_bytes(msgpack.packb({"a": [1, 2]}))
    m = ensure_corpus(cdir, DEFAULT_SEED, open_user_files([packed]))
    assert next(d for d in m["datasets"] if d["dataset"] == "user-ok")["source"]["format"] == "msgpack"
    renamed = tmp_path / "a" / "ok.cbor"
    packed.rename(renamed)
    with pytest.raises(FormatError, match=r"ok\.cbor: "):
        ensure_corpus(cdir, DEFAULT_SEED, open_user_files([renamed]))


def test_the_same_bytes_format_and_name_at_another_path_are_reused_and_the_new_path_is_named(tmp_path, cdir, corpus):
    first, second = tmp_path / "x" / "ok.json", tmp_path / "y" / "ok.json"
    for p in (first, second):
        p.parent.mkdir()
        p.write_text('{"a": [1, 2]}')
    ensure_corpus(cdir, DEFAULT_SEED, open_user_files([first]))
    written = _mtimes(cdir)
    notes: list[str] = []
    m = ensure_corpus(cdir, DEFAULT_SEED, open_user_files([second]), note=notes.append)
    assert _mtimes(cdir) == written  # nothing encoded again
    assert notes == [f"{second}: reusing datasets user-ok and user-ok.original in {cdir} (same bytes, format and name)"]
    assert {d["source"]["path"] for d in m["datasets"] if d.get("source")} == {str(second.absolute())}
    assert {d["source"]["path"] for d in build.load_manifest(cdir)["datasets"] if d.get("source")} == {str(second)}


def test_a_big_user_file_is_announced_with_its_size_and_an_estimate_before_it_is_read(tmp_path, cdir, corpus):
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"a": list(range(300_000))}))  # 2.1 MB
    notes: list[str] = []
    ensure_corpus(cdir, DEFAULT_SEED, open_user_files([big]), note=notes.append)
    size = big.stat().st_size
    about = round(size / 1e6 * build.CORPUS_S_PER_MB)
    assert notes[0] == (
        f"{big}: reading {size:,} bytes of JSON; writing its corpus takes about {about} s on a 2-core machine"
    )


def test_an_interrupted_corpus_write_leaves_no_partial_file_behind(tmp_path, cdir, corpus, monkeypatch):
    dest = cdir
    before = set(os.listdir(dest))
    f = tmp_path / "big.json"
    f.write_text(json.dumps({"a": list(range(1000))}))

    def interrupted(doc):
        raise KeyboardInterrupt

    monkeypatch.setitem(FORMATS, "cbor", dataclasses.replace(FORMATS["cbor"], encode=interrupted))
    with pytest.raises(KeyboardInterrupt):
        ensure_corpus(dest, DEFAULT_SEED, open_user_files([f]))
    assert set(os.listdir(dest)) == before  # the user's json, msgpack... files written so far are gone too


def test_files_left_by_a_killed_corpus_write_are_removed_at_the_next_start(tmp_path, cdir, corpus):
    dest = cdir
    before = set(os.listdir(dest))
    dead = 2**22 + 12345  # above pid_max's default: no such process
    (dest / f".user-big.msgpack.tmp-{dead}").write_bytes(b"x" * 100)
    (dest / "user-big.json").write_bytes(b"{}")
    (dest / f".serbench-writing-{dead}.json").write_text(json.dumps({"files": ["user-big.json", "user-big.msgpack"]}))
    ensure_corpus(dest, DEFAULT_SEED, [])
    assert set(os.listdir(dest)) == before


# --- 6. a bad file: one line that names it and says what to do -----------------------------------------


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("empty.json", b"", "the file is empty"),
        ("broken.json", b'{"a": [1,\n  2,,]}', "invalid JSON at line 2, column 5"),
        ("nan.json", b'{"a": NaN}', "NaN"),
        ("inf.json", b'{"a": -Infinity}', "-Infinity"),
        ("big.json", b'{"a": {"b": 1e400}}', r"\$\.a\.b: the number 1e400 overflows a 64-bit double"),
        ("bigint.json", b'{"a": 18446744073709551616}', "does not fit int64 or uint64"),
        ("digits.json", b'{"a": [0, ' + b"9" * 5000 + b"]}", r"\$\.a\[1\]: integer of 5000 digits does not fit"),
        ("root.json", b"[1, 2]", "the root must be a map"),
        ("nul.json", b'{"a": "x\\u0000"}', "NUL"),
        ("latin1.json", b'{"a": "\xe9"}', "not UTF-8"),
        ("bom.json", b'\xef\xbb\xbf{"a": 1}', "starts with a UTF-8 byte order mark"),
        ("data.xml", b"<a/>", "unknown extension"),
    ],
)
def test_a_bad_data_file_is_one_line_that_names_it(capsys, tmp_path, name, content, message):
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(FormatError, match=f"^{f}: .*{message}") as e:
        load_user_file(f)
    assert "\n" not in str(e.value)
    code, err = _main(capsys, "corpus", "--out", str(tmp_path / "c"), "--data", str(f))
    assert code == 2 and len(err) == 1 and err[0] == f"serbench: {e.value}"


def test_a_directory_or_a_missing_file_is_named_with_what_to_do(tmp_path):
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(FormatError, match=f"^{tmp_path / 'dir.json'}: is a directory; give"):
        open_user_files([tmp_path / "dir.json"])
    with pytest.raises(FormatError, match=f"^{tmp_path / 'nope.json'}: no such file; check the path"):
        open_user_files([tmp_path / "nope.json"])


def _str8_header(n: int) -> bytes:
    return b"\xdb" + struct.pack(">I", n)


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("trunc.msgpack", msgpack.packb({"a": "hello"})[:-2], "truncated"),
        ("trail.msgpack", msgpack.packb({"a": 1}) + b"\x01\x02", "2 bytes after the end of the document"),
        ("huge.msgpack", b"\x81\xa1a" + _str8_header(2**32 - 1) + b"ab", "truncated"),
        ("hugearr.msgpack", b"\x81\xa1a\xdd\xff\xff\xff\xff", "truncated"),
        ("utf8.msgpack", b"\x81\xa1a\xa2\xff\xfe", "not valid UTF-8"),
        ("surr.msgpack", b"\x81\xa1a\xa3\xed\xa0\x80", "not valid UTF-8"),
        ("ext.msgpack", b"\x81\xa1a\xd4\x05\x00", "ext type 5"),
        ("time.msgpack", b"\x81\xa1a\xd6\xff\x00\x00\x00\x01", "ext type -1"),
        ("trunc.cbor", cbor2.dumps({"a": "hello"})[:-2], "truncated"),
        ("trail.cbor", cbor2.dumps({"a": 1}) + b"\x01", "1 bytes after the end of the document"),
        ("huge.cbor", b"\xa1\x61a\x7b\x7f\xff\xff\xff\xff\xff\xff\xff" + b"ab", "truncated"),
        ("hugemap.cbor", b"\xa1\x61a\xbb\x7f\xff\xff\xff\xff\xff\xff\xff", "truncated"),
        ("utf8.cbor", b"\xa1\x61a\x62\xff\xfe", "not valid UTF-8"),
        ("bignum.cbor", b"\xa1\x61a\xc2\x41\x05", "tag 2"),
        ("date.cbor", b"\xa1\x61a\xc1\x01", "tag 1"),
        ("odd.cbor", b"\xa1\x61a\xd9\x99\x99\x01", "tag 39321"),
        ("undef.cbor", b"\xa1\x61a\xf7", "undefined"),
        ("simple.cbor", b"\xa1\x61a\xf0", "simple value"),
        ("intkey.cbor", b"\xa1\x01\x01", "key"),
    ],
)
def test_msgpack_and_cbor_user_files_are_read_strictly(tmp_path, name, content, message):
    f = tmp_path / name
    f.write_bytes(content)
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=f"^{f}: .*{message}") as e:
            load_user_file(f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "\n" not in str(e.value)
    assert peak < 16 << 20  # a length field of 4 GB or 2^63 allocates nothing of that size


def test_a_file_whose_bytes_change_after_it_was_opened_is_refused(tmp_path):
    f = tmp_path / "x.json"
    f.write_text('{"a": 1}')
    users = open_user_files([f])
    f.write_text('{"a": 2}')
    with pytest.raises(FormatError, match="changed while serbench was reading it"):
        ensure_corpus(tmp_path / "c", DEFAULT_SEED, users)


def test_ensure_corpus_rewrites_the_standard_corpus_when_its_code_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "builtin_datasets", lambda seed: [build.Dataset("size-1", "schemaless", {"a": seed})])
    m = ensure_corpus(tmp_path, 5, [])
    assert [d["dataset"] for d in m["datasets"]] == ["size-1"]
    first = _mtimes(tmp_path)
    assert ensure_corpus(tmp_path, 5, []) and _mtimes(tmp_path) == first
    monkeypatch.setattr(build, "code_fingerprint", lambda: "edited")
    ensure_corpus(tmp_path, 5, [])
    assert _mtimes(tmp_path) != first


def test_resuming_a_run_whose_data_file_changed_since_is_refused(capsys, tmp_path, cdir):
    f = tmp_path / "mine.json"
    f.write_text('{"a": 1}')
    m = ensure_corpus(cdir, DEFAULT_SEED, open_user_files([f]))
    saved = {"lang": ["python"], "lib": [], "format": [], "test": [], "size": [], "dataset": [], "data": [str(f)]}
    saved |= {"data_bytes": "both", "mode": "quick", "seed": DEFAULT_SEED, "corpus": str(cdir), "rounds": 3}
    saved |= {"build_profile": "speed", "compiler": "default", "code_size": False, "out": str(tmp_path), "budget_ms": 9}
    store = Store(tmp_path / "s.db")
    store.create_run("r1", "quick", saved, {}, m)
    store.close()
    f.write_text('{"a": 2}')
    code, err = _main(capsys, "--db", str(tmp_path / "s.db"), "run", "--resume", "r1")
    assert code == 2 and err[-1].startswith(f"serbench: {f} changed since run r1 started (object hash "), err
    assert err[-1].endswith("restore it, or start a new run instead of --resume")
