// Package adapters holds the benchmarks of the Go harness: one file per library, each with one
// registration (Register in its init function). Capabilities a row does not set stay unsupported.
package adapters

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"

	"serbench/harnesses/go/internal/hash"
)

// DecodeFn decodes the bytes (the caller passes a fresh copy, which the library may keep or
// overwrite) and returns the object hash: of the library's tree for tree rows, computed from its
// events for incremental rows.
type DecodeFn func(format string, data []byte) (uint64, error)

// Encoder is a write row's operation: it encodes the object it was made for.
type Encoder func() ([]byte, error)

// UnmarshalTree is the tree row of a library whose natural API is Unmarshal(data, &v): decode into
// an `any` and walk it with the hash.
func UnmarshalTree(unmarshal func([]byte, any) error) DecodeFn {
	return func(_ string, data []byte) (uint64, error) {
		var v any
		if err := unmarshal(data, &v); err != nil {
			return 0, err
		}
		return hash.Any(v)
	}
}

// MarshalWrite is the write row of a JSON library with Marshal and MarshalIndent: compact for
// json, indented by two spaces for json-pretty (the corpus's pretty form).
func MarshalWrite(marshal func(any) ([]byte, error), indent func(any, string, string) ([]byte, error)) WriteFn {
	return func(format string, v any) (Encoder, error) {
		if format == "json-pretty" {
			return func() ([]byte, error) { return indent(v, "", "  ") }, nil
		}
		return func() ([]byte, error) { return marshal(v) }, nil
	}
}

// WriteFn makes a write row's Encoder from the harness's object (refdec's tree), outside the
// timed loop. The timed loop then starts from that object, as an application starts from its own
// data (spec/fairness.md rule 10): Go libraries write from map[string]any directly.
type WriteFn func(format string, v any) (Encoder, error)

// Bench is one benchmark: one library used one way.
type Bench struct {
	ID string
	// Library is the library's name in reports; Module is its Go module path ("" for the
	// standard library), whose version is read from the binary's build information.
	Library, Module string
	Formats         []string
	Notes           string
	Tree            DecodeFn
	Incremental     DecodeFn
	Write           WriteFn
	// BaselineFor: the tests a baseline stands for (set only on baselines).
	BaselineFor []string
	// BaselineOverride maps a test to another baseline than its default (DefaultBaseline).
	BaselineOverride map[string]string
	// Own is set on rows of a format that only this library has (go-codec's Binc and Simple).
	Own *OwnFormat
	// Typed is set on typed rows (spec/typed.md); their Formats are typed wire format ids.
	Typed *Typed
	// Measures says what the loop of each test times, where the test's own text does not (baselines).
	Measures map[string]string
	// Steps maps a test to the steps this row's timed loop performs, only where they are not the
	// test's contract (ContractSteps): a deviation word (Deviations) in place of a contract word,
	// or a row that does another test's work (its baseline says which). Nil on every row that
	// keeps the contract.
	Steps map[string][]string
}

// Deviations are the words a row's steps use in place of a contract word where its loop does
// other work than its test's contract (DESIGN.md section 12): such a row is a labelled variant,
// never ranked with the rows that keep the contract. "prebuilt": a write from the library's own
// value built outside the loop; "convert": a typed row converting between the harness's records
// and the library's types inside the loop; "decode-unchecked" / "view-unchecked": the library's
// validation skipped; "decode-lazy": values left unmaterialised and not read in the loop.
var Deviations = []string{"prebuilt", "convert", "decode-unchecked", "view-unchecked", "decode-lazy"}

// ContractSteps is the work contract of each test, in one place (spec/fairness.md): the steps
// every row of test performs in its timed loop, and (baseline) those of the baseline that stands
// for it, whose time is subtracted, so a row's net time is its steps less the baseline's.
func ContractSteps(test string, baseline bool) []string {
	switch test {
	case "write":
		if baseline {
			return []string{"hash-output"}
		}
		return []string{"from-object", "encode", "hash-output"}
	case "tree", "typed-decode":
		if baseline {
			return []string{"copy-input", "visit-all"}
		}
		return []string{"copy-input", "decode", "visit-all"}
	case "incremental":
		if baseline {
			return []string{"copy-input", "hash-events"}
		}
		return []string{"copy-input", "parse-events", "hash-events"}
	case "typed-encode":
		if baseline {
			return []string{"hash-output"}
		}
		return []string{"encode", "hash-output"}
	case "typed-access":
		if baseline {
			return []string{"copy-input", "visit-all"}
		}
		return []string{"copy-input", "view", "visit-all"}
	}
	return nil
}

// StepsOf is the steps the row's loop performs for test (`list`'s `steps`): its own, else the
// test's contract.
func (b *Bench) StepsOf(test string) []string {
	if s, ok := b.Steps[test]; ok {
		return s
	}
	return ContractSteps(test, b.IsBaseline())
}

// OwnFormat is a format no corpus file is written in. Its rows read the document from a corpus
// file (decoded by the reference decoder): write encodes it in the own format, and the check
// decodes that output with the library's own decoder and hashes it; tree decodes the library's
// own encoding of the document, made once outside the timed loop.
type OwnFormat struct {
	Name   string
	Encode func(v any) ([]byte, error)
	// Decode decodes the library's own encoding and returns the object hash.
	Decode func(data []byte) (uint64, error)
}

// Tests lists what the row supports, in protocol order.
func (b *Bench) Tests() []string {
	if len(b.BaselineFor) > 0 {
		return b.BaselineFor
	}
	var t []string
	if b.Write != nil {
		t = append(t, "write")
	}
	if b.Tree != nil {
		t = append(t, "tree")
	}
	if b.Incremental != nil {
		t = append(t, "incremental")
	}
	if b.Typed != nil {
		t = append(t, b.Typed.Tests...)
	}
	return t
}

// IsBaseline tells whether the row is a baseline.
func (b *Bench) IsBaseline() bool { return len(b.BaselineFor) > 0 }

// WireFormats are the formats `list` gives: a row of a format only its library has lists that
// format's name, and says in `reads` which corpus format its document comes from (Formats[0]), so
// its cells are reported under its own format, never under the corpus format it reads
// (spec/protocol.md, `list`).
func (b *Bench) WireFormats() []string {
	if b.Own != nil {
		return []string{b.Own.Name}
	}
	return b.Formats
}

// Reads maps each of the row's own formats to the corpus format it reads (nil for other rows).
func (b *Bench) Reads() map[string]string {
	if b.Own == nil {
		return nil
	}
	return map[string]string{b.Own.Name: b.Formats[0]}
}

// Input is the corpus format of the file that a command line's --format names: for a row of its
// library's own format, the format it reads; otherwise the format itself.
func (b *Bench) Input(format string) string {
	if b.Own != nil && format == b.Own.Name {
		return b.Formats[0]
	}
	return format
}

// Supports tells whether the row runs test on format.
func (b *Bench) Supports(test, format string) bool {
	return slices.Contains(b.Tests(), test) && slices.Contains(b.Formats, format)
}

// DefaultBaseline is the baseline a row of test subtracts unless it says otherwise
// (spec/fairness.md rule 5): tree rows walk a decoded tree with hash.Any, and hash-object does
// the hash's work over the harness's own object with its cheapest walk (hash.Flat), so the type
// switch a row needs to read its library's tree stays in its net time; incremental rows feed the
// streaming form from parse events, as hash-events replays a prebuilt event list; write rows hash
// their output bytes, as hash-data hashes the input; typed rows hash native records with the typed
// hash (hash-typed) or hash their encoding (hash-data-typed). No row subtracts hash-walk.
func DefaultBaseline(test string) string {
	switch test {
	case "write":
		return "hash-data"
	case "incremental":
		return "hash-events"
	case "typed-encode":
		return "hash-data-typed"
	case "typed-decode", "typed-access":
		return "hash-typed"
	}
	return "hash-object"
}

// Baseline is the id of the baseline the row's test subtracts.
func (b *Bench) Baseline(test string) string {
	if o, ok := b.BaselineOverride[test]; ok {
		return o
	}
	return DefaultBaseline(test)
}

// Version is the exact version of the row's library, from the binary's build information, so it
// can never drift from go.mod; the standard library's is the Go version.
func (b *Bench) Version() string {
	switch b.Module {
	case "":
		return runtime.Version()
	case HarnessModule:
		return HarnessVersion
	}
	return ModuleVersion(b.Module)
}

// HarnessModule and HarnessVersion name the harness itself (the baselines' "library").
const (
	HarnessModule  = "serbench/harnesses/go"
	HarnessVersion = "0.1.0"
)

var (
	versionsOnce sync.Once
	versions     map[string]string
)

// ModuleVersion is the version of a module linked into this binary ("unknown" if absent).
func ModuleVersion(path string) string {
	versionsOnce.Do(func() {
		versions = map[string]string{}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, d := range bi.Deps {
				if d.Replace != nil {
					d = d.Replace
				}
				versions[d.Path] = d.Version
			}
		}
	})
	if v, ok := versions[path]; ok {
		return v
	}
	return "unknown"
}

var registry []Bench

// Register adds a library's rows; each adapter file calls it once, from its init function.
func Register(rows ...Bench) { registry = append(registry, rows...) }

// Order is the listing order of the libraries: the go-codec handles first (the reference of the
// Go serialization field, issue 14), then the standard library, the other MessagePack, CBOR and
// BSON codecs, the JSON libraries, the JSON readers without a write, and the schema-first formats
// (typed rows only). A library missing here is listed after these, by id.
var Order = []string{
	"go-codec", "encoding/json", "encoding/gob",
	"vmihailenco/msgpack", "tinylib/msgp", "shamaton/msgpack", "fxamacker/cbor", "mongo-driver/bson",
	"json-iterator", "goccy/go-json", "segmentio/encoding", "sonic", "mailru/easyjson", "ffjson", "fastjson", "buger/jsonparser",
	"sereal", "google.golang.org/protobuf", "vtprotobuf", "flatbuffers", "capnp",
}

// All is every benchmark: the baselines first, then the libraries in Order, each library's rows
// in the order its file registers them.
func All() []Bench {
	rows := slices.Clone(registry)
	rank := func(b *Bench) int {
		if b.IsBaseline() {
			return -1
		}
		if i := slices.Index(Order, b.Library); i >= 0 {
			return i
		}
		return len(Order)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		ri, rj := rank(&rows[i]), rank(&rows[j])
		if ri != rj {
			return ri < rj
		}
		return ri == len(Order) && rows[i].ID < rows[j].ID
	})
	return rows
}

// Lib calls into a library. A panic inside it becomes the error "library panicked: ..." (the
// row's rejection, exit 3) instead of ending the harness. Only library calls go through here, so
// a panic in the harness's own code is never reported as a library's rejection. A Go stack
// overflow or a fatal runtime error cannot be recovered: it ends the process (exit 2 and
// "fatal error" on stderr), which the orchestrator reports as the library's crash.
func Lib[T any](f func() (T, error)) (r T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("library panicked: %v", p)
		}
	}()
	return f()
}

// Formats shared by several rows.
var (
	JSON    = []string{"json", "json-pretty"}
	Msgpack = []string{"msgpack"}
	CBOR    = []string{"cbor"}
	BSON    = []string{"bson"}
)

// Errors shared by several libraries' files (each file compiles alone in a code-size probe,
// cmd/sizeprobe, so what two files use lives here).
var (
	errTrailing  = errors.New("trailing data after the document")
	errJSONDepth = &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
)
