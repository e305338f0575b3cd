//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_json_iterator)

package adapters

import (
	"errors"
	"io"

	jsoniter "github.com/json-iterator/go"

	"serbench/harnesses/go/internal/hash"
)

// github.com/json-iterator/go.
func init() {
	// UseNumber keeps integers exact (the default config, like encoding/json, makes them float64)
	api := jsoniter.Config{UseNumber: true}.Froze()
	Register(Bench{ID: "jsoniter-iterator", Library: "json-iterator", Module: "github.com/json-iterator/go", Formats: JSON,
		Notes: "pull API, no tree: Iterator (ParseBytes) with WhatIsNext, ReadObjectCB / ReadArrayCB callbacks (recursing into nested values; the running sums live in their frames), ReadString, ReadNumber (exact text); trailing data rejected",
		Incremental: func(_ string, data []byte) (uint64, error) {
			it := jsoniter.ParseBytes(api, data)
			h := jsoniterHash(it, 0)
			if it.Error != nil {
				return 0, it.Error
			}
			// at the end of the input WhatIsNext finds no value and sets io.EOF; anything else
			// (another value, or bytes that start none) is trailing data
			if it.WhatIsNext() != jsoniter.InvalidValue || it.Error != io.EOF {
				return 0, errTrailing
			}
			return h, nil
		},
	})
	Register(Bench{ID: "jsoniter", Library: "json-iterator", Module: "github.com/json-iterator/go", Formats: JSON,
		Notes: "reflection; frozen Config{UseNumber: true}; tree: Unmarshal into any (json.Number); write: Marshal / MarshalIndent (json-pretty) of the map[string]any tree",
		Tree:  UnmarshalTree(api.Unmarshal),
		Write: MarshalWrite(api.Marshal, api.MarshalIndent),
	})
	typedAPI := jsoniter.ConfigCompatibleWithStandardLibrary
	Register(Bench{ID: "jsoniter-typed", Library: "json-iterator", Module: "github.com/json-iterator/go", Formats: []string{"json"},
		Notes: "reflection over the native structs with json tags, ConfigCompatibleWithStandardLibrary: Marshal / Unmarshal of the record slice; Side as its name (TextMarshaler), u8s ([]uint8) as base64",
		Typed: ReflectTyped(typedAPI.Marshal, typedAPI.Unmarshal),
	})
}

// jsoniterHash hashes the next value of the iterator; errors are left in it.Error. Recursion is
// bounded by jsoniter's own depth limit (10,000) and by hash.MaxDepth.
func jsoniterHash(it *jsoniter.Iterator, depth int) uint64 {
	if depth >= hash.MaxDepth {
		it.Error = errJSONDepth
		return 0
	}
	switch it.WhatIsNext() {
	case jsoniter.ObjectValue:
		var s, n uint64
		it.ReadObjectCB(func(it *jsoniter.Iterator, key string) bool {
			h := jsoniterHash(it, depth+1)
			s += hash.MapTerm(hash.Str(key), h)
			n++
			return it.Error == nil
		})
		return hash.MapEnd(s, n)
	case jsoniter.ArrayValue:
		var s, n uint64
		it.ReadArrayCB(func(it *jsoniter.Iterator) bool {
			s += hash.ArrayTerm(n, jsoniterHash(it, depth+1))
			n++
			return it.Error == nil
		})
		return hash.ArrayEnd(s, n)
	case jsoniter.StringValue:
		return hash.Str(it.ReadString())
	case jsoniter.NumberValue:
		h, err := hash.Number(string(it.ReadNumber()))
		if err != nil && it.Error == nil {
			it.Error = err
		}
		return h
	case jsoniter.BoolValue:
		return hash.Bool(it.ReadBool())
	case jsoniter.NilValue:
		it.ReadNil()
		return hash.NullHash
	}
	if it.Error == nil {
		it.Error = errors.New("jsoniter: invalid JSON value")
	}
	return 0
}
