package hash

import (
	"os/exec"
	"strings"
	"testing"
)

func arrayOf(hs ...uint64) uint64 {
	var a uint64
	for i, h := range hs {
		a += ArrayTerm(uint64(i), h)
	}
	return ArrayEnd(a, uint64(len(hs)))
}

func TestValuesArePinnedByTheReferenceImplementation(t *testing.T) {
	// values from orchestrator/src/serbench/objhash.py (hash_value, hex64), as the Rust tests pin
	cases := map[string]uint64{
		"670527f286862c69": NullHash,
		"052f1d0e787859a5": Str("hello, world!!"),
		"b54cda58fbbee87e": Str(""),
		"fffe66391ebe87c4": Str("abc"),
		"f40ed65b31c6a160": arrayOf(U64(1), I64(-1), F64(1.5)),
		"b9ebd45ee5d00974": arrayOf(),
		"365af1f36751b10a": MapEnd(0, 0),
		"ccbd48a093035edc": MapEnd(MapTerm(Str("a"), arrayOf(U64(1), I64(-2), F64(3.5))), 1),
	}
	for want, got := range cases {
		if Hex64(got) != want {
			t.Errorf("got %s, want %s", Hex64(got), want)
		}
	}
}

func TestBytesOfEveryLengthTo100MatchTheReference(t *testing.T) {
	// hash_value([pat[:n] for n in range(100)]) with pat[i] = (37 i + 11) % 256: every tail
	// length, one and two 16-byte steps, and the two 32-byte lanes
	pat := make([]byte, 100)
	for i := range pat {
		pat[i] = byte((i*37 + 11) % 256)
	}
	hs := make([]uint64, 100)
	for n := range hs {
		hs[n] = Bin(pat[:n])
	}
	if got := Hex64(arrayOf(hs...)); got != "ae934ca4283b04ec" {
		t.Fatalf("got %s", got)
	}
}

func TestScalarsKeepTheirTypes(t *testing.T) {
	if F64(0.0) == F64(negZero()) || F64(1.0) == U64(1) || I64(5) != U64(5) || I64(-5) != Scalar(TagNegInt, ^uint64(4)) {
		t.Fatal("scalar rules of spec/hash.md broken")
	}
	if Str("") != Seed(TagString) {
		t.Fatal("the empty string hashes to S(STRING)")
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

func TestTheStreamingFormMatchesTheTreeForm(t *testing.T) {
	// {"a": [1, -2, 3.5], "b": {"c": null}, "d": "xyz0123456789"}
	tree, err := Any(map[string]any{"a": []any{int64(1), int64(-2), 3.5}, "b": map[string]any{"c": nil}, "d": "xyz0123456789"})
	if err != nil || Hex64(tree) != "d23719a94cae666a" {
		t.Fatalf("tree %s %v", Hex64(tree), err)
	}
	var s Stream
	s.StartMap()
	must(t, s.Key(Str("a")))
	s.StartArray()
	must(t, s.Emit(U64(1)))
	must(t, s.Emit(I64(-2)))
	must(t, s.Emit(F64(3.5)))
	must(t, s.End())
	must(t, s.Key(Str("b")))
	s.StartMap()
	must(t, s.Key(Str("c")))
	must(t, s.Emit(NullHash))
	must(t, s.End())
	must(t, s.Key(Str("d")))
	must(t, s.Emit(Str("xyz0123456789")))
	must(t, s.End())
	if h, err := s.Value(); err != nil || h != tree {
		t.Fatalf("stream %s %v", Hex64(h), err)
	}
	// misuse is an error, not a wrong hash
	var m Stream
	if m.End() == nil || func() error { _, e := m.Value(); return e }() == nil {
		t.Fatal("close or value of an empty stream")
	}
	must(t, m.Emit(NullHash))
	if m.Emit(NullHash) == nil {
		t.Fatal("two roots")
	}
	m.Reset()
	m.StartMap()
	if m.Emit(NullHash) == nil {
		t.Fatal("a value without a key")
	}
	must(t, m.Key(1))
	if m.Key(2) == nil || m.End() == nil {
		t.Fatal("two keys, or a close after a key")
	}
}

func TestEventsOfATreeNested100000DeepHashAsTheTree(t *testing.T) {
	var v any = []any{int64(1), "x"}
	for i := 0; i < 100_000; i++ {
		if i%2 == 0 {
			v = []any{v}
		} else {
			v = map[string]any{"a": v}
		}
	}
	tree, err := Any(v)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Flatten(v)
	if err != nil {
		t.Fatal(err)
	}
	var s Stream
	var st []EventFrame
	if h, err := d.HashEvents(&s, &st); err != nil || h != tree {
		t.Fatalf("events %s %v, tree %s", Hex64(h), err, Hex64(tree))
	}
}

func TestDeeperThanTheWalkLimitIsALimitErrorNotACrash(t *testing.T) {
	var v any = []any{}
	for i := 0; i < MaxDepth+1; i++ {
		v = []any{v}
	}
	if _, err := Any(v); !IsLimit(err) {
		t.Fatalf("want a LimitError, got %v", err)
	}
}

func TestJSONNumbersReadAsTheDataModelSays(t *testing.T) {
	for text, want := range map[string]uint64{"1": U64(1), "-1": I64(-1), "1.0": F64(1), "1e2": F64(100),
		"18446744073709551615": U64(^uint64(0)), "-9223372036854775808": I64(-1 << 63)} {
		if got, err := Number(text); err != nil || got != want {
			t.Errorf("%s: %v", text, err)
		}
	}
	if _, err := Number("18446744073709551616"); err == nil {
		t.Error("an integer above UINT64_MAX is outside the data model")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// feedNested feeds s arrays nested depth deep around one integer, by events: a row's way.
func feedNested(t *testing.T, s *Stream, depth int) uint64 {
	for i := 0; i < depth; i++ {
		s.StartArray()
	}
	must(t, s.Emit(I64(7)))
	for i := 0; i < depth; i++ {
		must(t, s.End())
	}
	h, err := s.Value()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAStreamOnTheStackAllocatesNothingUpToItsInlineDepth(t *testing.T) {
	// around the boundary between the inline parents and the heap ones, a fresh Stream and a reused
	// one (after a deeper document) give the tree's hash
	var reused Stream
	for _, depth := range []int{0, 1, inlineParents - 1, inlineParents, inlineParents + 1, 3 * inlineParents} {
		var v any = int64(7)
		for i := 0; i < depth; i++ {
			v = []any{v}
		}
		tree, err := Any(v)
		if err != nil {
			t.Fatal(err)
		}
		var fresh Stream
		if h := feedNested(t, &fresh, depth); h != tree {
			t.Fatalf("depth %d: %s, tree %s", depth, Hex64(h), Hex64(tree))
		}
		reused.Reset()
		if h := feedNested(t, &reused, depth); h != tree {
			t.Fatalf("depth %d, reused: %s, tree %s", depth, Hex64(h), Hex64(tree))
		}
	}
	// a row makes its Stream per operation: up to inlineParents deep, that costs no allocation
	if n := testing.AllocsPerRun(10, func() {
		var s Stream
		feedNested(t, &s, inlineParents)
	}); n != 0 {
		t.Fatalf("%v allocations per document", n)
	}
}

// Emit is inlined into the rows and the hash-events baseline (docs/studies/go-streaming-hash.md, "Go's streaming
// hash"): a change that puts it over Go's inliner budget fails here, rather than adding a call to
// every event of every Go incremental row unnoticed.
func TestEmitIsWithinTheInlinerBudget(t *testing.T) {
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "can inline (*Stream).Emit") {
		t.Fatalf("(*Stream).Emit is no longer inlinable; go build -gcflags=-m=2 says why")
	}
}
