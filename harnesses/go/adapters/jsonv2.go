//go:build goexperiment.jsonv2 && (!sizeprobe || sizeprobe_encoding_json_v2)

package adapters

import (
	"bytes"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"fmt"
	"io"

	"serbench/harnesses/go/internal/hash"
)

// encoding/json/v2 and encoding/json/jsontext (Go 1.25+, GOEXPERIMENT=jsonv2), in the jsonv2 binary.
func init() {
	Register(
		Bench{ID: "jsonv2", Library: "encoding/json/v2", Formats: JSON,
			Notes: "standard library v2 API, built with GOEXPERIMENT=jsonv2 (" + Binary + "); tree: json.Unmarshal into any, whose numbers are float64 (v2 has no UseNumber; its raw-number mode is internal to v1's Decoder.UseNumber), so integers change type: expected incorrect wherever a document has integers; write: json.Marshal of the map[string]any tree (json-pretty: jsontext.WithIndent)",
			Tree: func(_ string, data []byte) (uint64, error) {
				var v any
				if err := jsonv2.Unmarshal(data, &v); err != nil {
					return 0, err
				}
				return hash.Any(v)
			},
			Write: func(format string, v any) (Encoder, error) {
				if format == "json-pretty" {
					return func() ([]byte, error) { return jsonv2.Marshal(v, jsontext.WithIndent("  ")) }, nil
				}
				return func() ([]byte, error) { return jsonv2.Marshal(v) }, nil
			},
		},
		Bench{ID: "jsontext-token", Library: "encoding/json/v2", Formats: JSON,
			Notes:       "standard library v2 token reader, GOEXPERIMENT=jsonv2 (" + Binary + "): jsontext.Decoder.ReadToken (duplicate names and invalid UTF-8 rejected, as v2 does by default), numbers from their raw text, into the streaming hash",
			Incremental: jsontextTokens,
		},
		Bench{ID: "jsonv2-typed", Library: "encoding/json/v2", Formats: []string{"json"},
			Notes: "standard library v2 API, GOEXPERIMENT=jsonv2 (" + Binary + "), reflection over the native structs with json tags: json.Marshal / json.Unmarshal of the record slice with default options; Side as its name (TextMarshaler), u8s ([]uint8) as base64",
			Typed: ReflectTyped(func(v any) ([]byte, error) { return jsonv2.Marshal(v) }, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) })},
	)
}

func jsontextTokens(_ string, data []byte) (uint64, error) {
	d := jsontext.NewDecoder(bytes.NewReader(data))
	var s hash.Stream
	for {
		t, err := d.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		var h uint64
		switch t.Kind() {
		case '{':
			s.StartMap()
			continue
		case '[':
			s.StartArray()
			continue
		case '}', ']':
			if err := s.End(); err != nil {
				return 0, err
			}
			continue
		case '"':
			if s.ExpectsKey() {
				if err := s.Key(hash.Str(t.String())); err != nil {
					return 0, err
				}
				continue
			}
			h = hash.Str(t.String())
		case '0':
			if h, err = hash.Number(t.String()); err != nil {
				return 0, err
			}
		case 't', 'f':
			h = hash.Bool(t.Bool())
		case 'n':
			h = hash.NullHash
		default:
			return 0, fmt.Errorf("unexpected token kind %v", t.Kind())
		}
		if err := s.Emit(h); err != nil {
			return 0, err
		}
	}
	return s.Value()
}
