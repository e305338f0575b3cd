//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_buger_jsonparser)

package adapters

import (
	"errors"

	"github.com/buger/jsonparser"

	"serbench/harnesses/go/internal/hash"
)

// github.com/buger/jsonparser: no tree; ObjectEach / ArrayEach callbacks over the input bytes.
func init() {
	Register(Bench{ID: "jsonparser", Library: "buger/jsonparser", Module: "github.com/buger/jsonparser", Formats: JSON,
		Notes: "no tree: ObjectEach / ArrayEach callbacks, recursing into nested values, strings through ParseString (unescaping), numbers from their text; the running sums live in the callbacks' frames, as serde visitors' do in the Rust harness; it does not reject every malformed document (it skips what it is not asked for)",
		Incremental: func(_ string, data []byte) (uint64, error) {
			v, t, _, err := jsonparser.Get(data)
			if err != nil {
				return 0, err
			}
			return jsonparserHash(v, t, 0)
		},
	})
}

func jsonparserHash(v []byte, t jsonparser.ValueType, depth int) (uint64, error) {
	switch t {
	case jsonparser.Object:
		if depth >= hash.MaxDepth {
			return 0, errJSONDepth
		}
		var s, n uint64
		err := jsonparser.ObjectEach(v, func(k, x []byte, xt jsonparser.ValueType, _ int) error {
			h, err := jsonparserHash(x, xt, depth+1)
			if err != nil {
				return err
			}
			s += hash.MapTerm(hash.StrBytes(k), h)
			n++
			return nil
		})
		if err != nil {
			return 0, err
		}
		return hash.MapEnd(s, n), nil
	case jsonparser.Array:
		if depth >= hash.MaxDepth {
			return 0, errJSONDepth
		}
		var s, n uint64
		var inner error
		_, err := jsonparser.ArrayEach(v, func(x []byte, xt jsonparser.ValueType, _ int, e error) {
			if inner != nil {
				return
			}
			if e != nil {
				inner = e
				return
			}
			h, err := jsonparserHash(x, xt, depth+1)
			if err != nil {
				inner = err
				return
			}
			s += hash.ArrayTerm(n, h)
			n++
		})
		if err == nil {
			err = inner
		}
		if err != nil {
			return 0, err
		}
		return hash.ArrayEnd(s, n), nil
	case jsonparser.String:
		str, err := jsonparser.ParseString(v)
		if err != nil {
			return 0, err
		}
		return hash.Str(str), nil
	case jsonparser.Number:
		return hash.NumberBytes(v)
	case jsonparser.Boolean:
		b, err := jsonparser.ParseBoolean(v)
		if err != nil {
			return 0, err
		}
		return hash.Bool(b), nil
	case jsonparser.Null:
		return hash.NullHash, nil
	}
	return 0, errors.New("jsonparser: unknown value type")
}
