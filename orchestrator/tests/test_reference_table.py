"""The reference's table beside serbench's (issue 19): Chronicle Wire's published figures from
spec/references/chronicle-wire.json, line by line beside the Java rows of `trade` and `trade-seed`,
in the Markdown and HTML reports; nothing without those rows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serbench import runner
from serbench.harnesses.java import JavaHarness
from serbench.report import html as html_report
from serbench.report import markdown, reference
from serbench.store import Store

from .test_html_report import _cell
from .test_report import ARGS, ENV

ROOT = Path(__file__).resolve().parents[2]
JAVA = ROOT / "harnesses" / "java" / "src" / "main" / "java" / "serbench"


def _typed(ds: str, records: int) -> dict:
    return {"dataset": ds, "kind": "typed", "schema": "trade", "records": records, "payload_bytes": 40 * records,
            "hash": "1" * 16, "stats": {}, "files": {}}  # fmt: skip


MANIFEST = {"datasets": [_typed("trade", 10), _typed("trade-seed", 1)]}
LAT = {"count": 100_000, "p50_ns": 150, "p99_ns": 400, "p999_ns": 900, "p9999_ns": 4000, "p99999_ns": 9000}
LAT = LAT | {"max_ns": 40_000}


def _java(store, bench, test, ds, fmt, status="ok", reason=None, **first):
    base = "hash-data-typed" if test == "typed-encode" else "hash-typed"
    return _cell(store, "r", "java", bench, test, ds, fmt, 1000, base, status, reason, **first)


def _run(tmp_path, java: bool = True) -> Store:
    store = Store(tmp_path / "s.db")
    store.create_run("r", "quick", ARGS, ENV, MANIFEST)
    for ds in ("trade", "trade-seed"):
        for fmt in ("chronicle-binary-wire", "bson"):
            _cell(store, "r", "java", "hash-data-typed", "typed-encode", ds, fmt, 100)
            _cell(store, "r", "java", "hash-typed", "typed-decode", ds, fmt, 100)
    # a Rust row on trade: a typed row, but not one of the reference's
    _cell(store, "r", "rust", "hash-data-typed", "typed-encode", "trade", "bincode", 100)
    _cell(store, "r", "rust", "codec", "typed-encode", "trade", "bincode", 900, "hash-data-typed", latency=LAT)
    if java:
        # trade-seed: BinaryWire writes the reference's 70 bytes; bson-typed fails both tests
        _java(store, "chronicle-binary-wire", "typed-encode", "trade-seed", "chronicle-binary-wire",
              output=bytes(70), latency=LAT)  # fmt: skip
        _java(store, "chronicle-binary-wire", "typed-decode", "trade-seed", "chronicle-binary-wire",
              latency=LAT | {"p50_ns": 210, "max_ns": 120_000})  # fmt: skip
        for test in ("typed-encode", "typed-decode"):
            _java(store, "bson-typed", test, "trade-seed", "bson", "failed", "BsonSerializationException: boom\nat x")
        # trade: 10 records in 725 bytes, 72.5 a record; decode was not run
        _java(store, "chronicle-binary-wire", "typed-encode", "trade", "chronicle-binary-wire",
              output=bytes(725), latency=LAT)  # fmt: skip
    runner.finalize(store, "r", 200, 1)
    return store


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def _section(text: str, ds: str) -> str:
    """The lines of the reference section's table for one dataset."""
    part = text[text.index("## Beside Chronicle Wire's published comparison") :]
    part = part[part.index(f"### {ds}\n") :]
    return part[: part.index("\n\n", part.index("| Reference row"))]


def test_the_markdown_report_sets_each_java_row_beside_its_reference_row(tmp_path):
    store = _run(tmp_path)
    text = markdown.render(store.run("r"), store.cells("r"))
    seed = _section(text, "trade-seed")
    assert _line(seed, "| Reference row").startswith(
        "| Reference row | Ref bytes | Ref p99.9 | Ref worst | Benchmark | Bytes | Encode p50 | Encode p99.9 | "
        "Encode p99.99 | Encode p99.999 | Encode worst | Decode p50 | Decode p99.9 | Decode p99.99 | "
        "Decode p99.999 | Decode worst | Ops (encode / decode) | Status |"
    )
    # present: the reference's 70 bytes and its BinaryWire range beside serbench's bytes and percentiles
    assert _line(seed, "| BinaryWire (variable width, named fields)") == (
        "| BinaryWire (variable width, named fields) | 70 | 570 ns – 1.57 µs | – | chronicle-binary-wire | 70 | "
        "150 ns | 900 ns | 4 µs | 9 µs | 40 µs | 210 ns | 900 ns | 4 µs | 9 µs | 120 µs | 100,000 / 100,000 | ok |"
    )
    # failed: its status and the first line of its reason, once for both tests; ≈ the issue's "about 20"
    assert _line(seed, "| BSON | 96 | ≈ 20 µs | – | bson-typed |") == (
        "| BSON | 96 | ≈ 20 µs | – | bson-typed | – | – | – | – | – | – | – | – | – | – | – | – / – | "
        "failed: BsonSerializationException: boom |"
    )
    # absent from the run: a line of its own that says so, with the reference's figures
    assert _line(seed, "| SBE |") == (
        "| SBE | 43 | 310 ns | – | sbe | – | – | – | – | – | – | – | – | – | – | – | – / – | not in this run |"
    )
    assert _line(seed, "| Externalizable | 197 | ≈ 20 µs | 120 ms | jdk-externalizable-cbytes-typed |")
    # a reference row of several serbench rows has a line for each
    assert [line.split(" | ")[4] for line in seed.splitlines() if line.startswith("| Jackson |")] == [
        "jackson-typed",
        "jackson-cbytes-typed",
        "jackson-cbytes-rw-typed",
    ]
    # trade: bytes per record (725 B over 10 records), and a test that did not run
    trade = _section(text, "trade")
    assert "| Bytes/record |" in _line(trade, "| Reference row")
    assert _line(trade, "| BinaryWire (variable width, named fields)") == (
        "| BinaryWire (variable width, named fields) | 70 | 570 ns – 1.57 µs | – | chronicle-binary-wire | 72.5 | "
        "150 ns | 900 ns | 4 µs | 9 µs | 40 µs | – | – | – | – | – | 100,000 / – | decode not in this run |"
    )
    assert "generated trade records" in text and "divided by the records (a mean)" in text
    # the method note, under the tables
    note = text[text.index("What differs in the method") :].split("\n")[0]
    assert "i7-3970X" in note and "Test CPU in quick mode" in note and "< 1.6% error" in note
    assert "1 JVM fork per latency cell, as one fork;" in note  # ARGS predates the saved fork count
    assert note.endswith("compare the order of the rows, not the figures.")
    # the section comes after the typed sections and before the object sizes
    assert text.index("## trade-seed") < text.index("## Beside Chronicle") < text.index("## Object sizes")


def test_the_method_note_says_how_many_forks_the_run_pooled(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create_run("r", "quick", ARGS | {"latency_forks": 10}, ENV, MANIFEST)
    note = reference.method_note(store.run("r"))
    assert "(harnesses/java/jvm.args), 10 JVM forks per latency cell, its histograms pooled;" in note


def test_every_reference_row_has_a_line_per_serbench_row_in_the_published_order(tmp_path):
    store = _run(tmp_path)
    ref = reference.load_reference()
    (trade, seed) = reference.tables(store.run("r"), store.cells("r"))
    assert (trade.dataset, seed.dataset) == ("trade", "trade-seed")
    expected = [(row["name"], b) for row in ref["rows"] for b in row["serbench"]]
    assert [(r[0][0], r[4][0]) for r in seed.rows] == expected
    # the table's 16 rows: TextWire and RawWire each as UTF-8 and 8-bit, Jackson 3, BSON 2, Externalizable 2
    assert len(expected) == 22


def test_nothing_is_emitted_without_the_reference_java_rows(tmp_path):
    store = _run(tmp_path, java=False)
    run, cells = store.run("r"), store.cells("r")
    assert reference.tables(run, cells) == []
    assert reference.markdown_section(run, cells) == []
    assert "Chronicle Wire" not in markdown.render(run, cells)
    page = html_report.render(run, cells, None, "no charts")
    assert 'id="reference"' not in page


def test_a_dataset_without_java_rows_gets_no_table(tmp_path):
    store = _run(tmp_path)
    store.db.execute("DELETE FROM cells WHERE dataset='trade' AND harness='java' AND bench='chronicle-binary-wire'")
    (only,) = reference.tables(store.run("r"), store.cells("r"))
    assert only.dataset == "trade-seed"


def test_the_html_report_has_the_same_table_sortable_by_number(tmp_path):
    store = _run(tmp_path)
    page = html_report.render(store.run("r"), store.cells("r"), None, "no charts")
    section = page[page.index('<section id="reference">') :]
    section = section[: section.index("</section>")]
    assert "<h3>trade-seed</h3>" in section and "<h3>trade</h3>" in section
    row = re.search(r"<tr><td[^>]*>BinaryWire \(variable width, named fields\)</td>.*?</tr>", section).group(0)
    cells = re.findall(r'<td data-v="([^"]*)">([^<]*)</td>', row)
    assert [t for _, t in cells][:6] == ["BinaryWire (variable width, named fields)", "70", "570 ns – 1.57 µs", "–",
                                         "chronicle-binary-wire", "72.5"]  # fmt: skip
    assert float(cells[6][0]) == 150.0  # sorts by the number of ns, not the text
    assert "failed: BsonSerializationException: boom" in section
    assert "What differs in the method" in section


def test_the_reference_file_holds_the_issues_bytes_and_only_the_figures_it_gives():
    ref = reference.load_reference()
    assert "issue 19" in ref["source"]
    assert {r["name"]: r["bytes"] for r in ref["rows"]} == {
        "TextWire (YAML), UTF-8 and 8-bit": 91,
        "JSONWire": 100,
        "BinaryWire (variable width, named fields)": 70,
        "BinaryWire (numbered fields)": 44,
        "BinaryWire (fixed width)": 84,
        "BinaryWire (fixed width, numbered fields)": 57,
        "BinaryWire (field-less)": 32,
        "RawWire, UTF-8 and 8-bit": 43,
        "BytesMarshallable": 39,
        "BytesMarshallable + stop-bit encoding": 28,
        "SBE": 43,
        "Jackson": 100,
        "BSON": 96,
        "SnakeYAML": 89,
        "Boon JSON": 100,
        "Externalizable": 197,
    }
    # the issue gives no p99.99 or p99.999 for any row, and only three worst cases
    assert all(r["p9999_us"] is None and r["p99999_us"] is None for r in ref["rows"])
    assert {r["name"]: r["worst_us"] for r in ref["rows"] if r["worst_us"] is not None} == {
        "BytesMarshallable + stop-bit encoding": 6.4,
        "Boon JSON": 69000,
        "Externalizable": 120000,
    }


def _registered_ids() -> set[str]:
    """Every string literal in the source of an adapter class that Adapters.all() registers: a
    benchmark id the Java harness lists is one of them (its Bench(...) or row(...) call, or an enum
    constant's id)."""
    registry = (JAVA / "Adapters.java").read_text(encoding="utf-8")
    classes = set(re.findall(r"serbench\.adapters\.(\w+)\.benches\(\)", registry))
    ids = set()
    for cls in classes:
        ids |= set(re.findall(r'"([a-z0-9][a-z0-9-]*)"', (JAVA / "adapters" / f"{cls}.java").read_text("utf-8")))
    return ids


def test_every_serbench_id_of_the_reference_file_is_a_java_benchmark():
    if not (JAVA / "Adapters.java").exists():
        pytest.skip("no Java harness sources")
    ids = _registered_ids()
    wanted = {b for row in reference.load_reference()["rows"] for b in row["serbench"]}
    assert wanted <= ids, sorted(wanted - ids)
    # the check can fail: an id no adapter registers is not found
    assert "chronicle-no-such-wire" not in ids


def test_every_serbench_id_is_listed_by_the_built_java_harness_with_a_typed_test():
    """The harness's own `list` (spec/protocol.md), when its jar is built from the current sources."""
    h = JavaHarness(ROOT)
    if not h._up_to_date():
        pytest.skip("the Java harness is not built from the current sources")
    listed = {b["id"]: b for b in runner.listing(h)["benchmarks"]}
    for row in reference.load_reference()["rows"]:
        for bench in row["serbench"]:
            assert bench in listed, f"{row['name']}: {bench} is not a Java benchmark"
            assert {"typed-encode", "typed-decode"} <= set(listed[bench]["tests"]), bench
