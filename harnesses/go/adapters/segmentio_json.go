//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_segmentio_encoding)

package adapters

import (
	"bytes"

	segjson "github.com/segmentio/encoding/json"

	"serbench/harnesses/go/internal/hash"
)

// github.com/segmentio/encoding/json.
func init() {
	Register(Bench{ID: "segmentio-json", Library: "segmentio/encoding", Module: "github.com/segmentio/encoding", Formats: JSON,
		Notes: "reflection; tree: json.Parse with the UseNumber flag into any (json.Number), the rest must be white space; write: Marshal / MarshalIndent (json-pretty) of the map[string]any tree",
		Tree: func(_ string, data []byte) (uint64, error) {
			var v any
			rest, err := segjson.Parse(data, &v, segjson.UseNumber)
			if err != nil {
				return 0, err
			}
			if len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
				return 0, errTrailing
			}
			return hash.Any(v)
		},
		Write: MarshalWrite(segjson.Marshal, segjson.MarshalIndent),
	}, Bench{ID: "segmentio-json-typed", Library: "segmentio/encoding", Module: "github.com/segmentio/encoding", Formats: []string{"json"},
		Notes: "reflection over the native structs with json tags: json.Marshal / json.Unmarshal of the record slice; Side as its name (TextMarshaler), u8s ([]uint8) as base64",
		Typed: ReflectTyped(segjson.Marshal, segjson.Unmarshal),
	})
}
