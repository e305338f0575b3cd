package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/hostile"
	"serbench/harnesses/go/internal/refdec"
)

const vectors = "../../vectors"

func TestSelftestPassesEveryVectorWithEveryBenchmark(t *testing.T) {
	pass, fail, skip, err := selftest(vectors, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if fail != 0 || pass < 1000 {
		t.Fatalf("%d passed, %d failed, %d skipped (run `serbench-go selftest --vectors vectors` for the lines)", pass, fail, skip)
	}
}

func TestEveryRowListsItsExactLibraryVersion(t *testing.T) {
	for _, b := range adapters.All() {
		if v := b.Version(); v == "unknown" || v == "" {
			t.Errorf("%s: no version for module %q", b.ID, b.Module)
		}
	}
}

// decodeRows yields every (row, test, format) that decodes input, for the formats the hostile
// documents are made in.
func decodeRows(yield func(b *adapters.Bench, test, format string)) {
	for _, b := range adapters.All() {
		for _, test := range []string{"tree", "incremental"} {
			for _, f := range []string{"json", "msgpack", "cbor", "bson"} {
				if b.Supports(test, f) {
					yield(&b, test, f)
				}
			}
		}
	}
}

// quadraticInDepth lists rows whose time grows with the square of the nesting depth (each level
// scans its whole nested block again): at 10,000 levels jsonparser took 0.2-0.7 s and segmentio
// 0.8-1.3 s, so 100,000 would take minutes. They are tested 10,000 deep; the orchestrator's
// timeout is what stops them on a deeper document.
var quadraticInDepth = map[string]bool{"jsonparser": true, "segmentio-json": true}

func TestDeepNestingIsHashedOrRejectedCleanlyByEveryRow(t *testing.T) {
	for _, maps := range []bool{false, true} {
		want := map[string]uint64{}
		decodeRows(func(b *adapters.Bench, test, f string) {
			depth := 100_000
			if quadraticInDepth[b.ID] {
				depth = 10_000
			}
			data := hostile.Deep(f, depth, maps)
			key := fmt.Sprintf("%s-%d", f, depth)
			if _, ok := want[key]; !ok {
				tree, err := refdec.Decode(f, data)
				if err != nil {
					t.Fatal(err)
				}
				want[key], _ = hash.Any(tree)
			}
			h, fail := verify(b, test, f, data)
			switch {
			case fail == nil && h != want[key]:
				t.Errorf("%s %s %s maps=%v: accepted with hash %s, want %s", b.ID, test, f, maps, hash.Hex64(h), hash.Hex64(want[key]))
			case fail != nil && fail.code != exitRejected && fail.code != exitInput:
				t.Errorf("%s %s %s: exit %d", b.ID, test, f, fail.code)
			case fail != nil:
				t.Logf("%s %s %s maps=%v: rejected (exit %d): %.100s", b.ID, test, f, maps, fail.code, fail.reason)
			default:
				t.Logf("%s %s %s maps=%v: decoded %d levels", b.ID, test, f, maps, depth)
			}
		})
	}
}

func TestTruncatedInputIsRejectedWithoutCrashingTheHarness(t *testing.T) {
	decodeRows(func(b *adapters.Bench, test, f string) {
		ext := map[string]string{"json": "json", "msgpack": "msgpack", "cbor": "cbor", "bson": "bson"}[f]
		data, err := os.ReadFile(filepath.Join(vectors, "all-types."+ext))
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{1, len(data) / 3, len(data) / 2, len(data) - 1} {
			h, fail := verify(b, test, f, data[:cut])
			if fail == nil {
				// a lenient parser may accept a prefix; it is then a different document
				t.Logf("%s %s %s: accepted %d of %d bytes (hash %s)", b.ID, test, f, cut, len(data), hash.Hex64(h))
				continue
			}
			// a row's library rejects (3); the reference decoder rejects the input (6) of a
			// baseline, and of a row of a library's own format (it reads the corpus file first)
			want := exitRejected
			if b.IsBaseline() || b.Own != nil {
				want = exitInput
			}
			if fail.code != want {
				t.Errorf("%s %s %s cut at %d: exit %d (%s), want %d", b.ID, test, f, cut, fail.code, fail.reason, want)
			}
		}
	})
}

func TestAPanicInALibraryBecomesItsError(t *testing.T) {
	_, err := adapters.Lib(func() (int, error) { panic("boom") })
	if err == nil || err.Error() != "library panicked: boom" {
		t.Fatalf("got %v", err)
	}
}

func TestEveryWriteRowEncodesATree100000DeepOrFailsCleanly(t *testing.T) {
	for _, b := range adapters.All() {
		if b.Write == nil {
			continue
		}
		f := b.Formats[0]
		want, _ := refdec.Decode(f, hostile.Deep(f, 100_000, false))
		wantHash, _ := hash.Any(want)
		h, fail := verify(&b, "write", f, hostile.Deep(f, 100_000, false))
		switch {
		case fail == nil && h != wantHash:
			t.Errorf("%s: wrote a document with hash %s, want %s", b.ID, hash.Hex64(h), hash.Hex64(wantHash))
		case fail != nil && fail.code != exitRejected:
			t.Errorf("%s: exit %d (%s)", b.ID, fail.code, fail.reason)
		case fail != nil:
			t.Logf("%s: refused (exit 3): %.100s", b.ID, fail.reason)
		}
	}
}

// deepHash is the hash of hostile.Deep(f, depth, maps), computed without a tree.
func deepHash(depth int, maps bool) uint64 {
	one := func(key string, h uint64) uint64 { return hash.MapEnd(hash.MapTerm(hash.Str(key), h), 1) }
	h := hash.ArrayEnd(hash.ArrayTerm(0, hash.U64(1))+hash.ArrayTerm(1, hash.Str("x")), 2)
	if maps {
		h = one("b", hash.U64(1))
	}
	for i := 0; i < depth; i++ {
		if maps {
			h = one("a", h)
		} else {
			h = hash.ArrayEnd(hash.ArrayTerm(0, h), 1)
		}
	}
	return one("a", h)
}

func TestHashObjectHashesADocumentNested1000000DeepThatHashWalkRefusesCleanly(t *testing.T) {
	var object, walk adapters.Bench
	for _, b := range adapters.All() {
		switch b.ID {
		case "hash-object":
			object = b
		case "hash-walk":
			walk = b
		}
	}
	for _, maps := range []bool{false, true} {
		data := hostile.Deep("json", 1_000_000, maps)
		if h, fail := verify(&object, "tree", "json", data); fail != nil || h != deepHash(1_000_000, maps) {
			t.Errorf("hash-object maps=%v: %s %v, want %s", maps, hash.Hex64(h), fail, hash.Hex64(deepHash(1_000_000, maps)))
		}
		// the type-switch walk recurses: deeper than hash.MaxDepth is the harness's limit (exit 6)
		if _, fail := verify(&walk, "tree", "json", data); fail == nil || fail.code != exitInput {
			t.Errorf("hash-walk maps=%v: %v, want exit %d", maps, fail, exitInput)
		}
	}
}

func TestHashWalkIsABaselineThatNoRowSubtracts(t *testing.T) {
	found := false
	for _, b := range adapters.All() {
		if b.ID == "hash-walk" {
			found = b.IsBaseline()
		}
		for _, test := range b.Tests() {
			if !b.IsBaseline() && b.Baseline(test) == "hash-walk" {
				t.Errorf("%s %s subtracts hash-walk", b.ID, test)
			}
		}
	}
	if !found {
		t.Fatal("no hash-walk baseline")
	}
}

// Protocol 1.9 (spec/protocol.md run step 4): every sample row of the timed paths carries the time
// of the canary run just before its batch; the instruction-count mode reads no clock and the
// latency pass writes no sample row, so neither has one.
func TestSampleRowsCarryTheCanaryTime(t *testing.T) {
	for _, c := range holdCells(t) {
		t.Run(c.name, func(t *testing.T) {
			code, rows := runCell(t, c.args...)
			if code != exitOK {
				t.Fatalf("exit %d, rows %v", code, rows)
			}
			samples := 0
			for _, r := range rows {
				if r["kind"] != "sample" {
					continue
				}
				samples++
				if ns, ok := r["canary_ns"].(float64); !ok || ns <= 0 || ns != float64(uint64(ns)) {
					t.Errorf("sample row %v: canary_ns is not a positive integer", r)
				}
			}
			if c.row == "sample" && samples == 0 {
				t.Fatalf("no sample row: %v", rows)
			}
			if c.row != "sample" && samples != 0 {
				t.Fatalf("%d sample rows beside the %s row", samples, c.row)
			}
		})
	}
	c := holdCells(t)[0]
	code, rows := runCell(t, append(slices.Clone(c.args), "--iterations", "3")...)
	if s := kindRow(rows, "sample"); code != exitOK || s == nil || s["canary_ns"] != nil {
		t.Fatalf("--iterations: exit %d, sample row %v (want one, without canary_ns)", code, s)
	}
}
