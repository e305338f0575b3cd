//go:build !goexperiment.jsonv2

package adapters

import (
	"github.com/shamaton/msgpack/v2"
)

// github.com/shamaton/msgpack/v2.
func init() {
	Register(Bench{ID: "shamaton-msgpack", Library: "shamaton/msgpack", Module: "github.com/shamaton/msgpack/v2", Formats: Msgpack,
		Notes: "reflection; tree: msgpack.Unmarshal into any (maps as map[any]any, string keys checked by the walk); write: msgpack.Marshal of the map[string]any tree",
		Tree:  UnmarshalTree(msgpack.Unmarshal),
		Write: func(_ string, v any) (Encoder, error) {
			return func() ([]byte, error) { return msgpack.Marshal(v) }, nil
		},
	})
}
