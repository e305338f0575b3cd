// Command serbench-go is the Go harness of serbench: list, run, verify, selftest
// (spec/protocol.md, protocol 1). Read it top-down: the commands, then one cell's preparation,
// check and timed operation; the adapters live in adapters/, one file per library.
package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/codesize"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/measure"
	"serbench/harnesses/go/internal/refdec"
	"serbench/harnesses/go/internal/typed"
)

// Exit codes (spec/protocol.md).
const (
	exitOK          = 0
	exitUsage       = 2
	exitRejected    = 3
	exitMismatch    = 4
	exitUnsupported = 5
	exitInput       = 6
)

var protocolTests = []string{"write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access"}

//go:embed known-deviations.json
var knownDeviations []byte

func main() {
	// A library that recurses without bound overflows the goroutine stack, which Go cannot
	// recover: a smaller limit than the default 1 GB makes that happen before it eats the memory.
	debug.SetMaxStack(512 << 20)
	args := os.Args[1:]
	code := exitUsage
	switch {
	case len(args) == 0:
		code = usage("expected a command: list, run, verify or selftest")
	case args[0] == "list" && len(args) == 1:
		code = cmdList()
	case args[0] == "run":
		code = cmdRun(args[1:])
	case args[0] == "verify":
		code = cmdVerify(args[1:])
	case args[0] == "selftest":
		code = cmdSelftest(args[1:])
	case args[0] == "size-probes" && len(args) == 1:
		code = cmdSizeProbes()
	case args[0] == "-h" || args[0] == "--help":
		usage("help")
		code = exitOK
	default:
		code = usage("expected a command: list, run, verify or selftest")
	}
	os.Exit(code)
}

func usage(msg string) int {
	fmt.Fprintf(os.Stderr, "serbench-go: %s\n", msg)
	fmt.Fprintln(os.Stderr, "usage: serbench-go list | run --bench ID --test T --format F --file P --expect-hash H --results P [--budget-ms N] [--min-samples N] [--alloc] [--latency] [--no-check] [--output-file P] [--seed N] [--iterations N] [--hold] | verify --bench ID --test T --format F --file P | selftest --vectors DIR | size-probes")
	return exitUsage
}

// runtimeInfo names the Go toolchain and the settings that change how the loop behaves.
func runtimeInfo() string {
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "100 (default)"
	}
	exp := "none"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOEXPERIMENT" && s.Value != "" {
				exp = s.Value
			}
		}
	}
	return fmt.Sprintf("%s %s/%s (GOGC=%s, GOMAXPROCS=%d, GOEXPERIMENT=%s, go build -trimpath)",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, gogc, runtime.GOMAXPROCS(0), exp)
}

// measures says what each test's loop times.
func measures(test string) string {
	switch test {
	case "write":
		return "encode the harness's object (map[string]any tree) + hash of the output bytes; the output is decoded with the reference decoder and hashed once, outside the loop"
	case "tree":
		return "copy input + decode to the library's tree + walk it with the hash (GC included)"
	case "typed-encode":
		return "encode the native records (prepared outside the loop) + hash of the output bytes; the output is decoded by the same library and hashed once, outside the loop (GC included)"
	case "typed-decode":
		return "copy the library's own encoding (into a 16-byte aligned buffer) + decode into native records (or the library's generated types) + typed hash walk (GC included)"
	case "typed-access":
		return "copy the library's own encoding (into a 16-byte aligned buffer) + open the zero-copy view + read every field through it with the typed hash (GC included)"
	}
	return "copy input + streaming/pull parse feeding the hash, no tree (GC included)"
}

// measuresOf is what the row's loop for test times: its own text (baselines), else the test's.
func measuresOf(b *adapters.Bench, test string) string {
	if m, ok := b.Measures[test]; ok {
		return m
	}
	return measures(test)
}

// --- list ----------------------------------------------------------------------------------------

func cmdList() int {
	var rows []map[string]any
	probes := probeDir()
	for _, b := range adapters.All() {
		baseFor := map[string]string{}
		m := map[string]string{}
		steps := map[string][]string{}
		for _, t := range b.Tests() {
			if !b.IsBaseline() {
				baseFor[t] = b.Baseline(t)
			}
			m[t] = measuresOf(&b, t)
			steps[t] = b.StepsOf(t)
		}
		row := map[string]any{"id": b.ID, "library": b.Library, "version": b.Version(),
			"formats": b.WireFormats(), "tests": b.Tests(), "baseline_for": baseFor, "notes": b.Notes,
			"baseline": b.IsBaseline(), "measures": m, "steps": steps}
		if r := b.Reads(); r != nil {
			row["reads"] = r
		}
		if !b.IsBaseline() {
			addCodeSize(row, b.Library, probes)
		}
		rows = append(rows, row)
	}
	rows = append(rows, siblingRows()...)
	out, _ := json.Marshal(map[string]any{"protocol": 1, "harness": "go", "runtime": runtimeInfo(), "benchmarks": rows})
	fmt.Println(string(out))
	return exitOK
}

// --- code size (internal/codesize) -------------------------------------------------------------

// sourceFingerprint names the sources this binary was built from: set at link time by the
// orchestrator (-ldflags "-X main.sourceFingerprint=..."), the key of the folder of the code-size
// probes built from the same sources. Empty in a binary built otherwise: it then reports no code size.
var sourceFingerprint string

// goexperiment is the experiment this binary's probes are built with (the jsonv2 binary's own).
func goexperiment() string {
	if adapters.JSONv2 {
		return "jsonv2"
	}
	return ""
}

func probeDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return codesize.Dir(exe, sourceFingerprint)
}

// addCodeSize adds code_size_bytes and code_size_method to a row of library when both its probe
// and the baseline probe of these sources were built in dir (`serbench run --code-size`); a probe
// that cannot be read is said on stderr, never guessed.
func addCodeSize(row map[string]any, library, dir string) {
	if dir == "" {
		return
	}
	exp := goexperiment()
	size, ok, err := codesize.LibraryBytes(dir, codesize.ProbeName(codesize.Tag(library), exp), codesize.ProbeName(codesize.BaselineProbe, exp))
	if err != nil {
		fmt.Fprintf(os.Stderr, "serbench-go: code size of %s: %v\n", library, err)
	}
	if !ok || err != nil {
		return
	}
	rows := 0
	for _, b := range adapters.All() {
		if b.Library == library {
			rows++
		}
	}
	row["code_size_bytes"] = size
	row["code_size_method"] = codesize.Method(library, rows, exp)
}

// cmdSizeProbes (not a protocol command) tells the orchestrator which probes these sources need
// and where they go: one per library of this binary, and the baseline, each with its build tags,
// the package to build and the GOEXPERIMENT to build it with.
func cmdSizeProbes() int {
	dir := probeDir()
	if dir == "" {
		fmt.Fprintln(os.Stderr, "serbench-go: built without a source fingerprint (the orchestrator's build links one in with -ldflags -X main.sourceFingerprint=...), so it has no code-size probes")
		return exitUsage
	}
	exp := goexperiment()
	type probe struct {
		Name    string `json:"name"`
		Tags    string `json:"tags"`
		Library string `json:"library,omitempty"`
	}
	probes := []probe{{Name: codesize.ProbeName(codesize.BaselineProbe, exp), Tags: "sizeprobe"}}
	seen := map[string]bool{}
	for _, b := range adapters.All() {
		if b.IsBaseline() || seen[b.Library] {
			continue
		}
		seen[b.Library] = true
		tag := codesize.Tag(b.Library)
		probes = append(probes, probe{Name: codesize.ProbeName(tag, exp), Tags: "sizeprobe," + tag, Library: b.Library})
	}
	out, _ := json.Marshal(map[string]any{"dir": dir, "fingerprint": sourceFingerprint, "goexperiment": exp,
		"package": "./cmd/sizeprobe", "ldflags": "-s -w", "probes": probes})
	fmt.Println(string(out))
	return exitOK
}

// --- the jsonv2 binary ------------------------------------------------------------------------------

// sibling is the jsonv2 binary beside this one (bin/serbench-go-jsonv2), whose rows this binary
// lists and hands over to: GOEXPERIMENT=jsonv2 changes encoding/json for the whole binary, so the
// v2 rows (and v1 as the experiment reimplements it) live in a separately built executable.
// Empty in the jsonv2 binary itself, and when it was not built.
func sibling() string {
	if adapters.JSONv2 {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), "serbench-go-jsonv2")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// siblingRows are the jsonv2 binary's rows other than its baselines (the same code as ours).
func siblingRows() []map[string]any {
	p := sibling()
	if p == "" {
		return nil
	}
	out, err := exec.Command(p, "list").Output()
	var l struct {
		Benchmarks []map[string]any `json:"benchmarks"`
	}
	if err == nil {
		err = json.Unmarshal(out, &l)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "serbench-go: cannot list %s: %v\n", p, err)
		return nil
	}
	var rows []map[string]any
	for _, b := range l.Benchmarks {
		if isBase, _ := b["baseline"].(bool); !isBase {
			rows = append(rows, b)
		}
	}
	return rows
}

// handOver runs the jsonv2 binary in place of this process when the benchmark is one of its
// rows (the process, its arguments and its exit code are then the sibling's).
func handOver(id string, argv []string) {
	p := sibling()
	if p == "" || slices.ContainsFunc(adapters.All(), func(b adapters.Bench) bool { return b.ID == id }) {
		return
	}
	if err := syscall.Exec(p, append([]string{p}, argv...), os.Environ()); err != nil {
		fmt.Fprintf(os.Stderr, "serbench-go: cannot start %s: %v\n", p, err)
	}
}

// --- one cell ------------------------------------------------------------------------------------

// failure is why a cell cannot be checked or measured: the library's (exit 3) or the input's
// (exit 6: the reference decoder rejects it, or it is beyond a limit of the harness's own code).
type failure struct {
	code   int
	reason string
}

func libraryFail(err error) *failure {
	if hash.IsLimit(err) {
		return &failure{exitInput, err.Error()}
	}
	return &failure{exitRejected, err.Error()}
}

// cell is a prepared (benchmark, test, format, file).
type cell struct {
	format  string
	data    []byte
	in      []byte            // the fresh copy of data each decode iteration reads (fresh)
	decode  adapters.DecodeFn // tree, incremental
	encode  adapters.Encoder  // write
	kind    string            // "decode", "write", "hash-data", "hash-object", "hash-walk", "hash-events"
	object  any               // hash-walk: the harness's tree
	flat    *hash.Flat        // hash-object, hash-events: the harness's tree, flattened
	parents []hash.FlatFrame  // hash-object: the flat walk's stack, grown by the check, reused by the loop
	events  []hash.EventFrame // hash-events: the flat events walk's stack, likewise
	own     *adapters.OwnFormat
	stream  hash.Stream
	// typed tests: the records, the row's decoder (or accessor) and the bytes a read starts from
	records *typed.Records
	tdecode adapters.TypedDecodeFn
	wire    []byte
	typedIn adapters.AlignedBuf // the aligned copy of wire each typed read starts from
}

func reference(format string, data []byte) (any, *failure) { return referenceWithin(format, data, 0) }

// referenceWithin is reference refusing, as the harness's limit, nesting deeper than maxDepth (0: no bound).
func referenceWithin(format string, data []byte, maxDepth int) (any, *failure) {
	v, err := refdec.DecodeWithin(format, data, maxDepth)
	if err != nil {
		return nil, &failure{exitInput, fmt.Sprintf("the reference decoder rejects the input (%s): %v", format, err)}
	}
	return v, nil
}

func prepare(b *adapters.Bench, test, format string, data []byte) (*cell, *failure) {
	if strings.HasPrefix(test, "typed-") {
		return prepareTyped(b, test, format, data)
	}
	c := &cell{format: format, data: data}
	switch {
	case b.IsBaseline() && test == "write":
		c.kind = "hash-data"
	case b.IsBaseline() && b.ID == "hash-walk":
		v, f := reference(format, data)
		if f != nil {
			return nil, f
		}
		c.kind, c.object = "hash-walk", v
	case b.IsBaseline():
		v, f := reference(format, data)
		if f != nil {
			return nil, f
		}
		flat, err := hash.Flatten(v)
		if err != nil {
			return nil, &failure{exitInput, err.Error()}
		}
		c.kind, c.flat = "hash-object", flat
		if b.ID == "hash-events" {
			c.kind = "hash-events"
		}
	case b.Own != nil:
		// a format only this library has: the document comes from the corpus file, and the bytes
		// the tree row decodes are the library's own encoding of it (made here, outside the loop)
		v, f := reference(format, data)
		if f != nil {
			return nil, f
		}
		own := b.Own
		if test == "write" {
			c.kind, c.encode, c.own = "own-write", func() ([]byte, error) { return own.Encode(v) }, own
			return c, nil
		}
		wire, err := adapters.Lib(func() ([]byte, error) { return own.Encode(v) })
		if err != nil {
			return nil, libraryFail(fmt.Errorf("cannot encode the document in %s: %w", own.Name, err))
		}
		c.kind, c.data = "decode", wire
		c.decode = func(_ string, d []byte) (uint64, error) { return own.Decode(d) }
	case test == "write":
		// The check hashes the library's output with the recursive walk, which refuses deeper than
		// hash.MaxDepth (exit 6) whatever the library did; so the input is refused at that depth
		// before the library sees it. Given to the library, a million levels took the input tree,
		// the library's stack and the output tree over the robustness run's 2 GiB of address
		// space, and the harness ran out of memory in some processes and not others (issue 73).
		v, f := referenceWithin(format, data, hash.MaxDepth)
		if f != nil {
			return nil, f
		}
		enc, err := adapters.Lib(func() (adapters.Encoder, error) { return b.Write(format, v) })
		if err != nil {
			return nil, &failure{exitInput, fmt.Sprintf("the harness cannot give this input to %s: %v", b.Library, err)}
		}
		c.kind, c.encode = "write", enc
	case test == "tree":
		c.kind, c.decode = "decode", b.Tree
	default:
		c.kind, c.decode = "decode", b.Incremental
	}
	return c, nil
}

// typedInput loads a typed dataset file (the file's failure: exit 6).
func typedInput(data []byte) (*typed.Records, *failure) {
	r, err := typed.Load(data)
	if err != nil {
		return nil, &failure{exitInput, err.Error()}
	}
	return r, nil
}

// prepareTyped prepares a typed cell (spec/typed.md): the native records from the JSON file, and
// for reads the library's own encoding of them, made here, outside the loop.
func prepareTyped(b *adapters.Bench, test, format string, data []byte) (*cell, *failure) {
	r, f := typedInput(data)
	if f != nil {
		return nil, f
	}
	c := &cell{format: format, records: r}
	if b.IsBaseline() {
		wire, err := adapters.TypedWire(format, r)
		if err != nil {
			return nil, libraryFail(err)
		}
		c.kind, c.wire = "hash-data-typed", wire
		if test != "typed-encode" {
			c.kind = "hash-typed"
		}
		return c, nil
	}
	t := b.Typed
	enc, err := adapters.Lib(func() (adapters.Encoder, error) { return t.Encoder(format, r) })
	if err != nil {
		return nil, libraryFail(fmt.Errorf("cannot prepare the records: %w", err))
	}
	if test == "typed-encode" {
		c.kind, c.encode, c.tdecode = "typed-encode", enc, t.Decode
		if c.tdecode == nil {
			c.tdecode = t.Access
		}
		return c, nil
	}
	wire, err := adapters.Lib(enc)
	if err != nil {
		return nil, libraryFail(fmt.Errorf("cannot encode the records: %w", err))
	}
	c.kind, c.wire, c.tdecode = "typed-read", wire, t.Decode
	if test == "typed-access" {
		c.tdecode = t.Access
	}
	return c, nil
}

// typedRead runs the row's decoder (or accessor) on a fresh aligned copy of the bytes, in the cell's
// one buffer (adapters.AlignedBuf); the whole function calls the library (its walk reads the
// library's types), so it runs under adapters.Lib.
func (c *cell) typedRead(wire []byte) (uint64, error) {
	in := c.typedIn.Copy(wire)
	return adapters.Lib(func() (uint64, error) { return c.tdecode(c.format, c.records.Schema, in) })
}

// check is the correctness check (protocol run step 2): the hash, and the output (write tests).
func (c *cell) check() (uint64, []byte, *failure) {
	switch c.kind {
	case "typed-encode":
		out, err := adapters.Lib(c.encode)
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		h, err := c.typedRead(out)
		if err != nil {
			return 0, nil, &failure{exitRejected, "the library cannot decode its own output: " + err.Error()}
		}
		return h, out, nil
	case "typed-read":
		h, err := c.typedRead(c.wire)
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		return h, nil, nil
	case "hash-data-typed", "hash-typed":
		return c.records.Hash(), nil, nil
	case "decode":
		h, err := c.decodeCopy()
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		return h, nil, nil
	case "write":
		out, err := adapters.Lib(c.encode)
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		v, err := refdec.Decode(c.format, out)
		if hash.IsLimit(err) {
			return 0, nil, &failure{exitInput, "the library's output is beyond the harness's limits: " + err.Error()}
		}
		if err != nil {
			return 0, nil, &failure{exitRejected, "the reference decoder cannot read the library's output: " + err.Error()}
		}
		h, err := hash.Any(v)
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		return h, out, nil
	case "own-write":
		out, err := adapters.Lib(c.encode)
		if err != nil {
			return 0, nil, libraryFail(err)
		}
		h, err := adapters.Lib(func() (uint64, error) { return c.own.Decode(out) })
		if err != nil {
			return 0, nil, &failure{exitRejected, fmt.Sprintf("%s cannot decode its own %s output: %v", "the library", c.own.Name, err)}
		}
		return h, out, nil
	case "hash-data":
		v, f := reference(c.format, c.data)
		if f != nil {
			return 0, nil, f
		}
		h, err := hash.Any(v)
		if err != nil {
			return 0, nil, &failure{exitInput, err.Error()}
		}
		return h, nil, nil
	case "hash-events":
		h, err := c.flat.HashEvents(&c.stream, &c.events)
		if err != nil {
			return 0, nil, &failure{exitInput, err.Error()}
		}
		return h, nil, nil
	case "hash-object":
		return c.flat.Hash(&c.parents), nil, nil
	}
	h, err := hash.Any(c.object)
	if err != nil {
		return 0, nil, &failure{exitInput, err.Error()}
	}
	return h, nil, nil
}

// fresh copies the input into the cell's own buffer and returns it: spec/fairness.md rule 1's
// fresh input for every iteration, as the native harness's memcpy into its reused buffer. One
// buffer, allocated once: a 250 KB allocation per operation (size 4) made the collector run every
// few operations in the baselines, a third of hash-object's time at size 4 (164 against 112 µs;
// docs/studies/go-baselines.md, "Go's baselines"), and in every row beside the library's own allocations.
// The buffer is a field of the cell, so the copy is never optimised away.
func (c *cell) fresh() []byte {
	if len(c.in) != len(c.data) {
		c.in = make([]byte, len(c.data))
	}
	copy(c.in, c.data)
	return c.in
}

// decodeCopy runs the library on a fresh copy of the input (spec/fairness.md rule 1). The whole
// DecodeFn runs under adapters.Lib: it calls the library throughout (its walk over the library's
// tree reads the library's types), and the harness's hash code there returns errors, never panics.
func (c *cell) decodeCopy() (uint64, error) {
	in := c.fresh()
	return adapters.Lib(func() (uint64, error) { return c.decode(c.format, in) })
}

// op is the timed operation of the cell.
func (c *cell) op() measure.Op {
	switch c.kind {
	case "decode":
		return c.decodeCopy
	case "typed-read":
		return func() (uint64, error) { return c.typedRead(c.wire) }
	case "hash-data-typed":
		return func() (uint64, error) { return hash.Bin(c.wire), nil }
	case "hash-typed":
		return func() (uint64, error) {
			// the copy goes into a field of the cell, so it is never optimised away
			c.typedIn.Copy(c.wire)
			return c.records.Hash(), nil
		}
	case "write", "own-write", "typed-encode":
		return func() (uint64, error) {
			out, err := adapters.Lib(c.encode)
			if err != nil {
				return 0, err
			}
			return hash.Bin(out), nil
		}
	case "hash-data":
		return func() (uint64, error) { return hash.Bin(c.data), nil }
	case "hash-events":
		return func() (uint64, error) {
			c.fresh()
			return c.flat.HashEvents(&c.stream, &c.events)
		}
	case "hash-object":
		return func() (uint64, error) {
			c.fresh()
			return c.flat.Hash(&c.parents), nil
		}
	}
	return func() (uint64, error) {
		c.fresh()
		return hash.Any(c.object)
	}
}

// --- run -----------------------------------------------------------------------------------------

type results struct{ f *os.File }

func (r *results) row(kind string, fields map[string]any) {
	fields["kind"] = kind
	line, _ := json.Marshal(fields)
	if _, err := r.f.Write(append(line, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "cannot write the results file: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	fs                                *flag.FlagSet
	bench, test, format, file         *string
	expect, results, output           *string
	budgetMs, minSamples, seed, iters *uint64
	alloc, latency, noCheck, hold     *bool
}

// decimal is a flag value read in base 10 only: flag.Uint64 reads "0401" as octal, and the
// orchestrator pads --iterations with leading zeros (protocol.md step 9).
type decimal struct{ v *uint64 }

func (d decimal) String() string {
	if d.v == nil {
		return "0"
	}
	return strconv.FormatUint(*d.v, 10)
}

func (d decimal) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not a number: %q", s)
	}
	*d.v = v
	return nil
}

func decimalFlag(fs *flag.FlagSet, name string, def uint64) *uint64 {
	v := def
	fs.Var(decimal{&v}, name, "")
	return &v
}

func parse(argv []string, withRun bool) (*options, error) {
	o := &options{fs: flag.NewFlagSet("serbench-go", flag.ContinueOnError)}
	o.fs.SetOutput(io.Discard)
	o.bench = o.fs.String("bench", "", "")
	o.test = o.fs.String("test", "", "")
	o.format = o.fs.String("format", "", "")
	o.file = o.fs.String("file", "", "")
	if withRun {
		o.expect = o.fs.String("expect-hash", "", "")
		o.results = o.fs.String("results", "", "")
		o.output = o.fs.String("output-file", "", "")
		o.budgetMs = decimalFlag(o.fs, "budget-ms", 300)
		o.minSamples = decimalFlag(o.fs, "min-samples", 5)
		o.seed = decimalFlag(o.fs, "seed", 0)
		o.iters = decimalFlag(o.fs, "iterations", 0)
		o.alloc = o.fs.Bool("alloc", false, "")
		o.latency = o.fs.Bool("latency", false, "")
		o.noCheck = o.fs.Bool("no-check", false, "")
		o.hold = o.fs.Bool("hold", false, "")
	}
	if err := o.fs.Parse(argv); err != nil {
		return nil, err
	}
	if o.fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", o.fs.Arg(0))
	}
	for _, name := range []string{"bench", "test", "format", "file"} {
		if o.fs.Lookup(name).Value.String() == "" {
			return nil, fmt.Errorf("--%s is required", name)
		}
	}
	return o, nil
}

// lookup finds the benchmark and checks that it supports (test, format); else an exit code.
func lookup(o *options) (*adapters.Bench, int) {
	if !slices.Contains(protocolTests, *o.test) {
		return nil, usage(fmt.Sprintf("unknown test %q", *o.test))
	}
	for _, b := range adapters.All() {
		if b.ID == *o.bench {
			// a row of its library's own format (Binc) is run with that format's name and a corpus
			// file of the format it reads; from here on the harness works with the file's format
			*o.format = b.Input(*o.format)
			if !b.Supports(*o.test, *o.format) {
				fmt.Fprintf(os.Stderr, "%s does not support %s on %s\n", b.ID, *o.test, *o.format)
				return nil, exitUnsupported
			}
			return &b, exitOK
		}
	}
	return nil, usage(fmt.Sprintf("unknown benchmark %q", *o.bench))
}

func cmdRun(argv []string) int {
	o, err := parse(argv, true)
	if err != nil {
		return usage(err.Error())
	}
	handOver(*o.bench, append([]string{"run"}, argv...))
	b, code := lookup(o)
	if b == nil {
		return code
	}
	if *o.expect == "" || *o.results == "" {
		return usage("--expect-hash and --results are required")
	}
	iterSet := false
	o.fs.Visit(func(f *flag.Flag) { iterSet = iterSet || f.Name == "iterations" })
	if iterSet && *o.iters == 0 {
		return usage("--iterations must be at least 1")
	}
	if *o.latency && (b.IsBaseline() || b.Typed == nil || b.Typed.One == nil || (*o.test != "typed-encode" && *o.test != "typed-decode")) {
		fmt.Fprintf(os.Stderr, "--latency applies to typed-encode and typed-decode of a row with a one-record codec, not %s %s\n", b.ID, *o.test)
		return exitUnsupported
	}
	data, err := os.ReadFile(*o.file)
	if err != nil {
		return usage(fmt.Sprintf("cannot read %s: %v", *o.file, err))
	}
	f, err := os.OpenFile(*o.results, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return usage(fmt.Sprintf("cannot open %s: %v", *o.results, err))
	}
	out := &results{f}
	c, fail := prepare(b, *o.test, *o.format, data)
	if fail != nil {
		out.row("error", map[string]any{"reason": fail.reason})
		return fail.code
	}
	expect := strings.ToLower(*o.expect)
	outputFile := ""
	if *o.test == "write" || *o.test == "typed-encode" {
		outputFile = *o.output
	}
	if !*o.noCheck || outputFile != "" {
		h, output, fail := c.check()
		if fail != nil {
			out.row("error", map[string]any{"reason": fail.reason})
			return fail.code
		}
		if outputFile != "" && output != nil {
			if err := os.WriteFile(outputFile, output, 0o644); err != nil {
				return usage(fmt.Sprintf("cannot write %s: %v", outputFile, err))
			}
		}
		if !*o.noCheck {
			got := hash.Hex64(h)
			row := map[string]any{"ok": got == expect, "hash": got, "expected": expect}
			if *o.test == "write" || *o.test == "typed-encode" {
				row["output_bytes"] = nil // baselines write nothing (null, as the other harnesses)
				if output != nil {
					row["output_bytes"] = len(output)
				}
			}
			if got != expect {
				row["reason"] = fmt.Sprintf("hash %s != expected %s", got, expect)
				out.row("check", row)
				return exitMismatch
			}
			out.row("check", row)
		}
	}
	// everything the timed part needs is prepared before the hold (protocol step 10)
	var timed func() int
	if *o.latency {
		if timed, code = prepareLatency(b, c, *o.test, *o.budgetMs, !*o.noCheck, out); timed == nil {
			return code
		}
	} else {
		out.row("info", map[string]any{"measures": measuresOf(b, *o.test), "runtime": runtimeInfo(), "cpu_ns_note": "null: Go's collector and scheduler run on other threads, so one thread's CPU time is not the operation's"})
		op := c.op()
		if *o.iters > 0 {
			// protocol step 9 (--hold has no effect here; no canary: this mode reads no clock)
			if err := measure.Fixed(op, *o.iters); err != nil {
				out.row("error", map[string]any{"reason": err.Error()})
				return exitRejected
			}
			out.row("sample", map[string]any{"iterations": *o.iters, "wall_ns": 0, "cpu_ns": nil})
			return exitOK
		}
		timed = func() int { return runSamples(op, *o.budgetMs, *o.minSamples, *o.alloc, out) }
	}
	if *o.hold && *o.iters == 0 {
		hold(os.Stdin)
	}
	return timed()
}

// hold is `run --hold` (protocol step 10): it waits until one byte arrives on in or in reaches its
// end, then returns. The orchestrator starts the next process of a pass held on a core of its own,
// moves it to the harness core when the one before exits and then writes the byte; nothing is
// timed before that. A read error means the same as the end: go on.
func hold(in io.Reader) {
	var one [1]byte
	_, _ = io.ReadFull(in, one[:])
}

// runSamples is protocol steps 3, 4 and 6: calibration (the warm-up), the samples (each row with
// the time of the canary run just before its batch, canary_ns), then with alloc the allocation pass.
func runSamples(op measure.Op, budgetMs, minSamples uint64, alloc bool, out *results) int {
	samples, batch, cal, err := measure.Run(op, budgetMs*1_000_000, int(minSamples))
	if err != nil {
		out.row("error", map[string]any{"reason": err.Error()})
		return exitRejected
	}
	out.row("info", map[string]any{"batch": batch, "calibration_ns": cal})
	for _, s := range samples {
		out.row("sample", map[string]any{"iterations": s.Iterations, "wall_ns": s.WallNs, "cpu_ns": nil, "canary_ns": s.CanaryNs})
	}
	if alloc {
		// protocol step 6, after the samples: ReadMemStats stops the world, so never inside them
		var opNs uint64 // one operation's time in the last sample (0, unknown: the full count)
		if len(samples) > 0 {
			last := samples[len(samples)-1]
			opNs = last.WallNs / max(last.Iterations, 1)
		}
		n := measure.AllocCount(opNs)
		a, bytes, err := measure.Allocs(op, n)
		if err != nil {
			out.row("error", map[string]any{"reason": err.Error()})
			return exitRejected
		}
		out.row("alloc", map[string]any{"allocs_per_op": a, "alloc_bytes_per_op": bytes,
			"method": fmt.Sprintf("runtime.ReadMemStats Mallocs/TotalAlloc deltas, mean of %d ops after 1 warm-up (as go test -benchmem; up to %d, as many as fit %d ms); the decode rows' and typed reads' input copy goes into one buffer per cell, so it is not counted", n, measure.AllocIterations, measure.AllocBudgetNs/1_000_000)})
	}
	return exitOK
}

// prepareLatency prepares `run --latency` (protocol step 7): the one-record codec, every record's
// encoding and, with verify, each record's round trip. It returns the timed part, which encodes or
// decodes one record at a time, each operation timed into the log-bucketed histogram, and writes
// one `latency` row; or nil and the exit code when the cell fails before that.
func prepareLatency(b *adapters.Bench, c *cell, test string, budgetMs uint64, verify bool, out *results) (func() int, int) {
	n := c.records.Len()
	if n == 0 {
		out.row("error", map[string]any{"reason": "the dataset has no records (a typed dataset for --latency needs one)"})
		return nil, exitInput
	}
	codec, err := adapters.Lib(func() (*adapters.OneCodec, error) { return b.Typed.One(c.format, c.records) })
	wires := make([][]byte, n)
	for i := 0; err == nil && i < n; i++ {
		wires[i], err = adapters.Lib(func() ([]byte, error) { return codec.Encode(i) })
	}
	if err != nil {
		out.row("error", map[string]any{"reason": err.Error()})
		return nil, exitRejected
	}
	if verify {
		// every record round-trips on its own (outside the timed pass)
		want := c.records.RecordHashes()
		for i, w := range wires {
			in := adapters.AlignedCopy(w)
			h, err := adapters.Lib(func() (uint64, error) { return codec.Decode(in) })
			if err != nil {
				out.row("error", map[string]any{"reason": fmt.Sprintf("record %d: %v", i, err)})
				return nil, exitRejected
			}
			if h != want[i] {
				got, exp := hash.Hex64(h), hash.Hex64(want[i])
				out.row("check", map[string]any{"ok": false, "hash": got, "expected": exp, "reason": fmt.Sprintf("record %d: hash %s != %s", i, got, exp)})
				return nil, exitMismatch
			}
		}
	}
	what := "copy one record's encoding (aligned) + decode it + typed hash of the record"
	var buf adapters.AlignedBuf // one buffer, as the throughput loop's (AlignedBuf)
	op := func(i int) (uint64, error) {
		in := buf.Copy(wires[i])
		return adapters.Lib(func() (uint64, error) { return codec.Decode(in) })
	}
	if test == "typed-encode" {
		what = "encode one record (prepared outside the loop) + hash of its bytes"
		op = func(i int) (uint64, error) {
			w, err := adapters.Lib(func() ([]byte, error) { return codec.Encode(i) })
			return hash.Bin(w), err
		}
	}
	out.row("info", map[string]any{"measures": what, "runtime": runtimeInfo(), "records": n,
		"histogram": "log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)"})
	return func() int {
		h, err := measure.Latency(op, n, budgetMs*1_000_000, 100_000)
		if err != nil {
			out.row("error", map[string]any{"reason": err.Error()})
			return exitRejected
		}
		out.row("latency", map[string]any{"count": h.Count(), "p50_ns": h.Percentile(0.5), "p99_ns": h.Percentile(0.99),
			"p999_ns": h.Percentile(0.999), "p9999_ns": h.Percentile(0.9999), "max_ns": h.Max(), "buckets": h.Buckets()})
		return exitOK
	}, exitOK
}

// --- verify --------------------------------------------------------------------------------------

func printJSON(v any) {
	line, _ := json.Marshal(v)
	fmt.Println(string(line))
}

func cmdVerify(argv []string) int {
	o, err := parse(argv, false)
	if err != nil {
		return usage(err.Error())
	}
	handOver(*o.bench, append([]string{"verify"}, argv...))
	b, code := lookup(o)
	if b == nil {
		return code
	}
	data, err := os.ReadFile(*o.file)
	if err != nil {
		return usage(fmt.Sprintf("cannot read %s: %v", *o.file, err))
	}
	h, fail := verify(b, *o.test, *o.format, data)
	if fail != nil {
		printJSON(map[string]string{"error": fail.reason})
		return fail.code
	}
	printJSON(map[string]string{"hash": hash.Hex64(h)})
	return exitOK
}

func verify(b *adapters.Bench, test, format string, data []byte) (uint64, *failure) {
	c, fail := prepare(b, test, format, data)
	if fail != nil {
		return 0, fail
	}
	h, _, fail := c.check()
	return h, fail
}

// --- selftest ------------------------------------------------------------------------------------

type vectorIndex struct {
	Vectors []struct {
		Name  string            `json:"name"`
		Hash  string            `json:"hash"`
		Files map[string]string `json:"files"`
		Skip  []string          `json:"skip"`
	} `json:"vectors"`
}

func cmdSelftest(argv []string) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("vectors", "", "")
	if err := fs.Parse(argv); err != nil {
		return usage(err.Error())
	}
	if *dir == "" || fs.NArg() > 0 {
		return usage("selftest needs --vectors DIR")
	}
	pass, fail, skip, err := selftest(*dir, os.Stdout)
	if err != nil {
		return usage(err.Error())
	}
	if p := sibling(); p != "" {
		// the jsonv2 binary's rows, without its baselines (the same code, checked above)
		out, _ := exec.Command(p, "selftest", "--vectors", *dir).Output()
		for _, line := range strings.Split(string(out), "\n") {
			var r struct{ Bench, Status string }
			if json.Unmarshal([]byte(line), &r) != nil || strings.HasPrefix(r.Bench, "hash-") {
				continue
			}
			fmt.Println(line)
			switch r.Status {
			case "pass":
				pass++
			case "skip":
				skip++
			default:
				fail++
			}
		}
	}
	fmt.Fprintf(os.Stderr, "%d passed, %d failed, %d skipped\n", pass, fail, skip)
	if fail > 0 {
		return 1
	}
	return exitOK
}

// selftest runs the verify logic for every vector, benchmark and supported (test, format),
// writing one JSON line per check to w. A known deviation (known-deviations.json) is a skip, and
// a failure once it passes, so the list stays true.
func selftest(dir string, w io.Writer) (pass, fail, skip int, err error) {
	var index vectorIndex
	raw, err := os.ReadFile(filepath.Join(dir, "vectors.json"))
	if err == nil {
		err = json.Unmarshal(raw, &index)
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("cannot read %s/vectors.json: %v", dir, err)
	}
	var known map[string]any
	if err := json.Unmarshal(knownDeviations, &known); err != nil {
		return 0, 0, 0, fmt.Errorf("known-deviations.json: %v", err)
	}
	pass, fail, skip, err = conformance(dir, w)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, v := range index.Vectors {
		for _, b := range adapters.All() {
			for _, test := range b.Tests() {
				if strings.HasPrefix(test, "typed-") {
					continue // the vectors are schemaless documents: typed tests are covered by go test
				}
				for _, format := range b.Formats {
					file, ok := v.Files[format]
					if !ok {
						continue
					}
					status, reason := "pass", ""
					if slices.Contains(v.Skip, format) || slices.Contains(v.Skip, b.Library) {
						status, reason = "skip", "vector lists it in skip"
					} else {
						errText := ""
						data, err := os.ReadFile(filepath.Join(dir, file))
						if err != nil {
							errText = err.Error()
						} else if h, f := verify(&b, test, format, data); f != nil {
							errText = f.reason
						} else if got := hash.Hex64(h); got != v.Hash {
							errText = fmt.Sprintf("hash %s != %s", got, v.Hash)
						}
						byVector, _ := known[b.ID+"/"+test].(map[string]any)
						why, isKnown := byVector[v.Name].(string)
						switch {
						case isKnown && errText != "":
							status, reason = "skip", "known: "+why
						case isKnown:
							status, reason = "fail", "known deviation now passes"
						case errText != "":
							status, reason = "fail", errText
						}
					}
					selftestLine(w, &pass, &fail, &skip, b.ID, test, format, v.Name, status, reason)
				}
			}
		}
	}
	return pass, fail, skip, nil
}

// selftestLine writes one check of `selftest` as a JSON line to w and counts it by its status.
func selftestLine(w io.Writer, pass, fail, skip *int, bench, test, format, vector, status, reason string) {
	switch status {
	case "pass":
		*pass++
	case "fail":
		*fail++
	default:
		*skip++
	}
	row := map[string]any{"bench": bench, "test": test, "format": format, "vector": vector, "status": status, "reason": nil}
	if reason != "" {
		row["reason"] = reason
	}
	line, _ := json.Marshal(row)
	fmt.Fprintln(w, string(line))
}

// conformanceCase is one case of vectors/conformance/manifest.json: a byte string and the answer
// every harness's reference decoder must give for it (accept with the hash, or reject).
type conformanceCase struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	File   string `json:"file"`
	Expect string `json:"expect"`
	Hash   string `json:"hash"`
	Rule   string `json:"rule"`
}

// conformance runs every case of DIR/conformance/manifest.json, when there is one, through the
// logic of `verify --bench hash-object --test tree` (the reference decoder, then the flat hash),
// one line per case, as the bench "hash-object" and the test "conformance". An accepted case
// passes with its hash; a rejected one passes only as the input's rejection (exit 6): any other
// answer means the reference decoder judges differently from the other harnesses' (DESIGN.md
// section 12). A format without a reference decoder here (UBJSON: no Go row reads it) is skipped.
func conformance(dir string, w io.Writer) (pass, fail, skip int, err error) {
	raw, err := os.ReadFile(filepath.Join(dir, "conformance", "manifest.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, 0, nil
	}
	var m struct {
		Version int               `json:"version"`
		Cases   []conformanceCase `json:"cases"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &m)
	}
	if err == nil && m.Version != 1 {
		err = fmt.Errorf("version %d (this harness reads version 1)", m.Version)
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("cannot read %s/conformance/manifest.json: %v", dir, err)
	}
	var ref *adapters.Bench
	for _, b := range adapters.All() {
		if b.ID == "hash-object" {
			ref = &b
		}
	}
	for _, c := range m.Cases {
		status, reason := "pass", ""
		switch {
		case !slices.Contains(refdec.Formats, c.Format):
			status, reason = "skip", fmt.Sprintf("the Go harness has no %s reference decoder (no Go row reads %s)", c.Format, c.Format)
		default:
			reason = conformanceCheck(ref, filepath.Join(dir, "conformance", c.File), c)
			if reason != "" {
				status = "fail"
			}
		}
		selftestLine(w, &pass, &fail, &skip, "hash-object", "conformance", c.Format, c.Name, status, reason)
	}
	return pass, fail, skip, nil
}

// conformanceCheck is one case's answer against the expected one: "" when they agree, else why
// not. A panic in the harness's own code is reported as the case's failure, so one bad case never
// hides the others' answers (go test fails on it all the same).
func conformanceCheck(ref *adapters.Bench, path string, c conformanceCase) (reason string) {
	defer func() {
		if p := recover(); p != nil {
			reason = fmt.Sprintf("the harness panicked: %v", p)
		}
	}()
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	h, f := verify(ref, "tree", c.Format, data)
	switch {
	case c.Expect == "reject" && f == nil:
		return fmt.Sprintf("accepted (hash %s), expected a rejection (%s)", hash.Hex64(h), c.Rule)
	case c.Expect == "reject" && f.code != exitInput:
		return fmt.Sprintf("rejected with exit %d, expected exit %d: %s", f.code, exitInput, f.reason)
	case c.Expect == "reject":
		return ""
	case c.Expect != "accept":
		return fmt.Sprintf("unknown expectation %q", c.Expect)
	case f != nil:
		return fmt.Sprintf("rejected, expected an accept (%s): %s", c.Rule, f.reason)
	case hash.Hex64(h) != c.Hash:
		return fmt.Sprintf("hash %s != %s", hash.Hex64(h), c.Hash)
	}
	return ""
}
