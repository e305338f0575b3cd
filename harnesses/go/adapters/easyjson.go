//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_mailru_easyjson)

package adapters

import (
	"github.com/mailru/easyjson"
	"github.com/mailru/easyjson/jlexer"
	"github.com/mailru/easyjson/jwriter"

	"serbench/harnesses/go/internal/gen/easyjsongen"
	"serbench/harnesses/go/internal/typed"
)

// github.com/mailru/easyjson: codegen. The generator (regen-schemas.sh) writes MarshalEasyJSON /
// UnmarshalEasyJSON for the structs of a copy of the native records (internal/gen/easyjsongen,
// viewed in place); a record slice is written and read as easyjson's generated code writes a slice
// field: '[' records ']' through one jwriter.Writer / jlexer.Lexer.
func init() {
	Register(Bench{ID: "easyjson-typed", Library: "mailru/easyjson", Module: "github.com/mailru/easyjson", Formats: []string{"json"},
		Notes: "codegen: the easyjson generator's MarshalEasyJSON / UnmarshalEasyJSON on a copy of the native records (internal/gen/easyjsongen, regen-schemas.sh), a record slice through one jwriter.Writer (BuildBytes) / jlexer.Lexer; Side as its name (TextMarshaler), u8s as base64",
		Typed: &Typed{
			Tests: EncDec,
			Encoder: func(_ string, r *typed.Records) (Encoder, error) {
				switch r.Schema {
				case typed.ProductSchema:
					v := View[easyjsongen.Product](r.Products)
					return func() ([]byte, error) { return easyjsonList(v) }, nil
				case typed.TradeSchema:
					v := View[easyjsongen.Trade](r.Trades)
					return func() ([]byte, error) { return easyjsonList(v) }, nil
				}
				v := View[easyjsongen.Nested](r.Nested)
				return func() ([]byte, error) { return easyjsonList(v) }, nil
			},
			Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
				switch s {
				case typed.ProductSchema:
					v, err := easyjsonRead[easyjsongen.Product](data)
					return typed.HashProducts(View[typed.Product](v)), err
				case typed.TradeSchema:
					v, err := easyjsonRead[easyjsongen.Trade](data)
					return typed.HashTrades(View[typed.Trade](v)), err
				}
				v, err := easyjsonRead[easyjsongen.Nested](data)
				return typed.HashNesteds(View[typed.Nested](v)), err
			},
			One: func(_ string, r *typed.Records) (*OneCodec, error) {
				c := &OneCodec{}
				switch r.Schema {
				case typed.ProductSchema:
					c.Encode = func(i int) ([]byte, error) { return easyjson.Marshal(ViewOf[easyjsongen.Product](&r.Products[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v easyjsongen.Product
						err := easyjson.Unmarshal(d, &v)
						return typed.HashProduct(ViewOf[typed.Product](&v)), err
					}
				case typed.TradeSchema:
					c.Encode = func(i int) ([]byte, error) { return easyjson.Marshal(ViewOf[easyjsongen.Trade](&r.Trades[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v easyjsongen.Trade
						err := easyjson.Unmarshal(d, &v)
						return typed.HashTrade(ViewOf[typed.Trade](&v)), err
					}
				default:
					c.Encode = func(i int) ([]byte, error) { return easyjson.Marshal(ViewOf[easyjsongen.Nested](&r.Nested[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v easyjsongen.Nested
						err := easyjson.Unmarshal(d, &v)
						return typed.HashNested(ViewOf[typed.Nested](&v)), err
					}
				}
				return c, nil
			},
		},
	})
}

// easyjsonList writes a record slice as easyjson writes a slice of a generated type.
func easyjsonList[T any, P interface {
	*T
	easyjson.Marshaler
}](v []T) ([]byte, error) {
	var w jwriter.Writer
	w.RawByte('[')
	for i := range v {
		if i > 0 {
			w.RawByte(',')
		}
		P(&v[i]).MarshalEasyJSON(&w)
	}
	w.RawByte(']')
	return w.BuildBytes()
}

// easyjsonRead reads a record slice as easyjson reads a slice of a generated type; the whole
// input must be consumed.
func easyjsonRead[T any, P interface {
	*T
	easyjson.Unmarshaler
}](data []byte) ([]T, error) {
	l := jlexer.Lexer{Data: data}
	var out []T
	l.Delim('[')
	for !l.IsDelim(']') && l.Ok() {
		var v T
		P(&v).UnmarshalEasyJSON(&l)
		out = append(out, v)
		l.WantComma()
	}
	l.Delim(']')
	l.Consumed()
	return out, l.Error()
}
