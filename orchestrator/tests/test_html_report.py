"""The HTML report (issue 16): built from a fake two-language store, self-contained, with the tables'
numbers in the page, written without charts when the charting library is missing, and drawn in a real
headless Chromium (Debian's package, installed by orchestrator/web/setup.sh --browser) without errors or
network requests. Its data is pinned by a snapshot (set SERBENCH_UPDATE_SNAPSHOTS=1 to rewrite it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from serbench import runner
from serbench.cli import main
from serbench.compare import compare
from serbench.report import html as html_report
from serbench.report import markup
from serbench.report.units import fmt_ns
from serbench.store import Store

from .test_report import ARGS, ENV, _snapshot

ARTIFACTS = Path(__file__).resolve().parents[2] / "results" / "test-artifacts"


def _files(n: int) -> dict:
    return {
        "json": {"file": f"size-{n}.json", "bytes": 358 * 4 ** (n - 1), "gzip_bytes": 250 * n, "zstd_bytes": 240 * n},
        "msgpack": {
            "file": f"size-{n}.msgpack",
            "bytes": 257 * 4 ** (n - 1),
            "gzip_bytes": 230 * n,
            "zstd_bytes": 220 * n,
        },
    }


MANIFEST = {
    "datasets": [
        {"dataset": f"size-{n}", "kind": "schemaless", "size": n, "hash": "0" * 16, "stats": {"payload_bytes": 200 * n},
         "files": _files(n)}
        for n in (1, 2)
    ]
    + [{"dataset": "trade", "kind": "typed", "schema": "trade", "records": 10, "payload_bytes": 400, "hash": "1" * 16,
        "stats": {}, "files": {}}]
}  # fmt: skip
ENV2 = ENV | {"harnesses": {"python": {"runtime": "CPython 3.11.7"}, "rust": {"runtime": "rustc 1.95.0"}}}


def _cell(
    store, run_id, harness, bench, test, dataset, fmt, per_iter_ns, baseline=None, status="ok", reason=None, **first
):
    cid = store.add_cell(
        run_id,
        {
            "harness": harness,
            "bench": bench,
            "test": test,
            "dataset": dataset,
            "format": fmt,
            "library": bench,
            "version": "1.0",
            "notes": "",
            "is_baseline": int(baseline is None),
            "baseline_bench": baseline,
            "measures": f"{test} loop",
        },
    )
    for rnd in range(3):
        samples = [
            {"iterations": 10, "wall_ns": int(10 * per_iter_ns * (1 + 0.01 * ((rnd + i) % 3))), "cpu_ns": None}
            for i in range(4)
        ]
        # the first round also carries what `first` gives: the encoded output, the latency pass
        store.record_round(
            cid, rnd, status, reason, 0.1, samples if status == "ok" else [], **(first if rnd == 0 else {})
        )
    return cid


def make_two_language_run(store: Store, run_id: str = "html-run", serde_speed: float = 1.0) -> None:
    """python and rust, tree on sizes 1 and 2 in JSON and MessagePack, one write row, one row within
    the baseline's noise (rust free), one incorrect (python lossy) and one failed (rust crashy)."""
    store.create_run(run_id, "quick", ARGS, ENV2, MANIFEST)
    store.db.execute("UPDATE runs SET started_at=0 WHERE id=?", (run_id,))
    for h in ("python", "rust"):
        for ds in ("size-1", "size-2"):
            for fmt in ("json", "msgpack"):
                _cell(store, run_id, h, "copy-input", "tree", ds, fmt, 100)
    _cell(store, run_id, "python", "null", "write", "size-1", "json", 40)
    times = {
        ("python", "fastjson", "json"): (1100, 4100),
        ("python", "packer", "msgpack"): (600, 2600),
        ("rust", "serde", "json"): (300 * serde_speed, 1200 * serde_speed),
        ("rust", "rmp", "msgpack"): (250, 900),
    }
    for (h, bench, fmt), (t1, t2) in times.items():
        _cell(store, run_id, h, bench, "tree", "size-1", fmt, t1, baseline="copy-input")
        _cell(store, run_id, h, bench, "tree", "size-2", fmt, t2, baseline="copy-input")
    _cell(store, run_id, "python", "fastjson", "write", "size-1", "json", 540, baseline="null")
    _cell(store, run_id, "rust", "free", "tree", "size-1", "msgpack", 100, baseline="copy-input")
    _cell(store, run_id, "python", "lossy", "tree", "size-1", "json", 1, "copy-input", "incorrect", "hash 11 != 00")
    _cell(
        store, run_id, "rust", "crashy", "tree", "size-2", "msgpack", 1, "copy-input", "failed", "crashed (signal 11)"
    )
    # a typed dataset: encode and decode, the encoded size against the payload, per-record latency
    _cell(store, run_id, "rust", "hash-data-typed", "typed-encode", "trade", "bincode", 100)
    _cell(store, run_id, "rust", "hash-typed", "typed-decode", "trade", "bincode", 200)
    latency = {"count": 1000, "p50_ns": 50, "p99_ns": 80, "p999_ns": 200, "p9999_ns": 900, "max_ns": 5000}
    encoded = bytes(range(200)) * 3  # 600 B: 1.5× the 400 B payload
    _cell(store, run_id, "rust", "codec", "typed-encode", "trade", "bincode", 1100, "hash-data-typed", output=encoded,
          latency=latency)  # fmt: skip
    _cell(store, run_id, "rust", "codec", "typed-decode", "trade", "bincode", 2200, "hash-typed",
          latency=latency | {"p999_ns": 300})  # fmt: skip
    store.compress_pending(run_id)  # as `run` does once the cells are done
    runner.finalize(store, run_id, 200, 1)
    store.finish_run(run_id)
    store.db.execute("UPDATE runs SET finished_at=1 WHERE id=?", (run_id,))


FAKE_LIBRARY = "/* the charting library would be here */"


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store(tmp_path / "s.db")
    make_two_language_run(s)
    return s


def _page(store: Store, library: str | None = FAKE_LIBRARY, note: str = "", trend: bool = False) -> str:
    run = store.run("html-run")
    history = html_report.same_machine_runs(store, run) if trend else None
    return html_report.render(run, store.cells("html-run"), library, note, history)


def _data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="serbench-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def test_the_page_is_self_contained_and_forbids_network_requests(store):
    page = _page(store)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert re.search(r"<script>\s*/\* the charting library would be here \*/\s*</script>", page)
    assert "default-src 'none'" in page  # the browser itself refuses any request the page might make


def test_the_tables_hold_every_number_the_charts_draw(store):
    page = _page(store)
    cells = {(c["harness"], c["bench"], c["test"], c["dataset"], c["format"]): c for c in store.cells("html-run")}
    for key in [
        ("python", "fastjson", "tree", "size-1", "json"),
        ("rust", "serde", "tree", "size-2", "json"),
        ("rust", "rmp", "tree", "size-1", "msgpack"),
        ("python", "fastjson", "write", "size-1", "json"),
    ]:
        c = cells[key]
        assert f">{fmt_ns(c['net_ns'])}</td>" in page, key
        assert f">{fmt_ns(c['net_ci_low_ns'])} – {fmt_ns(c['net_ci_high_ns'])}</td>" in page, key
    # the header states the machine, runtimes and the run's noise
    for fact in ("Test CPU", "python: CPython 3.11.7; rust: rustc 1.95.0", "Median robust CV", "Noisy cells"):
        assert fact in page
    # the incorrect and failed rows are named with their reasons, and the noise row is marked
    assert ">incorrect: hash 11 != 00</td>" in page and ">failed: crashed (signal 11)</td>" in page
    assert ">within baseline noise</td>" in page
    # sizes per format, as in the manifest
    assert '<td data-v="1028.0">1,028</td>' in page  # msgpack size-2 raw bytes


def test_bars_are_ranked_then_within_noise_then_incorrect_and_never_a_bar_for_a_bad_row(store):
    data = _data(_page(store))
    rows = data["rows"]
    times = [c for c in data["charts"] if c.get("view") == "times"]
    tree1 = next(c for c in times if rows[str(c["rows"][0])]["dataset"] == "size-1"
                 and rows[str(c["rows"][0])]["test"] == "tree")  # fmt: skip
    order = [(rows[str(i)]["lang"], rows[str(i)]["bench"], rows[str(i)]["status"]) for i in tree1["rows"]]
    assert order == [
        ("rust", "rmp", "ok"),
        ("rust", "serde", "ok"),
        ("python", "packer", "ok"),
        ("python", "fastjson", "ok"),
        ("rust", "free", "ok"),  # within the baseline's noise: after the ranked rows, though its net is smallest
        ("python", "lossy", "incorrect"),
    ]
    free = rows[str(tree1["rows"][4])]
    assert free["noise"] and free["lo"] <= 0
    lossy = rows[str(tree1["rows"][5])]
    assert lossy["value"] is None and lossy["text"] == "✗ incorrect"  # the script draws no bar without a value


def test_cross_language_view_scaling_and_sizes_have_the_expected_marks(store):
    page = _page(store)
    data = _data(page)
    # the default cross-language combination is the one with most languages, then most rows
    assert '<option value="0" selected>json · Tree · size-1 (3 rows, python, rust)</option>' in page
    assert "Baseline share" in page
    scaling = [c for c in data["charts"] if c["kind"] == "scaling"]
    assert len(scaling) == 1  # tree only: the write row has one size
    labels = {s["label"]: [p[:2] for p in s["points"]] for s in scaling[0]["series"]}
    assert set(labels) == {
        "python/fastjson (json)",
        "python/packer (msgpack)",
        "rust/rmp (msgpack)",
        "rust/serde (json)",
    }
    assert [p[0] for p in labels["rust/serde (json)"]] == [358, 1432]  # x: the document's bytes in its format
    sizes = [c for c in data["charts"] if c["kind"] == "sizes" and "keys" not in c]  # per format
    assert [c["raw"] for c in sizes] == [[358, 257], [1432, 1028]]


def test_typed_rows_show_their_encoded_size_against_the_payload_and_their_latency_percentiles(store):
    page = _page(store)
    data = _data(page)
    typed = next(c for c in data["charts"] if c["kind"] == "sizes" and "keys" in c)
    assert typed["formats"] == ["rust/codec (bincode)"] and typed["raw"] == [600] and typed["payload"] == 400
    assert "theoretical payload 400 B" in page and '<td data-v="1.5">1.50×</td>' in page
    lat = next(c for c in data["charts"] if c["kind"] == "latency")
    assert [s["points"] for s in lat["series"]] == [[50, 80, 300, 900, 5000], [50, 80, 200, 900, 5000]]
    assert lat["names"] == ["p50", "p99", "p99.9", "p99.99", "max"]
    assert ">300 ns</td>" in page and ">5 µs</td>" in page


def test_the_report_data_matches_the_snapshot(store):
    data = _data(_page(store))
    _snapshot("report-html-data.json", json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def test_the_trend_shows_a_cells_net_time_in_every_run_of_this_machine_and_no_other(store):
    make_two_language_run(store, "later", serde_speed=0.5)
    other_machine = {**ENV2, "cpu_model": "Other CPU"}
    store.create_run("elsewhere", "quick", ARGS, other_machine, MANIFEST)
    store.finish_run("elsewhere")
    page = _page(store, trend=True)
    data = _data(page)
    trends = [c for c in data["charts"] if c["kind"] == "trend"]
    assert len(trends) == 12  # every ok cell of the run, each measured in both runs of Test CPU
    serde = next(c for c in trends if c["label"] == "rust/serde/tree/size-2/json")
    assert [p["run"] for p in serde["points"]] == ["html-run", "later"]
    before, after = (p["value"] for p in serde["points"])
    assert after < 0.6 * before  # the later run's serde is about twice as fast
    assert "2 stored runs of this machine" in page and f">{serde['points'][1]['text']}</td>" in page
    assert "earlier estimator" not in page and {p["estimator"] for p in serde["points"]} == {""}


def test_a_trend_across_runs_finalized_with_different_estimators_names_each_runs(store):
    """A run finalized before the fast quarter holds times a little higher from the same samples: the
    trend says which runs those are, so that a step there is not read as the library's."""
    make_two_language_run(store, "later", serde_speed=0.5)
    env = json.loads(store.run("html-run")["env_json"])
    del env["estimator"]  # as a run finalized before 2026-11-27 evening
    store.db.execute("UPDATE runs SET env_json=? WHERE id='html-run'", (json.dumps(env),))
    page = _page(store, trend=True)
    serde = next(
        c for c in _data(page)["charts"] if c["kind"] == "trend" and c["label"] == "rust/serde/tree/size-2/json"
    )
    assert [p["estimator"] for p in serde["points"]] == [
        "The fast half",
        "Choosing clean processes instead of correcting them",
    ]
    assert "1 of these runs computed a cell's time with an earlier estimator" in page
    assert "<th>Estimator</th>" in page and ">the fast half</td>" in page
    assert ">choosing clean processes instead of correcting them</td>" in page


def test_compare_as_html_has_the_ratio_the_ci_and_the_verdict_of_every_cell(store, tmp_path, capsys):
    make_two_language_run(store, "later", serde_speed=0.5)
    cmp = compare(store, "html-run", "later", n_boot=100)
    page = html_report.render_compare(cmp, FAKE_LIBRARY)
    data = _data(page)
    ratios = [r for c in data["charts"] for r in c["rows"]]
    assert len(ratios) == len(cmp.rows) == 12
    serde = next(r for r in cmp.rows if r.key == ("rust", "serde", "tree", "size-2", "json"))
    assert serde.ratio < 0.6
    assert f">{serde.ratio:.3f}</td>" in page and f">{serde.ci[0]:.3f} – {serde.ci[1]:.3f}</td>" in page
    assert f">{serde.verdict}{' ' + serde.mark if serde.mark else ''}</td>" in page
    assert "smallest possible p is 0.100" in page  # the Markdown comparison's notes, said once for both
    assert "Not compared (2 cells)" in page
    store.close()
    out = tmp_path / "cmp.html"
    argv = ["--db", str(tmp_path / "s.db"), "compare", "html-run", "later", "--format", "html", "--output", str(out)]
    assert main(argv) == 0 and "<h1>serbench compare: html-run (A) vs later (B)</h1>" in out.read_text()


def test_without_the_charting_library_the_report_has_the_tables_and_says_how_to_get_charts(store, tmp_path):
    library, note = html_report.chart_library(tmp_path / "web", install=False)
    assert library is None and "npm ci" in note and str(tmp_path / "web") in note
    page = _page(store, None, note)
    assert f'<p class="warn" id="no-charts">{note}</p>' in page and "<script>" in page  # filters and sorting remain
    assert f">{fmt_ns(next(c for c in store.cells('html-run') if c['bench'] == 'serde')['net_ns'])}</td>" in page


def test_a_missing_or_stale_library_is_installed_by_the_folders_setup(tmp_path):
    web = tmp_path / "web"
    web.mkdir()
    (web / "package.json").write_text(json.dumps({"dependencies": {html_report.LIBRARY: "2.0.0"}}))
    # stands in for `npm ci`: installs the version package.json pins, and counts its calls
    (web / "setup.sh").write_text(
        '#!/bin/sh\nset -e\ncd "$(dirname "$0")"\necho x >> calls\n'
        f"mkdir -p node_modules/{html_report.LIBRARY}\n"
        f"echo 'window.Plotly={{}};' > {html_report.LIBRARY_FILE}\n"
        f'echo \'{{"version": "2.0.0"}}\' > node_modules/{html_report.LIBRARY}/package.json\n'
    )
    (web / "setup.sh").chmod(0o755)
    said = []
    assert html_report.chart_library(web, say=said.append) == ("window.Plotly={};\n", "")
    assert (web / "calls").read_text() == "x\n" and "installing the report's charting library" in said[0]
    assert html_report.chart_library(web)[0] is not None and (web / "calls").read_text() == "x\n"  # no reinstall
    (web / "node_modules" / html_report.LIBRARY / "package.json").write_text('{"version": "1.0.0"}')
    assert html_report.chart_library(web)[0] is not None and (web / "calls").read_text() == "x\nx\n"  # stale


def test_report_format_html_writes_the_file_even_when_npm_cannot_install(store, tmp_path, monkeypatch, capsys):
    store.close()
    web = tmp_path / "web"
    web.mkdir()
    (web / "package.json").write_text(json.dumps({"dependencies": {html_report.LIBRARY: "0.0.0"}}))
    (web / "setup.sh").write_text("#!/bin/sh\necho 'npm: not found' >&2\nexit 3\n")
    (web / "setup.sh").chmod(0o755)
    monkeypatch.setattr(markup, "WEB_DIR", web)  # where chart_library looks by default
    out = tmp_path / "out" / "report.html"
    assert main(["--db", str(tmp_path / "s.db"), "report", "html-run", "--format", "html", "--output", str(out)]) == 0
    err = capsys.readouterr().err
    assert "npm: not found" in err and f"wrote {out}" in err
    page = out.read_text()
    assert 'id="no-charts"' in page and "Cross-language view" in page


def test_history_lists_every_run_as_a_table_and_as_json(store, tmp_path, capsys):
    make_two_language_run(store, "second")
    store.close()
    assert main(["--db", str(tmp_path / "s.db"), "history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Run", "Started", "Status", "Mode", "Measure", "Languages", "Cells", "Ok", "Bad",
                                "Wall", "time", "Machine"]  # fmt: skip
    assert lines[1].startswith("html-run  1970-01-01 00:00 UTC  done    quick  time     python,rust  14     12  2")
    assert "1 min 00 s" in lines[1] and "Test CPU, 2 cores" in lines[1] and lines[2].startswith("second")
    assert main(["--db", str(tmp_path / "s.db"), "history", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "serbench.history/1" and [r["id"] for r in doc["runs"]] == ["html-run", "second"]
    assert doc["runs"][0] | {"wall_s": 60.0} == doc["runs"][0] and doc["runs"][0]["languages"] == ["python", "rust"]


# --- in a real browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed by the report's own set-up when missing (root or sudo needed)."""
    exe = shutil.which("chromium")
    if not exe:
        setup = html_report.WEB_DIR / "setup.sh"
        res = subprocess.run([str(setup), "--browser"], capture_output=True, text=True, timeout=1800)
        exe = shutil.which("chromium")
        if not exe:
            why = f"chromium is not installed and {setup} --browser could not install it: {res.stderr[-300:]}"
            # In CI a skip would hide the browser tests for good (it did, when Debian replaced the
            # pinned build): there it fails, so the pin gets updated.
            if os.environ.get("CI"):
                pytest.fail(why)
            pytest.skip(why)
    return exe


@pytest.fixture(scope="session")
def plotly() -> str:
    library, note = html_report.chart_library()
    if library is None:
        pytest.skip(note)
    return library


def _chromium(exe: str, tmp_path: Path, url: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            exe,
            "--headless",
            "--no-sandbox",  # root in a container has no user namespace for the sandbox
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",  # let the charts draw before the DOM is dumped
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


# what Chromium logs for an uncaught error, a refused eval or a request the page's CSP blocked
CONSOLE_TROUBLE = r"Uncaught|CONSOLE.*(Error|Refused|violates)"
HIDDEN_CHART = (
    r'<figure class="view" hidden data-group="\w+" data-choice="\d+"><figcaption>[^<]*</figcaption>'
    r'<div class="pair"><div class="chart[^"]*" id="chart-(\d+)"'
)


def _expected_marks(data: dict, langs: set[str]) -> dict[int, int]:
    """What each drawn chart must show: a bar per ok row, a point per scaling point, three bars per format."""
    out = {}
    for i, c in enumerate(data["charts"]):
        if c["kind"] == "bars":
            out[i] = sum(
                1 for r in c["rows"] if data["rows"][str(r)]["status"] == "ok" and data["rows"][str(r)]["lang"] in langs
            )
        elif c["kind"] == "scaling":
            out[i] = sum(len(s["points"]) for s in c["series"] if s["lang"] in langs)
        elif c["kind"] == "trend":
            out[i] = len(c["points"])
        elif c["kind"] == "latency":
            out[i] = sum(len(s["points"]) for s in c["series"] if s["lang"] in langs)
        elif "keys" in c:  # a typed dataset's sizes: three bars per library row
            out[i] = 3 * sum(1 for k in c["keys"] if k["lang"] in langs)
        else:
            out[i] = 3 * len(c["formats"])
    return out  # fmt: skip


def test_the_report_draws_every_chart_in_chromium_without_errors_or_requests(store, tmp_path, chromium, plotly):
    make_two_language_run(store, "later", serde_speed=0.5)  # a second run of this machine: a trend
    page = _page(store, plotly, trend=True)
    data = _data(page)
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    res = _chromium(chromium, tmp_path, path.as_uri(), "--dump-dom")
    dom = res.stdout
    assert res.returncode == 0 and "<body" in dom, res.stderr[-2000:]
    body = re.search(r"<body[^>]*>", dom).group(0)
    assert "data-errors" not in body, body  # no JS error, no request blocked by the page's CSP
    assert not re.search(CONSOLE_TROUBLE, res.stderr), res.stderr[-2000:]
    expected = _expected_marks(data, {"python", "rust"})
    hidden = {int(m) for m in re.findall(HIDDEN_CHART, page)}
    # the other cross-language combinations (7 in all) and cells with a trend (12) wait for their menu
    assert len(hidden) == 6 + 11
    drawn = {int(i): int(n) for i, n in re.findall(r'id="chart-(\d+)"[^>]*data-marks="(\d+)"', dom)}
    assert drawn == {i: n for i, n in expected.items() if i not in hidden}
    assert f'data-drawn="{len(drawn)}"' in body
    # the marks are really in the SVG: Plotly draws each bar and each scatter point as a .point
    assert len(re.findall(r'class="point"', dom)) == sum(drawn.values())
    assert dom.count('class="errorbar"') >= sum(1 for r in data["rows"].values() if r["status"] == "ok")


def test_the_comparison_draws_a_ratio_per_cell_in_chromium(store, tmp_path, chromium, plotly):
    make_two_language_run(store, "later", serde_speed=0.5)
    path = tmp_path / "cmp.html"
    path.write_text(html_report.render_compare(compare(store, "html-run", "later", n_boot=100), plotly))
    res = _chromium(chromium, tmp_path, path.as_uri(), "--dump-dom")
    body = re.search(r"<body[^>]*>", res.stdout).group(0)
    assert "data-errors" not in body, body
    drawn = [int(n) for n in re.findall(r'id="chart-\d+"[^>]*data-marks="(\d+)"', res.stdout)]
    # size-1 write; size-1 tree, where rust/free (net time within the baseline's noise in A) has no ratio;
    # size-2 tree, where rust/crashy failed and is not compared; trade typed-encode and typed-decode
    assert drawn == [1, 4, 4, 1, 1]
    assert 'data-drawn="5"' in body and 'data-marks="11"' in body
    assert len(re.findall(r'class="point"', res.stdout)) == 2 * 11  # a bar and a dot per ratio


def test_the_page_reports_a_script_error_and_a_blocked_request_so_the_checks_above_can_fail(
    store, tmp_path, chromium, plotly
):
    bad = "<script>setTimeout(function(){new Image().src='http://example.com/x.png';noSuchFunction();},10);</script>"
    path = tmp_path / "bad.html"
    path.write_text(_page(store, plotly).replace("</body></html>", bad + "</body></html>"), encoding="utf-8")
    res = _chromium(chromium, tmp_path, path.as_uri(), "--dump-dom")
    body = re.search(r"<body[^>]*>", res.stdout).group(0)
    assert "noSuchFunction is not defined" in body and "blocked http://example.com/x.png" in body
    assert re.search(CONSOLE_TROUBLE, res.stderr)


def test_a_filter_in_the_url_hides_rows_and_bars_of_other_languages(store, tmp_path, chromium, plotly):
    path = tmp_path / "report.html"
    path.write_text(_page(store, plotly), encoding="utf-8")
    dom = _chromium(chromium, tmp_path, path.as_uri() + "#lang=python", "--dump-dom").stdout
    rust_rows = re.findall(r'<tr data-lang="rust"[^>]*>', dom)
    python_rows = re.findall(r'<tr data-lang="python"[^>]*>', dom)
    assert rust_rows and all(" hidden" in r for r in rust_rows)
    assert python_rows and not any(" hidden" in r for r in python_rows)
    data = _data(dom)
    expected = _expected_marks(data, {"python"})
    drawn = {int(i): int(n) for i, n in re.findall(r'id="chart-(\d+)"[^>]*data-marks="(\d+)"', dom)}
    assert drawn and all(drawn[i] == expected[i] for i in drawn)
    assert len(re.findall(r'class="point"', dom)) == sum(drawn.values())


def test_a_screenshot_of_the_report_is_not_blank(store, tmp_path, chromium, plotly):
    """A page with charts compresses far worse than a blank or broken one; the screenshot is kept in
    results/test-artifacts/ to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "report.html"
    path.write_text(_page(store, plotly), encoding="utf-8")
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    shots = {}
    for name, page in (("report", path), ("blank", blank)):
        shot = ARTIFACTS / f"html-report-{name}.png"
        shot.unlink(missing_ok=True)
        size = ("--window-size=1400,2400", "--hide-scrollbars", f"--screenshot={shot}")
        res = _chromium(chromium, tmp_path, page.as_uri(), *size)
        assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
        shots[name] = shot.read_bytes()
    assert shots["report"][:8] == b"\x89PNG\r\n\x1a\n"
    assert len(shots["report"]) > 20 * len(shots["blank"]), (len(shots["report"]), len(shots["blank"]))


def test_setup_pins_the_browser_and_the_library(root):
    web = root / "orchestrator" / "web"
    # one release line of Debian's chromium, whichever security build of it the archive carries
    assert re.search(r'CHROMIUM_PIN="chromium=\d+\.\d+\.\d+\.\*"', (web / "setup.sh").read_text())
    lock = json.loads((web / "package-lock.json").read_text())
    pinned = json.loads((web / "package.json").read_text())["dependencies"][html_report.LIBRARY]
    assert lock["packages"][f"node_modules/{html_report.LIBRARY}"]["version"] == pinned
    assert os.path.exists(root / ".gitignore") and "node_modules/" in (root / ".gitignore").read_text()


def test_the_first_screen_shows_the_answer_table_without_scrolling(store, tmp_path, chromium, plotly):
    """DESIGN §13: the answer comes first. At a laptop's 1400×900 window, every row of the answer table is
    on the first screen (the page's script measures each row's box after layout); the screenshot of that
    screen is kept in results/test-artifacts/ to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "report.html"
    path.write_text(_page(store, plotly), encoding="utf-8")
    dom = _chromium(chromium, tmp_path, path.as_uri(), "--window-size=1400,900", "--dump-dom").stdout
    body = re.search(r"<body[^>]*>", dom).group(0)
    rows = int(re.search(r'data-answer-rows="(\d+)"', body).group(1))
    assert rows >= 6  # size-1 write and tree, size-2 tree, trade: each language's fastest row
    assert f'data-answer-on-first-screen="{rows}"' in body
    # the answer precedes every chart and the method, which is one click away
    assert dom.index('id="answer"') < dom.index('id="method"') < dom.index('id="cross"') < dom.index('id="times"')
    shot = ARTIFACTS / "html-report-first-screen.png"
    shot.unlink(missing_ok=True)
    res = _chromium(
        chromium, tmp_path, path.as_uri(), "--window-size=1400,900", "--hide-scrollbars", f"--screenshot={shot}"
    )
    assert res.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_link_of_the_page_has_its_target_and_an_absent_view_says_why(store):
    page = _page(store)
    targets = set(re.findall(r'href="#([\w-]+)"', page))
    assert targets and all(f'id="{t}"' in page for t in targets)
    # one run of this machine: no trend, named once with why, never an empty section
    trend_page = _page(store, trend=True)
    assert 'id="trend"' not in trend_page
    assert "Not shown: Trend (no cell of this run measured in another stored run of this machine)" in trend_page


def test_a_chart_whose_times_span_more_than_ten_times_is_drawn_on_a_log_axis(tmp_path, chromium, plotly):
    store = Store(tmp_path / "s.db")
    store.create_run("wide", "quick", ARGS, ENV2, MANIFEST)
    for h in ("python", "rust"):
        _cell(store, "wide", h, "copy-input", "tree", "size-1", "json", 100)
    # size-1 tree spans 40x (rust/quick 200 ns net, python/slow 8 µs); size-2 none
    for h, bench, t in (("rust", "quick", 300), ("python", "middling", 1100), ("python", "slow", 8100)):
        _cell(store, "wide", h, bench, "tree", "size-1", "json", t, baseline="copy-input")
    _cell(store, "wide", "python", "copy-input", "write", "size-2", "json", 100)
    _cell(store, "wide", "python", "fastjson", "write", "size-2", "json", 600, baseline="copy-input")
    _cell(store, "wide", "python", "slowjson", "write", "size-2", "json", 900, baseline="copy-input")
    runner.finalize(store, "wide", 200, 1)
    store.finish_run("wide")
    path = tmp_path / "report.html"
    page = html_report.render(store.run("wide"), store.cells("wide"), plotly)
    path.write_text(page, encoding="utf-8")
    dom = _chromium(chromium, tmp_path, path.as_uri(), "--dump-dom").stdout
    data = _data(page)
    axes = {int(i): a for i, a in re.findall(r'id="chart-(\d+)"[^>]*data-axis="(\w+)"', dom)}
    assert axes
    for i, axis in axes.items():
        rows = [data["rows"][str(r)] for r in data["charts"][i]["rows"]]
        values = [r["value"] for r in rows if r["status"] == "ok" and not r["noise"] and r["value"] > 0]
        spans = len(values) > 1 and max(values) / min(values) > 10
        assert axis == ("log" if spans else "linear"), (i, values)
    assert "log" in axes.values() and "linear" in axes.values()  # the fixture has both kinds
