"""`serbench compare` as text: Markdown (a quick pair's short form, or every cell with its CI and
verdict) and JSON, from compare.compare()'s Comparison."""

from __future__ import annotations

import json
import math

from . import noiseband, stats
from .compare import (
    AGREE,
    ALPHA,
    CI_ONLY,
    DATASET_MOVE,
    TEST_ONLY,
    Comparison,
    Row,
    by_dataset,
    common_shift,
    countable,
    datasets_moved,
    shifted_verdicts,
)
from .report.units import fmt_instr, fmt_ns


def _render_instructions(cmp: Comparison, out: list[str]) -> str:
    rows = cmp.rows
    same = sum(1 for r in rows if r.verdict == "identical")
    out += [
        f"Identical: {same} of {len(rows)} cells.",
        "",
        "| Lang | Benchmark | Test | Dataset | Format | A instr/op | B instr/op | B/A | Verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        h, b, t, d, f = r.key
        ratio = "–" if math.isnan(r.ratio) else f"{r.ratio:.4f}"
        out.append(
            f"| {h} | {b} | {t} | {d} | {f} | {fmt_instr(r.a_ns)} | {fmt_instr(r.b_ns)} | {ratio} | {r.verdict} |"
        )
    out += ["", "Geometric mean of B/A per library (no CI: counts have no sampling error):", ""]
    out += ["| Library | Cells | Geomean B/A |", "|---|---|---|"]
    out += [f"| {lib} | {g.cells} | {g.value:.4f} |" for lib, g in cmp.geo.items()]
    return out


def _fmt_ci(ci: tuple[float, float]) -> str:
    return "–" if any(math.isnan(x) for x in ci) else f"{ci[0]:.3f} – {ci[1]:.3f}"


def render(cmp: Comparison, every: bool = False) -> str:
    """The comparison as Markdown. Where no cell can be significant (quick mode's few processes), it
    leads with the agreement and the cells outside the pair's noise band, and collapses the rest
    unless `every`; otherwise, every cell with its CI and verdict."""
    rows = cmp.rows
    counting = cmp.measure == "instructions"
    floor = stats.min_possible_p(*cmp.rounds) if all(cmp.rounds) else 1.0
    quick = not every and not counting and (floor >= ALPHA or bool(rows and floor * len(rows) >= ALPHA))
    intro = (
        "Ratio = B / A of net time per operation (below 1: B is faster)."
        if quick
        else "Ratio = B / A of net instructions per operation, counted under valgrind (below 1: B executes fewer). "
        "A count is exact: the same build on the same data counts the same on every run, so there is no CI "
        "and no significance test, and *identical* means equal gross and baseline counts. Fewer instructions "
        "need not mean less time (memory stalls, cache misses and branch mispredictions are not counted)."
        if counting
        else "Ratio = B / A of net time per operation (below 1: B is faster). CI: 95% bootstrap. "
        "Significance: two-sided Mann-Whitney U on round medians, Holm-adjusted over all "
        f"{len(rows)} cells, α = {ALPHA}."
    )
    out = [f"# serbench compare: {cmp.run_a} (A) vs {cmp.run_b} (B)", "", intro, ""]
    if cmp.same_run:
        out += [
            f"> **⚠ A and B are the same run ({cmp.run_a}):** every ratio is 1 by construction and nothing can "
            "differ. Compare two different runs (`serbench report --list` lists them).",
            "",
        ]
    if cmp.machine:
        out += [
            "> **⚠ Different machines:** " + "; ".join(cmp.machine) + ". The ratios mix the machines' speed with "
            "the libraries'; compare runs made on one machine.",
            "",
        ]
    if cmp.noisy:
        within = f"within about ±{cmp.noise_ci:.0%} of 1 " if cmp.noise_ci else "near 1 "
        out += [
            "> **⚠ Noisy runs:** " + " and ".join(cmp.noisy) + f". Ratios {within}may be the machine's, not the "
            "libraries': two runs of one build on a host that noisy repeat far less often than on a quiet one "
            '(docs/methodology.md, "A noisy run"). Compare runs made on a quiet machine, or in `--mode full`.',
            "",
        ]
    if cmp.settings:
        out += [
            "> **⚠ Different settings:** " + "; ".join(cmp.settings) + ". A difference may come from these, "
            "not from the libraries.",
            "",
        ]
    if cmp.recomputed:
        runs = " and ".join(f"run {r}" for r in cmp.recomputed)
        out += [
            f"Times computed again: the stored times of {runs} come from an earlier estimator; this comparison "
            f"computes them from the samples with the {stats.ESTIMATOR}, so both sides of each ratio come from "
            "one estimator.",
            "",
        ]
    if cmp.commits[0] != cmp.commits[1] or any(cmp.dirty):
        sides = [
            f"{commit} ({side}{', dirty working tree' if dirty else ''})"
            for commit, side, dirty in zip(cmp.commits, "AB", cmp.dirty, strict=True)
        ]
        out += [f"Commits: {', '.join(sides)}.", ""]
    if counting:
        out = _render_instructions(cmp, out)
        return "\n".join(out + _not_compared(cmp)) + "\n"
    if quick:
        return "\n".join(out + _quick(cmp)) + "\n"
    if floor >= ALPHA:
        out += [
            f"Note: with {cmp.rounds[0]} and {cmp.rounds[1]} rounds the smallest possible p is {floor:.3f}, so no "
            "cell can be significant; run both in full mode (`--mode full`) for a verdict.",
            "",
        ]
    elif rows and floor * len(rows) >= ALPHA:
        # Holm's first step needs p < alpha / m: with few rounds and many cells nothing can pass it.
        out += [
            f"Note: with at least {cmp.rounds[0]} and {cmp.rounds[1]} rounds the smallest possible p is "
            f"{floor:.2g}, and Holm's adjustment over {len(rows)} cells needs one below {ALPHA / len(rows):.2g} "
            "before any cell can be significant; run both in full mode (`--mode full`, 10 rounds or more) for a "
            "verdict.",
            "",
        ]
    out += agreement(rows) + [
        "| Lang | Benchmark | Test | Dataset | Format | A | B | B/A | 95% CI | p (adj.) | Verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        h, b, t, d, f = r.key
        out.append(
            f"| {h} | {b} | {t} | {d} | {f} | {fmt_ns(r.a_ns)} | {fmt_ns(r.b_ns)} | {r.ratio:.3f} | "
            f"{_fmt_ci(r.ci)} | {r.p_adj:.3g} | {r.verdict}{(' ' + r.mark) if r.mark else ''}"
            f"{f' {NOISE_MARK} within baseline noise in {r.noise}' if r.noise else ''} |"
        )
    n_rounds = f"{cmp.rounds[0]} and {cmp.rounds[1]}" if cmp.rounds[0] != cmp.rounds[1] else str(cmp.rounds[0])
    if any(r.mark == CI_ONLY for r in rows):
        out += [
            "",
            f"{CI_ONLY} The CI excludes 1 but the verdict is *not significant*: they answer different questions. "
            "The CI resamples every sample of this cell's rounds and is for this cell alone: it says how precisely "
            "these two runs measured the ratio. The verdict ranks the cell's round medians (each round is a fresh "
            f"process, the independent unit: {n_rounds} of them here) and is adjusted for the {len(rows)} cells "
            "compared (Holm): it says whether the difference would show again in other processes. Few rounds cannot "
            "reach significance, so read such a row as *measured, not yet proven*; more rounds (`--mode full`) "
            "decide it.",
        ]
    if any(r.noise for r in rows):
        out += [
            "",
            f"{NOISE_MARK} *within baseline noise in A (or B)*: that run's net time has a 95% CI that reaches zero, "
            "so the net is mostly the baseline's noise and its ratio means nothing; such cells are left out of "
            "the agreement count and the geometric means. The verdict, which compares gross round medians, "
            "still holds.",
        ]
    if any(r.mark == TEST_ONLY for r in rows):
        out += [
            "",
            f"{TEST_ONLY} Significant, yet the CI includes 1: the rank test compares the cells' gross round medians, "
            "while the ratio and its CI are of net times (gross − baseline), which carry the baseline's noise too. "
            "The gross times differ reliably; the net ratio is not known precisely.",
        ]
    out += [
        "",
        "Geometric mean of B/A per library, with a 95% bootstrap CI (cells resampled, then each cell's own "
        "bootstrap ratios):",
        "",
        "| Library | Cells | Geomean B/A | 95% CI |",
        "|---|---|---|---|",
    ]
    out += [f"| {lib} | {g.cells} | {g.value:.3f} | {_fmt_ci(g.ci)} |" for lib, g in cmp.geo.items()]
    return "\n".join(out + _not_compared(cmp)) + "\n"


#: the most cells outside the noise band a quick comparison lists (`--all` lists every cell)
QUICK_ROWS = 15


def _quick(cmp: Comparison) -> list[str]:
    """A quick pair's short form (issue 70): the agreement, then the cells outside the noise band
    (noiseband.py), furthest first, as "probably faster / slower", and one line for the rest."""
    rows = cmp.rows
    out = agreement(rows)
    b = noiseband.band(rows, AGREE)
    if b is None:
        out += [f"Too few cells ({len(countable(rows))}) to measure the pair's noise band; `--all` lists them.", ""]
    else:
        out += [
            f"**{len(b.outside)} of {b.cells} cells lie outside the noise band** (each cell's own spread over its "
            f"processes, plus the host's, ±{b.host_sd:.1%} on this pair, at {b.z:.1f} standard errors; the pair's "
            f"common shift {b.shift:.3f} taken out). Quick mode cannot test significance "
            f"({cmp.rounds[0]} and {cmp.rounds[1]} processes a cell): confirm with `--mode full`.",
            "",
        ]
        if b.outside:
            out += [
                "| Lang | Benchmark | Test | Dataset | Format | A | B | B/A | |",
                "|---|---|---|---|---|---|---|---|---|",
            ]
            for o in b.outside[:QUICK_ROWS]:
                r = o.row
                out.append(f"| {' | '.join(r.key)} | {fmt_ns(r.a_ns)} | {fmt_ns(r.b_ns)} | {r.ratio:.3f} | {o.word} |")
            more = len(b.outside) - QUICK_ROWS
            out += [f"… and {more} more outside the band." if more > 0 else "", ""]
    rest = f"{len(rows)} cells compared"
    if cmp.not_compared:
        rest += f", {len(cmp.not_compared)} not (measured in one run only, or not ok in one)"
    out.append(f"{rest}: `serbench compare {cmp.run_a} {cmp.run_b} --all` lists every cell, CI and geometric mean.")
    return [line for i, line in enumerate(out) if line or (i and out[i - 1])]


NOISE_MARK = "‡"


def agreement(rows: list[Row]) -> list[str]:
    """How often two runs agree, in one paragraph: the share of cells whose net-time ratio is within
    ±5% of 1, the cells furthest out, and the count of each verdict. For two runs of the same build this
    is the run-to-run reproducibility the report's CIs promise."""
    finite = countable(rows)
    if not finite:
        return []
    noisy = sum(1 for r in rows if r.noise)
    inside = [r for r in finite if abs(r.ratio - 1) <= AGREE]
    far = sorted(
        (r for r in finite if abs(r.ratio - 1) > AGREE), key=lambda r: -abs(math.log(r.ratio)) if r.ratio > 0 else 0
    )
    verdicts: dict[str, int] = {}
    for r in rows:
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    line = (
        f"Agreement: {len(inside)} of {len(finite)} cells ({len(inside) / len(finite):.1%}) have B/A of net time "
        f"within ±{AGREE:.0%}"
        + (f" ({noisy} more within baseline noise in A or B, {NOISE_MARK}, not counted)" if noisy else "")
        + ". Verdicts: "
        + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        + "."
    )
    shift = common_shift(finite)
    if shift is not None and abs(shift - 1) > 0.005:
        within = sum(1 for r in finite if abs(r.ratio / shift - 1) <= AGREE)
        line += (
            f" Run B is {abs(shift - 1):.1%} {'slower' if shift > 1 else 'faster'} across the board (the median "
            f"B/A: the machine, not a library; ratios inside one run do not see it): with that taken out, "
            f"{within} of {len(finite)} ({within / len(finite):.1%}) agree within ±{AGREE:.0%}"
        )
        shifted = shifted_verdicts(rows, shift)
        line += (
            (", and the verdicts would be " + ", ".join(f"{n} {v}" for v, n in sorted(shifted.items())) + ".")
            if shifted
            else "."
        )
    moved = datasets_moved(finite, shift)
    if moved:
        shown = ", ".join(
            f"{ds} {d.median_ratio:.3f} ({d.agreeing} of {d.cells} within ±{AGREE:.0%})" for ds, d in moved
        )
        line += (
            f" Datasets whose cells moved together, {DATASET_MOVE:.0%} or more beyond the run's median "
            f"(median B/A): {shown}; between two runs of one build that is the machine again (large data "
            "lean on the caches and memory a host shares with its other guests), not a library."
        )
    if far:
        shown = ", ".join(f"{r.key[1]} {r.key[2]} {r.key[3]} {r.key[4]} ({r.ratio:.3f})" for r in far[:8])
        line += f" Furthest out: {shown}" + (f" and {len(far) - 8} more" if len(far) > 8 else "") + "."
    return [line, ""]


def _not_compared(cmp: Comparison) -> list[str]:
    out = []
    if cmp.versions:
        out += ["", "Library versions that differ: " + "; ".join(cmp.versions) + "."]
    if cmp.not_compared:
        out += [
            "",
            f"Not compared ({len(cmp.not_compared)} {'cell' if len(cmp.not_compared) == 1 else 'cells'} not "
            "measured in both runs):",
            "",
            "| Lang | Benchmark | Test | Dataset | Format | Why |",
            "|---|---|---|---|---|---|",
        ]
        out += [f"| {' | '.join(k)} | {why.replace('|', '/')} |" for k, why in cmp.not_compared]
    return out


def _finite(x):
    """NaN (no CI, no p-value) as null: JSON has no NaN."""
    if isinstance(x, tuple | list):
        return [_finite(v) for v in x]
    return None if isinstance(x, float) and math.isnan(x) else x


def to_json(cmp: Comparison) -> str:
    counting = cmp.measure == "instructions"
    shift = common_shift(cmp.rows)
    return json.dumps(
        {
            "run_a": cmp.run_a,
            "run_b": cmp.run_b,
            "measure": cmp.measure,
            "same_run": cmp.same_run,
            "machine_differences": cmp.machine,
            "setting_differences": cmp.settings,
            "recomputed": cmp.recomputed,
            "version_differences": cmp.versions,
            "noisy_runs": cmp.noisy,
            "commits": cmp.commits,
            "dirty": cmp.dirty,
            "agree_within": AGREE,
            "cells_agreeing": sum(1 for r in countable(cmp.rows) if abs(r.ratio - 1) <= AGREE),
            "cells_counted": len(countable(cmp.rows)),
            "common_shift": shift,
            # the count of each verdict with the common shift taken out ({} when none is estimated)
            "verdicts_without_shift": shifted_verdicts(cmp.rows, shift) if shift else {},
            "by_dataset": {
                ds: {"median_ratio": d.median_ratio, "cells": d.cells, "agreeing": d.agreeing}
                for ds, d in by_dataset(cmp.rows).items()
            },
            "rows": [
                {
                    "key": r.key,
                    # net ns per operation, or net instructions per operation in an instruction-count run
                    **(
                        {"a_instructions": r.a_ns, "b_instructions": r.b_ns}
                        if counting
                        else {"a_ns": r.a_ns, "b_ns": r.b_ns}
                    ),
                    "ratio": _finite(r.ratio),
                    "ci": _finite(r.ci),
                    "p": _finite(r.p),
                    "p_adjusted": _finite(r.p_adj),
                    "verdict": r.verdict,
                    "ci_and_verdict_differ": bool(r.mark),
                    "within_baseline_noise": r.noise or None,
                }
                for r in cmp.rows
            ],
            "geomean": {
                lib: {"value": _finite(g.value), "ci": _finite(g.ci), "cells": g.cells} for lib, g in cmp.geo.items()
            },
            "not_compared": [{"key": k, "why": why} for k, why in cmp.not_compared],
        },
        indent=1,
    )
