//go:build !goexperiment.jsonv2

package adapters

import (
	"github.com/bytedance/sonic"

	"serbench/harnesses/go/internal/hash"
)

// github.com/bytedance/sonic: JIT and SIMD on amd64 (and arm64); two configs as two rows.
func init() {
	// UseNumber in both: the defaults decode every number to float64, like encoding/json
	def := sonic.Config{UseNumber: true}.Froze()
	std := sonic.Config{EscapeHTML: true, SortMapKeys: true, CompactMarshaler: true, CopyString: true,
		ValidateString: true, UseNumber: true}.Froze()
	row := func(id, notes string, api sonic.API) Bench {
		return Bench{ID: id, Library: "sonic", Module: "github.com/bytedance/sonic", Formats: JSON, Notes: notes,
			Tree: func(_ string, data []byte) (uint64, error) {
				var v any
				if err := api.Unmarshal(data, &v); err != nil {
					return 0, err
				}
				return hash.Any(v)
			},
			Write: func(format string, v any) (Encoder, error) {
				if format == "json-pretty" {
					return func() ([]byte, error) { return api.MarshalIndent(v, "", "  ") }, nil
				}
				return func() ([]byte, error) { return api.Marshal(v) }, nil
			},
		}
	}
	Register(
		row("sonic", "JIT; ConfigDefault's settings plus UseNumber (strings may share the input buffer, no string validation, map keys unsorted); tree: Unmarshal into any; write: Marshal of the map[string]any tree", def),
		row("sonic-std", "JIT; ConfigStd's settings (std-compatible: copied strings, validated UTF-8, sorted keys, HTML escaped) plus UseNumber; tree: Unmarshal into any; write: Marshal of the map[string]any tree", std),
	)
}
