//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_goccy_go_json)

package adapters

import (
	"bytes"
	"io"

	gojson "github.com/goccy/go-json"

	"serbench/harnesses/go/internal/hash"
)

// github.com/goccy/go-json.
func init() {
	Register(Bench{ID: "goccy-json", Library: "goccy/go-json", Module: "github.com/goccy/go-json", Formats: JSON,
		Notes: "reflection; tree: Decoder.UseNumber() into any (json.Number keeps integers exact), trailing data rejected; write: Marshal / MarshalIndent (json-pretty) of the map[string]any tree",
		Tree: func(_ string, data []byte) (uint64, error) {
			d := gojson.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				return 0, err
			}
			if _, err := d.Token(); err != io.EOF {
				return 0, errTrailing
			}
			return hash.Any(v)
		},
		Write: MarshalWrite(gojson.Marshal, gojson.MarshalIndent),
	}, Bench{ID: "goccy-json-typed", Library: "goccy/go-json", Module: "github.com/goccy/go-json", Formats: []string{"json"},
		Notes: "reflection over the native structs with json tags: Marshal / Unmarshal of the record slice; Side as its name (TextMarshaler), u8s ([]uint8) as base64",
		Typed: ReflectTyped(gojson.Marshal, gojson.Unmarshal),
	})
}
