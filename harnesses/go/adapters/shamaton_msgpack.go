//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_shamaton_msgpack)

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
	}, Bench{ID: "shamaton-msgpack-typed", Library: "shamaton/msgpack", Module: "github.com/shamaton/msgpack/v2", Formats: Msgpack,
		Notes: "reflection over the native structs with msgpack tags: msgpack.Marshal / msgpack.Unmarshal of the record slice; structs as maps (the default), Side as its number, u8s ([]uint8) as bin",
		Typed: ReflectTyped(msgpack.Marshal, msgpack.Unmarshal),
	})
}
