package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/measure"
)

// The work contract (spec/fairness.md, DESIGN.md section 12): every row's `steps` in `list` are its
// test's contract unless it says how it deviates, and the loops do what their steps say, as far as
// a test can tell from outside.

// contractWords are the words of every test's contract, rows and baselines.
func contractWords() []string {
	var w []string
	for _, t := range protocolTests {
		w = append(w, adapters.ContractSteps(t, false)...)
		w = append(w, adapters.ContractSteps(t, true)...)
	}
	return w
}

func TestEveryRowsStepsAreItsContractUnlessItNamesItsDeviation(t *testing.T) {
	words := contractWords()
	for _, b := range adapters.All() {
		for _, test := range b.Tests() {
			steps := b.StepsOf(test)
			for _, w := range steps {
				if !slices.Contains(words, w) && !slices.Contains(adapters.Deviations, w) {
					t.Errorf("%s %s: step %q is neither a contract word nor a deviation word", b.ID, test, w)
				}
			}
			if slices.Equal(steps, adapters.ContractSteps(test, b.IsBaseline())) {
				continue
			}
			deviates := slices.ContainsFunc(steps, func(w string) bool { return slices.Contains(adapters.Deviations, w) })
			// a row that does another test's work says so by that test's contract, and subtracts
			// that test's baseline (mongo-bson-raw: an incremental row that walks a tree, as
			// hash-object does for it)
			other := false
			for _, t2 := range protocolTests {
				if t2 != test && slices.Equal(steps, adapters.ContractSteps(t2, b.IsBaseline())) &&
					(b.IsBaseline() || b.Baseline(test) == adapters.DefaultBaseline(t2)) {
					other = true
				}
			}
			if !deviates && !other {
				t.Errorf("%s %s: steps %v are not the contract %v and name no deviation", b.ID, test, steps, adapters.ContractSteps(test, b.IsBaseline()))
			}
		}
		// a row whose id says it is a variant says so in its steps
		for suffix, word := range map[string]string{"-unchecked": "unchecked", "-convert": "convert", "-prebuilt": "prebuilt", "-lazy": "lazy"} {
			if strings.Contains(b.ID, suffix) && !slices.ContainsFunc(b.Tests(), func(test string) bool {
				return slices.ContainsFunc(b.StepsOf(test), func(w string) bool { return strings.Contains(w, word) })
			}) {
				t.Errorf("%s: a %s variant by its id, but no step says so", b.ID, suffix)
			}
		}
	}
}

// vectorCell prepares (b, test, format) on a vector's file, or nil when the vector has no file in
// that format or the row cannot check it (a known deviation: not this test's question).
func vectorCell(t *testing.T, b *adapters.Bench, test, format, vector string) (*cell, uint64) {
	data, err := os.ReadFile(filepath.Join(vectors, vector+map[string]string{"json": ".json", "json-pretty": ".pretty.json", "msgpack": ".msgpack", "cbor": ".cbor", "bson": ".bson"}[format]))
	if err != nil {
		t.Fatal(err)
	}
	c, f := prepare(b, test, format, data)
	if f != nil {
		return nil, 0
	}
	h, _, f := c.check()
	if f != nil {
		return nil, 0
	}
	return c, h
}

func TestEveryDecodeOpReturnsTheHashItComputesFromTheInputItCopies(t *testing.T) {
	// two documents with different hashes and every row's types (no binary: JSON has none)
	const a, b = "micro-like", "map-order-a"
	n := 0
	for _, row := range adapters.All() {
		for _, test := range []string{"tree", "incremental"} {
			for _, f := range row.Formats {
				// baselines walk the harness's object made outside the loop by contract (no decode
				// step); an own-format row decodes its library's encoding, made from the document
				if row.IsBaseline() || !row.Supports(test, f) || f == "json-pretty" || row.Own != nil {
					continue
				}
				ca, ha := vectorCell(t, &row, test, f, a)
				cb, hb := vectorCell(t, &row, test, f, b)
				if ca == nil || cb == nil || ha == hb {
					continue
				}
				op := ca.op()
				if h, err := op(); err != nil || h != ha {
					t.Errorf("%s %s %s: op gives %x (%v), the check %x", row.ID, test, f, h, err, ha)
				}
				// the same op over other input bytes must give their hash: it decodes the input
				// inside the loop, never a hash or a tree made outside it
				ca.data = cb.data
				if h, err := op(); err != nil || h != hb {
					t.Errorf("%s %s %s: op on other bytes gives %x (%v), want %x: its hash does not come from its input", row.ID, test, f, h, err, hb)
				}
				n++
			}
		}
	}
	if n < 3 { // the jsonv2 binary has few decode rows
		t.Fatalf("only %d decode cells checked", n)
	}
}

func TestEveryTypedReadOpDecodesTheBytesItCopies(t *testing.T) {
	datasets := testDatasets()
	typedCells(func(b adapters.Bench, test, f string) {
		if b.IsBaseline() || test == "typed-encode" {
			return
		}
		c, fail := prepare(&b, test, f, datasets["trade"])
		if fail != nil {
			t.Fatalf("%s %s %s: %s", b.ID, test, f, fail.reason)
		}
		op := c.op()
		h, err := op()
		if err != nil || h != c.records.Hash() {
			t.Errorf("%s %s %s: op gives %x (%v), want %x", b.ID, test, f, h, err, c.records.Hash())
		}
		// a hash made outside the loop would not change with the bytes: half of them must either
		// fail or hash differently
		c.wire = c.wire[:len(c.wire)/2]
		if h2, err := op(); err == nil && h2 == h {
			t.Errorf("%s %s %s: op gives the same hash for half its input: it does not decode inside the loop", b.ID, test, f)
		}
	})
}

func TestEveryWriteRowEncodesInsideTheLoop(t *testing.T) {
	for _, b := range adapters.All() {
		for _, test := range []string{"write", "typed-encode"} {
			if b.IsBaseline() || !slices.Contains(b.Tests(), test) {
				continue
			}
			var c *cell
			if test == "write" {
				c, _ = vectorCell(t, &b, test, b.Formats[0], "micro-like")
			} else if cc, f := prepare(&b, test, b.Formats[0], testDatasets()["trade"]); f == nil {
				c = cc
			}
			if c == nil {
				continue
			}
			// every operation makes its output (a fresh buffer at least): an op that returned
			// bytes encoded outside the loop would allocate nothing
			allocs, _, err := measure.Allocs(c.op(), 3)
			if err != nil || allocs < 1 {
				t.Errorf("%s %s: %v allocations per op (%v): it does not encode inside the loop", b.ID, test, allocs, err)
			}
		}
	}
}
