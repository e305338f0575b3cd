//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_ffjson)

package adapters

import (
	"github.com/pquerna/ffjson/ffjson"

	ff "serbench/harnesses/go/internal/gen/ffjsongen"
	"serbench/harnesses/go/internal/typed"
)

// github.com/pquerna/ffjson: codegen, unmaintained (no tagged release; the pinned pseudo-version is
// its last commit, 2019-09-30). The generator (regen-schemas.sh) writes MarshalJSON /
// MarshalJSONBuf / UnmarshalJSON / UnmarshalJSONFFLexer for the structs of a copy of the native
// records (internal/gen/ffjsongen, viewed in place). It generates nothing for slice types, so
// ffjson.Marshal / ffjson.Unmarshal of the record slice, the library's documented entry points,
// hand the slice to encoding/json, which calls the generated methods for each record (and, as it
// does with every json.Marshaler, re-scans each record's output): what a program calling ffjson on
// a slice gets.
func init() {
	Register(Bench{ID: "ffjson-typed", Library: "ffjson", Module: "github.com/pquerna/ffjson", Formats: []string{"json"},
		Notes: "codegen, unmaintained (no tagged release, last commit 2019-09-30): ffjson.Marshal / ffjson.Unmarshal of the record slice on a copy of the native records (internal/gen/ffjsongen, regen-schemas.sh, viewed in place); ffjson generates no code for slices, so both fall back to encoding/json, which calls the generated MarshalJSON / UnmarshalJSON per record (re-scanning each record's output, as for any Marshaler); one record alone (--latency) goes through the generated code directly; Side as its number (the generated code ignores its TextMarshaler), u8s as base64",
		Typed: &Typed{
			Tests: EncDec,
			Encoder: func(_ string, r *typed.Records) (Encoder, error) {
				var v any
				switch r.Schema {
				case typed.ProductSchema:
					v = View[ff.Product](r.Products)
				case typed.TradeSchema:
					v = View[ff.Trade](r.Trades)
				default:
					v = View[ff.Nested](r.Nested)
				}
				return func() ([]byte, error) { return ffjson.Marshal(v) }, nil
			},
			Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
				switch s {
				case typed.ProductSchema:
					var v []ff.Product
					err := ffjson.Unmarshal(data, &v)
					return typed.HashProducts(View[typed.Product](v)), err
				case typed.TradeSchema:
					var v []ff.Trade
					err := ffjson.Unmarshal(data, &v)
					return typed.HashTrades(View[typed.Trade](v)), err
				}
				var v []ff.Nested
				err := ffjson.Unmarshal(data, &v)
				return typed.HashNesteds(View[typed.Nested](v)), err
			},
			One: func(_ string, r *typed.Records) (*OneCodec, error) {
				c := &OneCodec{}
				switch r.Schema {
				case typed.ProductSchema:
					c.Encode = func(i int) ([]byte, error) { return ffjson.Marshal(ViewOf[ff.Product](&r.Products[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v ff.Product
						err := ffjson.Unmarshal(d, &v)
						return typed.HashProduct(ViewOf[typed.Product](&v)), err
					}
				case typed.TradeSchema:
					c.Encode = func(i int) ([]byte, error) { return ffjson.Marshal(ViewOf[ff.Trade](&r.Trades[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v ff.Trade
						err := ffjson.Unmarshal(d, &v)
						return typed.HashTrade(ViewOf[typed.Trade](&v)), err
					}
				default:
					c.Encode = func(i int) ([]byte, error) { return ffjson.Marshal(ViewOf[ff.Nested](&r.Nested[i])) }
					c.Decode = func(d []byte) (uint64, error) {
						var v ff.Nested
						err := ffjson.Unmarshal(d, &v)
						return typed.HashNested(ViewOf[typed.Nested](&v)), err
					}
				}
				return c, nil
			},
		},
	})
}
