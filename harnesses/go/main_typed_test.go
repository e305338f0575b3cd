package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/gen/codecgen"
	"serbench/harnesses/go/internal/gen/easyjsongen"
	"serbench/harnesses/go/internal/gen/ffjsongen"
	"serbench/harnesses/go/internal/gen/msgpgen"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/refdec"
	"serbench/harnesses/go/internal/typed"
)

// Typed records (spec/typed.md): every typed row round-trips small datasets with edge values
// through `run`, and its hash equals the schemaless hash of the same JSON file (reference decoder
// + hash.Any, which shares no code with the typed hash).

// jsonText writes the harness's tree as JSON, floats always with a '.' or an exponent (the corpus
// JSON writer's rule, so the reference decoder reads them back as floats).
func jsonText(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		q, _ := json.Marshal(x)
		b.Write(q)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonText(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		i := 0
		for k, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			jsonText(b, k)
			b.WriteByte(':')
			jsonText(b, e)
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("jsonText: %T", v))
	}
}

func list[T any](v []T, f func(T) any) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

// nestedTree is a nested record with every width at its extremes (by i), children to depth 2.
func nestedTree(i uint64, depth int) map[string]any {
	odd := i%2 == 1
	pick := func(a, b any) any {
		if odd {
			return a
		}
		return b
	}
	children := []any{}
	if depth < 2 {
		for c := uint64(0); c < i%3+1; c++ {
			children = append(children, nestedTree(i*7+c, depth+1))
		}
	}
	counts := map[string]any{}
	for k := uint64(0); k < i%3; k++ {
		counts[fmt.Sprintf("k%d ✓", k)] = int64(math.MinInt64) + int64(k)
	}
	var note any
	if odd {
		note = fmt.Sprintf("note %d", i)
	}
	return map[string]any{
		"u8": pick(int64(math.MaxUint8), int64(i%256)), "u16": pick(int64(math.MaxUint16), int64(i)),
		"u32": pick(int64(math.MaxUint32), int64(i)), "u64": pick(uint64(math.MaxUint64), int64(i)),
		"i8": pick(int64(math.MinInt8), int64(math.MaxInt8)), "i16": pick(int64(math.MinInt16), -int64(i)),
		"i32": pick(int64(math.MinInt32), int64(math.MaxInt32)), "i64": pick(int64(math.MinInt64), int64(math.MaxInt64)-int64(i)),
		"f32": -1.5 + float64(i)/256, "f64": 0.1 + float64(i)/3, "flag": odd, "name": fmt.Sprintf("n%d-%d ✓", i, depth),
		"u8s": []any{int64(0), int64(1), int64(255)}, "u16s": list(make([]int, i%3), func(int) any { return int64(math.MaxUint16) }),
		"u32s": []any{int64(math.MaxUint32), int64(7)}, "u64s": []any{uint64(math.MaxUint64), uint64(math.MaxInt64) + 1},
		"i8s": []any{int64(math.MinInt8), int64(-1), int64(math.MaxInt8)}, "i16s": []any{int64(math.MinInt16), int64(math.MaxInt16)},
		"i32s": []any{int64(math.MinInt32)}, "i64s": []any{int64(math.MinInt64), int64(math.MaxInt64), int64(0)},
		"f32s": []any{0.5, -0.25, 1024.0}, "f64s": []any{1e300, -2.5e-300, 1.0 / 3},
		"flags": []any{true, false}, "names": []any{"", "naïve", "日本"}, "counts": counts, "note": note,
		"inner":    map[string]any{"label": fmt.Sprintf("inner %d", i), "point": map[string]any{"x": -float64(i) - 0.5, "y": 2.5, "z": 0.125}},
		"children": children,
	}
}

// testDatasets are the three schemas' typed files, with edge values.
func testDatasets() map[string][]byte {
	var products, trades, nested []any
	for i := uint64(0); i < 50; i++ {
		id := any(refdec.Uint(i * 0x9E3779B97F4A7C15))
		if i == 0 {
			id = uint64(math.MaxUint64)
		}
		products = append(products, map[string]any{"id": id, "name": fmt.Sprintf("name%02dé", i), "price": 1.5 + float64(i)*19.97,
			"in_stock": i%3 == 0, "tags": list(make([]int, i%4), func(int) any { return "tag ✓" })})
		side, small := "Buy", int64(i)*1_000_003
		if i%2 == 1 {
			side = "Sell"
		}
		if i == 0 {
			small = math.MinInt32
		}
		trades = append(trades, map[string]any{"price": float64(i)/7 + 0.01, "flag": i%2 == 0, "text": fmt.Sprintf("trade text %d \"quoted\" ✓", i),
			"side": side, "small_int": small, "long_int": int64(math.MaxInt64) - int64(i)})
	}
	for i := uint64(0); i < 4; i++ {
		nested = append(nested, nestedTree(i, 0))
	}
	out := map[string][]byte{}
	for name, recs := range map[string][]any{"product": products, "trade": trades, "nested": nested} {
		var b strings.Builder
		jsonText(&b, map[string]any{"schema": name, "records": recs})
		out[name] = []byte(b.String())
	}
	return out
}

// expected is the schemaless hash of a typed file (reference decoder + hash.Any).
func expected(t *testing.T, data []byte) string {
	v, err := refdec.Decode("json", data)
	if err != nil {
		t.Fatal(err)
	}
	h, err := hash.Any(v)
	if err != nil {
		t.Fatal(err)
	}
	return hash.Hex64(h)
}

// runCell runs `run` as the orchestrator does and returns the exit code and the result rows.
func runCell(t *testing.T, args ...string) (int, []map[string]any) {
	results := filepath.Join(t.TempDir(), "r.jsonl")
	code := cmdRun(append(args, "--results", results))
	f, err := os.Open(results)
	if err != nil {
		return code, nil
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return code, rows
}

func kindRow(rows []map[string]any, kind string) map[string]any {
	for _, r := range rows {
		if r["kind"] == kind {
			return r
		}
	}
	return nil
}

// typedCells yields every typed (row, test, format) of this binary, baselines included where a
// row of this binary writes the format.
func typedCells(yield func(b adapters.Bench, test, format string)) {
	written := map[string]bool{}
	for _, b := range adapters.All() {
		if b.Typed != nil {
			for _, f := range b.Formats {
				written[f] = true
			}
		}
	}
	for _, b := range adapters.All() {
		for _, test := range b.Tests() {
			if !strings.HasPrefix(test, "typed-") {
				continue
			}
			for _, f := range b.Formats {
				if written[f] {
					yield(b, test, f)
				}
			}
		}
	}
}

func writeDatasets(t *testing.T) (string, map[string]string) {
	dir := t.TempDir()
	want := map[string]string{}
	for name, data := range testDatasets() {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		want[name] = expected(t, data)
	}
	return dir, want
}

// refuses is the error a format's rows give for a dataset it cannot carry: BSON has no uint64, and
// the product and nested datasets have values above INT64_MAX (spec/typed.md, known limits).
func refuses(format, dataset string) string {
	if format == "bson" && dataset != "trade" {
		return "overflows int64"
	}
	return ""
}

// anyDataset is a dataset the format carries, nested when it can (the deepest records).
func anyDataset(format string) string {
	if refuses(format, "nested") != "" {
		return "trade"
	}
	return "nested"
}

func TestEveryTypedRowRoundTripsEverySchemaToTheSchemalessHash(t *testing.T) {
	dir, want := writeDatasets(t)
	n := 0
	typedCells(func(b adapters.Bench, test, f string) {
		for _, ds := range []string{"product", "trade", "nested"} {
			file := filepath.Join(dir, ds+".json")
			out := filepath.Join(t.TempDir(), "out")
			code, rows := runCell(t, "--bench", b.ID, "--test", test, "--format", f, "--file", file,
				"--expect-hash", want[ds], "--iterations", "2", "--output-file", out)
			if why := refuses(f, ds); why != "" {
				if e := kindRow(rows, "error"); code != exitRejected || e == nil || !strings.Contains(e["reason"].(string), why) {
					t.Errorf("%s %s %s %s: exit %d, rows %v; want exit 3 with %q", b.ID, test, f, ds, code, rows, why)
				}
				continue
			}
			check := kindRow(rows, "check")
			if code != exitOK || check == nil || check["ok"] != true {
				t.Errorf("%s %s %s %s: exit %d, rows %v", b.ID, test, f, ds, code, rows)
				continue
			}
			if test == "typed-encode" && !b.IsBaseline() {
				written, err := os.ReadFile(out)
				if err != nil || len(written) == 0 || float64(len(written)) != check["output_bytes"] {
					t.Errorf("%s %s: --output-file has %d bytes (%v), the check says %v", b.ID, ds, len(written), err, check["output_bytes"])
				}
			}
			n++
		}
	})
	if n < 3 {
		t.Fatalf("only %d typed cells", n)
	}
}

func TestATypedRowWithAWrongExpectedHashExitsWithMismatch(t *testing.T) {
	dir, _ := writeDatasets(t)
	typedCells(func(b adapters.Bench, test, f string) {
		code, rows := runCell(t, "--bench", b.ID, "--test", test, "--format", f, "--file", filepath.Join(dir, anyDataset(f)+".json"),
			"--expect-hash", "0123456789abcdef", "--iterations", "1")
		if check := kindRow(rows, "check"); code != exitMismatch || check == nil || check["ok"] != false {
			t.Errorf("%s %s %s: exit %d, rows %v", b.ID, test, f, code, rows)
		}
	})
}

func TestTypedAllocPassReportsAllocations(t *testing.T) {
	dir, want := writeDatasets(t)
	typedCells(func(b adapters.Bench, test, f string) {
		if b.IsBaseline() {
			return
		}
		ds := anyDataset(f)
		code, rows := runCell(t, "--bench", b.ID, "--test", test, "--format", f, "--file", filepath.Join(dir, ds+".json"),
			"--expect-hash", want[ds], "--alloc", "--budget-ms", "1", "--min-samples", "1")
		a := kindRow(rows, "alloc")
		// the samples come first (protocol step 6), then the pass: every encode row allocates its
		// output and every decode row its records; an accessor may allocate nothing, since the input
		// copy goes into the cell's own buffer
		minAllocs, minBytes := 1.0, 100.0
		if test == "typed-access" {
			minAllocs, minBytes = 0, 0
		}
		if code != exitOK || kindRow(rows, "sample") == nil || a == nil || a["allocs_per_op"].(float64) < minAllocs || a["alloc_bytes_per_op"].(float64) < minBytes {
			t.Errorf("%s %s %s: exit %d, alloc row %v", b.ID, test, f, code, a)
		}
	})
}

// The typed reads copy their input into the cell's one aligned buffer, so the typed baseline,
// which is that copy and the typed hash of the prebuilt records, allocates nothing per operation
// (a new 7.5 MB buffer per operation on product-large ran the collector in every sample).
func TestTheTypedBaselineCopiesIntoOneBufferAndAllocatesNothing(t *testing.T) {
	dir, want := writeDatasets(t)
	checked := 0
	// typedCells yields the baseline only in the formats a row of this build writes (the jsonv2
	// build has JSON rows only: no other format's baseline has bytes)
	typedCells(func(b adapters.Bench, test, f string) {
		if b.ID != "hash-typed" || test != "typed-decode" {
			return
		}
		checked++
		ds := anyDataset(f)
		code, rows := runCell(t, "--bench", "hash-typed", "--test", "typed-decode", "--format", f, "--file",
			filepath.Join(dir, ds+".json"), "--expect-hash", want[ds], "--alloc", "--budget-ms", "1", "--min-samples", "1")
		a := kindRow(rows, "alloc")
		if code != exitOK || a == nil || a["allocs_per_op"].(float64) != 0 || a["alloc_bytes_per_op"].(float64) != 0 {
			t.Errorf("hash-typed %s: exit %d, alloc row %v", f, code, a)
		}
	})
	if checked == 0 {
		t.Fatal("no typed format has a row in this build")
	}
}

func TestTypedLatencyRoundTripsEachRecordAndReportsPercentiles(t *testing.T) {
	dir, want := writeDatasets(t)
	typedCells(func(b adapters.Bench, test, f string) {
		if b.IsBaseline() || test == "typed-access" {
			return
		}
		code, rows := runCell(t, "--bench", b.ID, "--test", test, "--format", f, "--file", filepath.Join(dir, "trade.json"),
			"--expect-hash", want["trade"], "--latency", "--budget-ms", "1")
		l := kindRow(rows, "latency")
		if code != exitOK || l == nil {
			t.Errorf("%s %s %s: exit %d, rows %v", b.ID, test, f, code, rows)
			return
		}
		p50, p99, mx := l["p50_ns"].(float64), l["p99_ns"].(float64), l["max_ns"].(float64)
		if l["count"].(float64) < 100_000 || p50 <= 0 || p50 > p99 || p99 > mx {
			t.Errorf("%s %s: latency row %v", b.ID, test, l)
		}
		// the histogram for pooling over forks: every operation in exactly one non-empty bucket
		var sum float64
		for _, bk := range l["buckets"].([]any) {
			pair := bk.([]any)
			if pair[1].(float64) <= 0 {
				t.Errorf("%s %s: empty bucket %v", b.ID, test, pair)
			}
			sum += pair[1].(float64)
		}
		if sum != l["count"].(float64) {
			t.Errorf("%s %s: buckets hold %v operations, count %v", b.ID, test, sum, l["count"])
		}
	})
}

func TestTypedReadsOfTruncatedBytesFailCleanly(t *testing.T) {
	datasets := testDatasets()
	typedCells(func(b adapters.Bench, test, f string) {
		if b.IsBaseline() || test == "typed-encode" {
			return
		}
		data := datasets[anyDataset(f)]
		c, fail := prepare(&b, test, f, data)
		if fail != nil {
			t.Fatalf("%s: %s", b.ID, fail.reason)
		}
		wire := c.wire
		for _, cut := range []int{1, len(wire) / 3, len(wire) / 2, len(wire) - 1} {
			// a decoder may accept a prefix (a shorter list); it must never take the harness down
			if h, err := c.typedRead(wire[:cut]); err == nil {
				t.Logf("%s %s: accepted %d of %d bytes (hash %s)", b.ID, test, cut, len(wire), hash.Hex64(h))
			}
		}
	})
}

func TestTheTypedLoaderRejectsWhatIsNotItsSchema(t *testing.T) {
	good := string(testDatasets()["nested"])
	bad := map[string]string{
		"u8 out of range":      strings.Replace(good, `"u8":255`, `"u8":256`, 1),
		"f32 not a float32":    strings.Replace(good, `"z":0.125`, `"z":0.1`, 1),
		"int for a float":      strings.Replace(good, `"y":2.5`, `"y":2`, 1),
		"unknown field":        strings.Replace(good, `"flag":`, `"flagx":`, 1),
		"unknown schema":       strings.Replace(good, `"schema":"nested"`, `"schema":"other"`, 1),
		"not the typed layout": `[1,2,3]`,
	}
	for what, doc := range bad {
		if doc == good {
			t.Fatalf("%s: the replacement did not apply", what)
		}
		b := adapters.All()[0]
		for _, x := range adapters.All() {
			if x.Typed != nil {
				b = x
				break
			}
		}
		_, fail := prepare(&b, "typed-decode", b.Formats[0], []byte(doc))
		if fail == nil || fail.code != exitInput {
			t.Errorf("%s: got %v, want exit %d", what, fail, exitInput)
		}
	}
}

func TestTypedHashOfTheCorpusFilesEqualsTheManifest(t *testing.T) {
	dir := "../../corpus"
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Skip("no corpus (./serbench corpus writes it)")
	}
	var m struct {
		Datasets []struct {
			Dataset, Kind, Hash string
			Files               map[string]struct{ File string }
		}
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Datasets {
		if d.Kind != "typed" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, d.Files["json"].File))
		if err != nil {
			t.Fatal(err)
		}
		r, err := typed.Load(data)
		if err != nil {
			t.Fatalf("%s: %v", d.Dataset, err)
		}
		if got := hash.Hex64(r.Hash()); got != d.Hash {
			t.Errorf("%s: typed hash %s, manifest %s", d.Dataset, got, d.Hash)
		}
	}
}

// sameLayout checks that two struct types have the same fields, in order, with the same kinds,
// sizes and offsets (recursively), so adapters.View may see one as the other.
func sameLayout(t *testing.T, a, b reflect.Type, path string) {
	if a.Kind() != b.Kind() || a.Size() != b.Size() || a.Align() != b.Align() {
		t.Errorf("%s: %v (%v, %d bytes) against %v (%v, %d bytes)", path, a, a.Kind(), a.Size(), b, b.Kind(), b.Size())
		return
	}
	switch a.Kind() {
	case reflect.Struct:
		if a.NumField() != b.NumField() {
			t.Errorf("%s: %d fields against %d", path, a.NumField(), b.NumField())
			return
		}
		for i := 0; i < a.NumField(); i++ {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.Offset != fb.Offset || fa.Tag != fb.Tag {
				t.Errorf("%s: field %d is %s@%d against %s@%d", path, i, fa.Name, fa.Offset, fb.Name, fb.Offset)
			}
			if fa.Type != a { // Children: the same recursion on both sides
				sameLayout(t, fa.Type, fb.Type, path+"."+fa.Name)
			}
		}
	case reflect.Slice, reflect.Pointer:
		if a.Elem() != a && b.Elem() != b && a.Elem().Kind() != reflect.Struct {
			sameLayout(t, a.Elem(), b.Elem(), path+"[]")
		}
	case reflect.Map:
		sameLayout(t, a.Key(), b.Key(), path+"{key}")
		sameLayout(t, a.Elem(), b.Elem(), path+"{value}")
	}
}

func TestGeneratedRecordCopiesHaveTheNativeLayout(t *testing.T) {
	pairs := [][2]any{
		{typed.Product{}, msgpgen.Product{}}, {typed.Trade{}, msgpgen.Trade{}}, {typed.Nested{}, msgpgen.Nested{}},
		{typed.Product{}, easyjsongen.Product{}}, {typed.Trade{}, easyjsongen.Trade{}}, {typed.Nested{}, easyjsongen.Nested{}},
		{typed.Product{}, codecgen.Product{}}, {typed.Trade{}, codecgen.Trade{}}, {typed.Nested{}, codecgen.Nested{}},
		{typed.Product{}, ffjsongen.Product{}}, {typed.Trade{}, ffjsongen.Trade{}}, {typed.Nested{}, ffjsongen.Nested{}},
	}
	for _, p := range pairs {
		a, b := reflect.TypeOf(p[0]), reflect.TypeOf(p[1])
		sameLayout(t, a, b, a.Name())
	}
	// the copies are made from records.go itself: check that they still match it byte for byte
	src, err := os.ReadFile("internal/typed/records.go")
	if err != nil {
		t.Fatal(err)
	}
	body := src[bytes.Index(src, []byte("\n// Product is")):]
	for _, dir := range []string{"internal/gen/msgpgen", "internal/gen/easyjsongen", "internal/gen/codecgen", "internal/gen/ffjsongen"} {
		cp, err := os.ReadFile(filepath.Join(dir, "records.go"))
		if err != nil || !bytes.Contains(cp, body) {
			t.Errorf("%s/records.go is not a copy of internal/typed/records.go: run regen-schemas.sh (%v)", dir, err)
		}
	}
}
