//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_fastjson)

package adapters

import (
	"fmt"

	"github.com/valyala/fastjson"

	"serbench/harnesses/go/internal/hash"
)

// github.com/valyala/fastjson: a parser that builds its own tree of *fastjson.Value, reused
// across parses as its documentation advises (the tree lives until the next parse).
func init() {
	var p fastjson.Parser
	Register(Bench{ID: "fastjson", Library: "fastjson", Module: "github.com/valyala/fastjson", Formats: JSON,
		Notes: "reused Parser (documented use; its Values are valid until the next Parse), ParseBytes then a walk of *fastjson.Value; strings unescaped lazily on access, numbers kept as text and converted by the walk",
		Tree: func(_ string, data []byte) (uint64, error) {
			v, err := p.ParseBytes(data)
			if err != nil {
				return 0, err
			}
			return fastjsonHash(v, 0)
		},
	})
}

func fastjsonHash(v *fastjson.Value, depth int) (uint64, error) {
	switch v.Type() {
	case fastjson.TypeObject:
		if depth >= hash.MaxDepth {
			return 0, &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
		}
		o, _ := v.Object()
		var s uint64
		var err error
		o.Visit(func(k []byte, x *fastjson.Value) {
			if err != nil {
				return
			}
			var h uint64
			if h, err = fastjsonHash(x, depth+1); err == nil {
				s += hash.MapTerm(hash.StrBytes(k), h)
			}
		})
		if err != nil {
			return 0, err
		}
		return hash.MapEnd(s, uint64(o.Len())), nil
	case fastjson.TypeArray:
		if depth >= hash.MaxDepth {
			return 0, &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
		}
		a, _ := v.Array()
		var s uint64
		for i, x := range a {
			h, err := fastjsonHash(x, depth+1)
			if err != nil {
				return 0, err
			}
			s += hash.ArrayTerm(uint64(i), h)
		}
		return hash.ArrayEnd(s, uint64(len(a))), nil
	case fastjson.TypeString:
		b, err := v.StringBytes()
		if err != nil {
			return 0, err
		}
		return hash.StrBytes(b), nil
	case fastjson.TypeNumber:
		var buf [32]byte
		return hash.NumberBytes(v.MarshalTo(buf[:0]))
	case fastjson.TypeTrue:
		return hash.TrueHash, nil
	case fastjson.TypeFalse:
		return hash.FalseHash, nil
	case fastjson.TypeNull:
		return hash.NullHash, nil
	}
	return 0, fmt.Errorf("unexpected fastjson type %v", v.Type())
}
