package hash

import (
	"math"
	"strings"
	"testing"
)

// flatHash flattens v and hashes it with the flat walk.
func flatHash(t *testing.T, v any) uint64 {
	t.Helper()
	d, err := Flatten(v)
	if err != nil {
		t.Fatal(err)
	}
	var st []FlatFrame
	return d.Hash(&st)
}

func sameAsTree(t *testing.T, name string, v any) {
	t.Helper()
	want, err := Any(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := flatHash(t, v); got != want {
		t.Errorf("%s: flat %s, tree %s", name, Hex64(got), Hex64(want))
	}
	d, err := Flatten(v)
	if err != nil {
		t.Fatal(err)
	}
	var s Stream
	var st []EventFrame
	for range 2 { // the second call reuses the hasher's and the walk's stacks
		if got, err := d.HashEvents(&s, &st); got != want || err != nil {
			t.Errorf("%s: flat events %s (%v), tree %s", name, Hex64(got), err, Hex64(want))
		}
	}
}

func TestFlatWalkHashesEveryTypeAsTheTreeWalk(t *testing.T) {
	doc := map[string]any{
		"null": nil, "false": false, "true": true,
		"zero": int64(0), "int": int64(42), "neg": int64(-7), "min": int64(math.MinInt64),
		"umax": uint64(math.MaxUint64), "float": 1.5, "negzero": math.Copysign(0, -1),
		"empty string": "", "short": "abc", "long": strings.Repeat("a string past 32 bytes, with ü ", 3),
		"binary": []byte{0, 1, 2, 255}, "empty binary": []byte{},
		"empty array": []any{}, "empty map": map[string]any{},
		"": "an empty key",
		"arrays": []any{
			[]any{}, map[string]any{}, []any{int64(1), []any{nil, []any{}}},
			map[string]any{"k": []any{"", int64(1), map[string]any{}}}, "after the containers", true,
		},
		"maps": map[string]any{
			"m": map[string]any{"a": map[string]any{"b": []any{false}}, "e": map[string]any{}},
			"x": 2.25, "ea": []any{},
		},
	}
	sameAsTree(t, "every type", doc)
	// a root of each kind, and containers whose last child is a container
	for name, v := range map[string]any{
		"null": nil, "true": true, "false": false, "uint": int64(3), "negint": int64(-3), "big uint": uint64(1 << 63),
		"float": -0.5, "string": "root", "binary": []byte("bin"), "array": []any{}, "map": map[string]any{},
		"array ending in containers": []any{int64(1), []any{[]any{map[string]any{"a": []any{}}}}},
		"map of one map":             map[string]any{"a": map[string]any{"b": map[string]any{"c": nil}}},
	} {
		sameAsTree(t, name, v)
	}
	if _, err := Flatten(int32(1)); err == nil {
		t.Error("a value outside the harness's tree is an error")
	}
}

func TestFlatWalkOfDocumentsNested100000DeepHashesAsTheTreeWalk(t *testing.T) {
	for _, shape := range []string{"arrays", "maps", "both"} {
		var v any = []any{int64(1), "x"}
		for i := 0; i < 100_000; i++ {
			if shape == "arrays" || shape == "both" && i%2 == 0 {
				v = []any{v, int64(i)}
			} else {
				v = map[string]any{"a": v, "b": int64(i)}
			}
		}
		sameAsTree(t, shape, v)
	}
}

func TestFlatWalkAllocatesNothingAfterItsFirstCall(t *testing.T) {
	var v any = map[string]any{"a": []any{int64(1), "x", []any{map[string]any{"b": nil}}}}
	for i := 0; i < 1000; i++ {
		v = []any{v}
	}
	d, err := Flatten(v)
	if err != nil {
		t.Fatal(err)
	}
	var st []FlatFrame
	d.Hash(&st)
	if n := testing.AllocsPerRun(10, func() { d.Hash(&st) }); n != 0 {
		t.Fatalf("%v allocations per walk", n)
	}
}

func TestKeyX2IsTheStringSeedsConstant(t *testing.T) {
	if want := Seed(TagString) ^ P2; keyX2 != want || flatLeaf[flatStr].x2 != want {
		t.Fatalf("keyX2 %x, flatLeaf's %x, want %x", uint64(keyX2), flatLeaf[flatStr].x2, want)
	}
}
