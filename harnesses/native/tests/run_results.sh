#!/bin/sh
# ctest: `run` with a tiny budget writes a valid results file (check, info, samples, each with its
# canary's time, protocol step 4), `--alloc` writes an alloc row and `--iterations N` one sample row
# of N iterations (no canary), from the baseline's instruction-count build (bench-<id>-counted).
# Usage: run_results.sh <serbench-native> <vectors dir>
set -eu
drv=$1
vec=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
hash=$(python3 -c 'import json,sys; print(next(v["hash"] for v in json.load(open(sys.argv[1]))["vectors"] if v["name"]=="all-types"))' "$vec/vectors.json")
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash "$hash" --results "$out" --budget-ms 20 --min-samples 3
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash "$hash" --results "$out" --alloc --no-check
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
kinds = [r["kind"] for r in rows]
assert kinds[0] == "check" and rows[0]["ok"] is True, rows[0]
samples = [r for r in rows if r["kind"] == "sample"]
assert len(samples) >= 3, kinds
for s in samples:
    assert s["iterations"] >= 1 and s["wall_ns"] > 0 and s["cpu_ns"] >= 0, s
    # protocol 1.9, step 4: the canary timed alone just before the batch, an integer of nanoseconds
    assert isinstance(s.get("canary_ns"), int) and s["canary_ns"] > 0, s
alloc = [r for r in rows if r["kind"] == "alloc"]
assert len(alloc) == 1 and alloc[0]["allocs_per_op"] == 0, alloc
print("ok:", len(rows), "rows")
PY
# --iterations N (protocol step 9): exactly one sample row of N iterations, no calibration row
: >"$out"
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash "$hash" --results "$out" --iterations 7
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
samples = [r for r in rows if r["kind"] == "sample"]
assert len(samples) == 1 and samples[0]["iterations"] == 7, rows
assert "canary_ns" not in samples[0], samples  # step 9 reads no clock: no canary
assert not any("batch" in r for r in rows), rows
assert rows[0]["kind"] == "check" and rows[0]["ok"] is True, rows[0]
# the driver ran the instruction-count build of the baseline (bench-hash-object-counted)
info = [r for r in rows if r["kind"] == "info"]
assert info and "instruction-count build" in info[0]["measures"], info
PY
# and only under --iterations
: >"$out"
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash "$hash" --results "$out" --budget-ms 5 --min-samples 1
grep -q '"kind":"info"' "$out" && ! grep -q "instruction-count build" "$out" || { echo "time run used the counted build"; exit 1; }
rc=0
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash "$hash" --results "$out" --iterations 0 2>/dev/null || rc=$?
[ "$rc" = 2 ] || { echo "expected exit 2 for --iterations 0, got $rc"; exit 1; }
# wrong hash -> exit 4 with a failed check row
rc=0
"$drv" run --bench hash-object --test tree --format json --file "$vec/all-types.json" \
  --expect-hash 0000000000000000 --results "$out" --budget-ms 5 || rc=$?
[ "$rc" = 4 ] || { echo "expected exit 4 on a hash mismatch, got $rc"; exit 1; }
# unknown benchmark -> 2, unsupported format -> 5
rc=0; "$drv" run --bench no-such --test tree --format json --file x --expect-hash 0 --results "$out" || rc=$?
[ "$rc" = 2 ] || { echo "expected exit 2 for an unknown benchmark, got $rc"; exit 1; }
rc=0; "$drv" run --bench hash-data --test tree --format json --file "$vec/all-types.json" --expect-hash 0 --results "$out" || rc=$?
[ "$rc" = 5 ] || { echo "expected exit 5 for an unsupported test, got $rc"; exit 1; }
echo "run-results ok"
