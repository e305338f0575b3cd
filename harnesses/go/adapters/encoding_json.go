//go:build !sizeprobe || sizeprobe_encoding_json

package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"serbench/harnesses/go/internal/hash"
)

// encoding/json, the standard library's v1 API. In the jsonv2 binary the experiment reimplements
// v1 on top of v2, so there its rows get their own ids (suffix "-v1-on-v2") and say which binary.
func init() {
	suffix, built := "", "default build"
	if JSONv2 {
		suffix, built = "-v1-on-v2", "v1 API as GOEXPERIMENT=jsonv2 reimplements it on v2, in "+Binary
	}
	Register(
		Bench{ID: "encoding-json" + suffix, Library: "encoding/json", Formats: JSON,
			Notes: "standard library (" + built + "), reflection; tree: Decoder.UseNumber() into any (json.Number keeps int64/uint64 exact; the walk converts each number), trailing data rejected; write: json.Marshal / MarshalIndent (json-pretty) of the map[string]any tree",
			Tree:  stdJSONTree, Write: stdJSONWrite},
		Bench{ID: "encoding-json-float64" + suffix, Library: "encoding/json", Formats: JSON,
			Notes: "standard library (" + built + "), default json.Unmarshal into any: every number becomes a float64, so integers change type (and lose digits above 2^53); expected incorrect wherever a document has integers",
			Tree:  stdJSONFloatTree},
		Bench{ID: "encoding-json-token" + suffix, Library: "encoding/json", Formats: JSON,
			Notes:       "standard library (" + built + ") pull reader: Decoder.Token() with UseNumber, each token fed to the streaming hash (no tree)",
			Incremental: stdJSONTokens},
		Bench{ID: "encoding-json-typed" + suffix, Library: "encoding/json", Formats: []string{"json"},
			Notes: "standard library (" + built + "), reflection over the native structs with json tags: json.Marshal / json.Unmarshal of the record slice; Side as its name (TextMarshaler), u8s ([]uint8 = []byte) as base64 as encoding/json writes every byte slice",
			Typed: ReflectTyped(json.Marshal, json.Unmarshal)},
	)
}

func stdJSONTree(_ string, data []byte) (uint64, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return 0, err
	}
	if _, err := d.Token(); err != io.EOF {
		return 0, errTrailing
	}
	return hash.Any(v)
}

// stdJSONFloatTree: json.Unmarshal's default float64 numbers (the row that shows what they lose).
var stdJSONFloatTree = UnmarshalTree(json.Unmarshal)

var stdJSONWrite = MarshalWrite(json.Marshal, json.MarshalIndent)

func stdJSONTokens(_ string, data []byte) (uint64, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var s hash.Stream
	for {
		t, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		var h uint64
		switch x := t.(type) {
		case json.Delim:
			switch x {
			case '{':
				s.StartMap()
			case '[':
				s.StartArray()
			default:
				err = s.End()
			}
			if err != nil {
				return 0, err
			}
			continue
		case string:
			if s.ExpectsKey() {
				if err := s.Key(hash.Str(x)); err != nil {
					return 0, err
				}
				continue
			}
			h = hash.Str(x)
		case json.Number:
			if h, err = hash.Number(string(x)); err != nil {
				return 0, err
			}
		case bool:
			h = hash.Bool(x)
		case nil:
			h = hash.NullHash
		default:
			return 0, fmt.Errorf("unexpected token of Go type %T", t)
		}
		if err := s.Emit(h); err != nil {
			return 0, err
		}
	}
	return s.Value()
}
