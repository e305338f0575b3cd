//go:build !goexperiment.jsonv2

package adapters

import (
	"github.com/shamaton/msgpack/v2"

	"serbench/harnesses/go/internal/hash"
)

// github.com/shamaton/msgpack/v2.
func init() {
	Register(Bench{ID: "shamaton-msgpack", Library: "shamaton/msgpack", Module: "github.com/shamaton/msgpack/v2", Formats: Msgpack,
		Notes: "reflection; tree: msgpack.Unmarshal into any (maps as map[any]any, string keys checked by the walk); write: msgpack.Marshal of the map[string]any tree",
		Tree: func(_ string, data []byte) (uint64, error) {
			var v any
			if err := msgpack.Unmarshal(data, &v); err != nil {
				return 0, err
			}
			return hash.Any(v)
		},
		Write: func(_ string, v any) (Encoder, error) {
			return func() ([]byte, error) { return msgpack.Marshal(v) }, nil
		},
	})
}
