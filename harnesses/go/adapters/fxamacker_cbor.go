//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_fxamacker_cbor)

package adapters

import (
	"reflect"

	"github.com/fxamacker/cbor/v2"
)

// github.com/fxamacker/cbor/v2.
func init() {
	dm, err := cbor.DecOptions{
		DefaultMapType: reflect.TypeOf(map[string]any(nil)),
		// the default of 32 levels refuses the deep-array-64 vector; 1024 is go-codec's default
		MaxNestedLevels: 1024,
	}.DecMode()
	if err != nil {
		panic(err)
	}
	em, err := cbor.EncOptions{}.EncMode()
	if err != nil {
		panic(err)
	}
	Register(Bench{ID: "fxamacker-cbor", Library: "fxamacker/cbor", Module: "github.com/fxamacker/cbor/v2",
		Formats: CBOR,
		Notes:   "reflection; tree: DecMode.Unmarshal into any with DefaultMapType map[string]any and MaxNestedLevels 1024 (default 32); write: default EncMode (float64 stays 64-bit) of the map[string]any tree",
		Tree:    UnmarshalTree(dm.Unmarshal),
		Write: func(_ string, v any) (Encoder, error) {
			return func() ([]byte, error) { return em.Marshal(v) }, nil
		},
	}, Bench{ID: "fxamacker-cbor-typed", Library: "fxamacker/cbor", Module: "github.com/fxamacker/cbor/v2",
		Formats: CBOR,
		Notes:   "reflection over the native structs (json tag names), default modes: cbor.Marshal / cbor.Unmarshal of the record slice; structs as maps, Side as its number, u8s ([]uint8) as a byte string",
		Typed:   ReflectTyped(cbor.Marshal, cbor.Unmarshal),
	})
}
