//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_sonic)

package adapters

import (
	"github.com/bytedance/sonic"
)

// github.com/bytedance/sonic: JIT and SIMD on amd64 (and arm64); two configs as two rows.
func init() {
	// UseNumber in both: the defaults decode every number to float64, like encoding/json
	def := sonic.Config{UseNumber: true}.Froze()
	std := sonic.Config{EscapeHTML: true, SortMapKeys: true, CompactMarshaler: true, CopyString: true,
		ValidateString: true, UseNumber: true}.Froze()
	row := func(id, notes string, api sonic.API, steps map[string][]string) Bench {
		return Bench{ID: id, Library: "sonic", Module: "github.com/bytedance/sonic", Formats: JSON, Notes: notes,
			Tree:  UnmarshalTree(api.Unmarshal),
			Write: MarshalWrite(api.Marshal, api.MarshalIndent),
			Steps: steps,
		}
	}
	// ConfigDefault's decoder skips string validation (ValidateString false: control characters
	// in strings are accepted) and leaves strings in the input buffer (CopyString false): less
	// work than a checked decode, so its rows are labelled unchecked and never ranked with sonic-std
	unchecked := map[string][]string{"tree": {"copy-input", "decode-unchecked", "visit-all"}}
	uncheckedTyped := map[string][]string{"typed-decode": {"copy-input", "decode-unchecked", "visit-all"}}
	Register(
		row("sonic", "JIT; ConfigDefault's settings plus UseNumber (strings may share the input buffer, no string validation, map keys unsorted); tree: Unmarshal into any; write: Marshal of the map[string]any tree", def, unchecked),
		row("sonic-std", "JIT; ConfigStd's settings (std-compatible: copied strings, validated UTF-8, sorted keys, HTML escaped) plus UseNumber; tree: Unmarshal into any; write: Marshal of the map[string]any tree", std, nil),
		Bench{ID: "sonic-typed", Library: "sonic", Module: "github.com/bytedance/sonic", Formats: []string{"json"},
			Notes: "JIT over the native structs with json tags, ConfigDefault's settings: Marshal / Unmarshal of the record slice; Side as its name (TextMarshaler), u8s ([]uint8) as base64",
			Typed: ReflectTyped(sonic.ConfigDefault.Marshal, sonic.ConfigDefault.Unmarshal), Steps: uncheckedTyped},
		Bench{ID: "sonic-std-typed", Library: "sonic", Module: "github.com/bytedance/sonic", Formats: []string{"json"},
			Notes: "JIT over the native structs with json tags, ConfigStd's settings (std-compatible): Marshal / Unmarshal of the record slice; Side as its name, u8s as base64",
			Typed: ReflectTyped(sonic.ConfigStd.Marshal, sonic.ConfigStd.Unmarshal)},
	)
}
