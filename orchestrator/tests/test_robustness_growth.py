"""Issue 73, decoders: growth exponents fitted from synthetic timings (no timed test), the second round
of cases (depth families to 10^6 in every format, JSON white space checked exactly, bytes after every
root type, BSON's other element types), the per-library scan table with its links, and docs/robustness.md's
map of case families to grammar rules."""

from __future__ import annotations

import re

import pytest
from serbench.corpus import formats as F
from serbench.report import html as html_report
from serbench.report import robustness as report
from serbench.report import robustness_scan as scan
from serbench.robustness import cases as C
from serbench.robustness import grammar_cases as G
from serbench.robustness import growth
from serbench.robustness import run as R
from serbench.store import Store

from .conftest import ROOT

LIMIT_S = 10.0


def _result(case: str, cls: str, outcome: str, wall: float, bench="slow", expect=C.IMPL, fmt="json") -> dict:
    return {
        "harness": "go", "bench": bench, "test": "tree", "format": fmt, "library": f"lib-{bench}",
        "version": "1.0", "case_name": case, "class": cls, "expect": expect, "outcome": outcome,
        "verdict": R.verdict(expect, outcome), "hash": None, "reason": None, "exit_code": 0 if wall < LIMIT_S else None,
        "wall_s": wall, "maxrss_kb": None, "file": f"{fmt}/{case}.{fmt}",
    }  # fmt: skip


def _row(bench: str, cost, hang_above: int | None = None) -> list[dict]:
    """A row: 30 small specification cases at 10 ms give or take 0.5 ms (the process start-up), and the
    nested-array family whose net time is cost(depth) seconds; killed at the limit above `hang_above`."""
    out = [
        _result(f"spec-{i}", "spec/structure", "rejected", 0.010 + (i % 3 - 1) * 0.0005, bench, C.REJECT)
        for i in range(30)
    ]
    for n in (100, 1_000, 3_000, 10_000, 30_000, 100_000, 1_000_000):
        if hang_above is not None and n > hang_above:
            out.append(_result(f"deep-{n}", "mutation/deep-nesting", "hung", LIMIT_S + 0.01, bench))
        else:
            out.append(_result(f"deep-{n}", "mutation/deep-nesting", "accepted", 0.010 + cost(n), bench))
    return out


def test_a_row_whose_time_grows_with_the_square_of_depth_is_reported_as_quadratic_not_hung():
    rs = _row("slow", lambda n: 2e-9 * n * n, hang_above=30_000)  # 30,000: 1.8 s; 100,000 would be 20 s
    (fit,) = growth.fit_row(rs)
    assert fit.kind == "quadratic" and fit.exponent == pytest.approx(2.0, abs=0.01)
    assert [n for n, _ in fit.points] == [3_000, 10_000, 30_000]  # 1,000 (2 ms net) is below the floor
    changed = growth.reclassify(rs, LIMIT_S)
    assert [(r["case_name"], r["outcome"]) for r in changed] == [
        ("deep-100000", "quadratic"),
        ("deep-1000000", "quadratic"),
    ]
    why = changed[0]["reason"]
    assert why.startswith("quadratic (or worse) growth, not a hang: time grows as depth^2.00")
    assert "3,000: 0.018 s" in why and "predicts about 20 s, past the 10 s limit" in why
    assert all(r["verdict"] == R.FAIL for r in changed)
    assert "2 QUADRATIC GROWTHS" in R.summary_line([r for r in rs if r["outcome"] != "hung"] + changed)


def test_a_linear_row_is_not_reported_as_growing_faster_than_linearly():
    rs = _row("fast", lambda n: 2e-7 * n)  # 100,000: 20 ms; 1,000,000: 0.2 s
    (fit,) = growth.fit_row(rs)
    assert fit.kind == "linear" and fit.exponent == pytest.approx(1.0, abs=0.01)
    assert growth.notable({("go", "fast", "tree", "json"): [fit]}) == []


def test_start_up_noise_is_not_fitted_as_growth():
    """Net times within the row's own noise (here every size costs under 10 ms more) give no exponent."""
    rs = _row("flat", lambda n: 0.004 if n > 10_000 else 0.0)
    (fit,) = growth.fit_row(rs)
    assert fit.points == [] and fit.exponent is None and fit.kind is None


def test_a_hang_in_a_row_without_a_fit_stays_a_hang():
    rs = _row("stuck", lambda n: 0.0, hang_above=10_000)
    assert growth.reclassify(rs, LIMIT_S) == []


def test_a_hang_below_the_largest_fitted_size_is_not_explained_by_growth():
    rs = _row("slow", lambda n: 2e-9 * n * n, hang_above=30_000)
    late = [r if r["case_name"] != "deep-3000" else dict(r, outcome="hung", wall_s=10.01) for r in rs]
    assert "deep-3000" not in {r["case_name"] for r in growth.reclassify(late, LIMIT_S)}


def test_the_fixed_cost_is_the_median_of_the_rows_specification_cases():
    base, noise = growth.fixed_cost(_row("x", lambda n: 0.0))
    assert base == pytest.approx(0.010) and noise == pytest.approx(0.0005)


def test_hangs_that_growth_explains_are_stored_again_as_quadratic(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create_robustness_run("rb1", {"command_line": "serbench robustness"}, {"cores": 2}, {"cases": []})
    for r in _row("slow", lambda n: 2e-9 * n * n, hang_above=30_000) + _row("fast", lambda n: 2e-7 * n):
        store.record_robustness("rb1", r)
    store.finish_robustness_run("rb1")
    assert growth.record_reclassified(store, "rb1", LIMIT_S) == 2
    results = store.robustness_results("rb1")
    assert R.totals(results)["quadratic"] == 2 and R.totals(results)["hung"] == 0
    run = dict(store.robustness_run("rb1"))
    md = report.render(run, results)
    assert "| go/slow tree | json | nesting depth (arrays) | **2.00** (quadratic) |" in md
    assert "QUAD" in md and "go/fast" not in md.split("## Growth")[1].split("## Per library")[0]
    glance = md.split("## At a glance")[1].split("## Growth")[0]
    assert "[go: lib-slow 1.0](../../docs/libraries.md#go-harness-harnessesgo)" in glance
    assert "json nesting depth (arrays) ^2.00 (slow tree)" in glance
    findings = report.findings(run, results)
    assert "(libraries.md#go-harness-harnessesgo) ([findings](#go-lib-slow))" in findings
    page = html_report.render_robustness(run, results)
    assert 'href="../../docs/libraries.md#go-harness-harnessesgo"' in page
    assert "<td><b>2.00</b> (quadratic)</td>" in page and "<h3>Processes per harness with each outcome</h3>" in page


def test_the_scan_table_says_what_each_library_crashes_hangs_and_answers_wrong_on():
    rs = [
        _result("deep-1000000", "mutation/deep-nesting", "crashed", 0.2, "a"),
        _result("deep-100000", "mutation/deep-nesting", "hung", 10.0, "a"),
        _result("huge", "mutation/huge-length", "oom", 0.3, "a", C.REJECT),
        _result("bad-1", "spec/structure", "accepted", 0.01, "a", C.REJECT),
        _result("bad-2", "spec/number-grammar", "accepted", 0.01, "a", C.REJECT),
        dict(_result("good", "spec/escapes", "other-hash", 0.01, "a", C.ACCEPT)),
        _result("good-2", "spec/escapes", "rejected", 0.01, "a", C.ACCEPT),
        _result("fine", "spec/escapes", "accepted", 0.01, "b", C.ACCEPT),
    ]
    by = {e["library"]: e for e in scan.scan(rs)}
    a = by["lib-a"]
    assert a["crashes"] == "json: deep-1000000" and a["hangs"] == "json: deep-100000" and a["oom"] == "json: huge"
    assert a["accepts_invalid"].startswith("2 (") and a["wrong"] == "1 wrong values; 1 valid cases rejected"
    assert not by["lib-b"]["failing"] and list(by) == ["lib-a", "lib-b"]  # the failing library first
    counts = scan.per_language(rs)["go"]
    assert counts["crashed"] == counts["hung"] == counts["oom"] == 1
    assert counts["accepts invalid"] == 2 and counts["wrong answer"] == 2


def test_every_harness_links_to_a_section_of_docs_libraries_md():
    text = (ROOT / "docs" / "libraries.md").read_text()
    anchors = {scan.github_anchor(m) for m in re.findall(r"^#{2,4} .*$", text, re.M)}
    for harness, anchor in scan.LIBRARY_SECTIONS.items():
        assert anchor in anchors, harness


# --- the second round of cases -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def extra() -> dict[tuple[str, str], C.Case]:
    return {(c.format, c.name): c for c in G.extra_cases()}


def test_every_depth_family_reaches_a_million_in_every_format(extra):
    base = {(c.format, c.name) for c in C.all_cases()}
    for fmt in C.FORMATS:
        have = base | set(extra)
        for n in (100, 1_000, 3_000, 10_000, 30_000, 100_000, 1_000_000):
            assert (fmt, f"deep-{n}") in have and (fmt, f"deep-map-{n}") in have, (fmt, n)
    # BSON and UBJSON at 10^6 use the same construction as their 10^5 case, one level deeper each
    assert len(extra[("bson", "deep-1000000")].data) == 8 * 1_000_000 + 5  # 8 a level, the root 13
    nested: list = []
    for _ in range(299):
        nested = [nested]
    deep_map: dict = {}
    for _ in range(300):
        deep_map = {"a": deep_map}
    for fmt in C.FORMATS:  # the constructions are the reference encoder's bytes at a depth it can write
        assert G._deep_any(fmt, 300) == F.FORMATS[fmt].encode({"a": nested}), fmt
        assert G._deep_map(fmt, 300) == F.FORMATS[fmt].encode(deep_map), fmt
    assert G._deep_map_hash(300) == C.hash_of(deep_map) and C._nested_hash(300) == C.hash_of({"a": nested})


def test_form_feed_is_not_json_whitespace_case_exists(extra):
    base = {(c.format, c.name): c for c in C.all_cases()}
    assert base[("json", "form-feed-inside")].expect == C.REJECT
    for name in (
        "form-feed-before", "vertical-tab-after", "nbsp-after", "line-separator-inside",
        "ideographic-space-inside", "next-line-after", "zero-width-nbsp-inside", "file-separator-inside",
    ):  # fmt: skip
        c = base.get(("json", name)) or extra[("json", name)]
        assert c.expect == C.REJECT and c.cls == "spec/whitespace", name
        with pytest.raises(F.FormatError):
            C.reference_hash("json", c.data)


def test_trailing_bytes_after_every_json_root_type_are_rejected_cases(extra):
    for root in ("string", "number", "true", "false", "null"):
        for kind in ("nul", "value"):
            c = extra[("json", f"trailing-{kind}-after-{root}")]
            assert c.expect == C.REJECT and c.cls == "spec/trailing"
    assert extra[("json", "trailing-value-after-array")].data == b"[1] 2"
    for fmt in ("msgpack", "cbor", "ubjson"):  # a stream reader stops after one value: the decoder's choice
        c = extra[(fmt, "trailing-nul-after-string")]
        assert c.expect == C.IMPL and c.hashes == (C.hash_of("a"),) and c.data.endswith(b"\x00")


def test_second_round_accept_cases_decode_to_their_hash_and_reject_cases_are_rejected(extra):
    for (fmt, name), c in extra.items():
        if fmt == "ubjson" or c.cls in ("mutation/deep-nesting", "mutation/many-items"):
            continue
        if c.expect == C.ACCEPT:
            assert C.reference_hash(fmt, c.data) == c.hashes[0], name
        elif c.expect == C.REJECT:
            with pytest.raises(F.FormatError):
                C.reference_hash(fmt, c.data)
    assert C.reference_hash("json", extra[("json", "deep-map-100")].data) == extra[("json", "deep-map-100")].hashes[0]


def test_docs_map_every_case_family_to_a_rule_or_limit():
    """docs/robustness.md's grammar map names every class of the built-in cases with each format it has."""
    text = (ROOT / "docs" / "robustness.md").read_text()
    section = text.split("## Which rule each case family tests")[1].split("\n## ")[0]
    mapped = set()
    for line in section.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith(("spec/", "mutation/")):
            mapped |= {(cells[0], f.strip()) for f in cells[1].split(",")}
    names = {"json": "JSON", "msgpack": "MessagePack", "cbor": "CBOR", "bson": "BSON", "ubjson": "UBJSON"}
    missing = {(c.cls, names[c.format]) for c in C.all_cases(extra=True)} - mapped
    assert not missing, sorted(missing)
