//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_go_codec)

package adapters

import (
	"reflect"

	"github.com/ugorji/go/codec"

	cg "serbench/harnesses/go/internal/gen/codecgen"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/typed"
)

// github.com/ugorji/go/codec (go-codec): one library, one handle per format. Each handle decodes
// schemaless data into any (maps as map[string]any) and encodes the map[string]any tree. The typed
// rows come twice: reflection over the native records, and codecgen's generated code
// (internal/gen/codecgen, regen-schemas.sh). go-codec v1.3 dropped codecgen, so every go-codec row
// uses v1.2.14, the last version with it: reflection and codegen of one version, comparable.
func init() {
	mapType := reflect.TypeOf(map[string]any(nil))
	mp := &codec.MsgpackHandle{}
	mp.MapType = mapType
	// WriteExt: the current MessagePack spec (str8 and bin types; strings decode as string, bin
	// as []byte). Without it go-codec writes the old spec, where binary and strings are one "raw".
	mp.WriteExt = true
	cb := &codec.CborHandle{}
	cb.MapType = mapType
	js := &codec.JsonHandle{}
	js.MapType = mapType
	pretty := &codec.JsonHandle{Indent: 2}
	pretty.MapType = mapType
	tree := func(h codec.Handle) DecodeFn {
		return func(_ string, data []byte) (uint64, error) {
			var v any
			if err := codec.NewDecoderBytes(data, h).Decode(&v); err != nil {
				return 0, err
			}
			return hash.Any(v)
		}
	}
	write := func(h, hPretty codec.Handle) WriteFn {
		return func(format string, v any) (Encoder, error) {
			h := h // per encoder: json-pretty must not change the handle of later json rows
			if format == "json-pretty" {
				h = hPretty
			}
			return func() ([]byte, error) {
				var out []byte
				err := codec.NewEncoderBytes(&out, h).Encode(v)
				return out, err
			}, nil
		}
	}
	bc := &codec.BincHandle{}
	bc.MapType = mapType
	sp := &codec.SimpleHandle{}
	sp.MapType = mapType
	own := func(name string, h codec.Handle) *OwnFormat {
		return &OwnFormat{Name: name,
			Encode: func(v any) ([]byte, error) {
				var out []byte
				err := codec.NewEncoderBytes(&out, h).Encode(v)
				return out, err
			},
			Decode: func(data []byte) (uint64, error) { return tree(h)("", data) },
		}
	}
	const ownNotes = " format that only go-codec has, so no corpus file exists in it: the document is read from the MessagePack corpus file (`reads`, spec/protocol.md), and its cells are reported under its own format; write encodes it in this format (checked by decoding the output with go-codec's own decoder and hashing it), tree decodes go-codec's own encoding of it (made outside the loop; the hash-object baseline copies the MessagePack file's bytes instead); output sizes are this format's"
	const notes = "reflection; a fresh Decoder/Encoder per operation (NewDecoderBytes / NewEncoderBytes), decoding into any with MapType map[string]any"
	Register(
		Bench{ID: "go-codec-msgpack", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: Msgpack,
			Notes: notes + "; MsgpackHandle with WriteExt (current spec: str8 and bin)",
			Tree:  tree(mp), Write: write(mp, mp)},
		Bench{ID: "go-codec-cbor", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: CBOR,
			Notes: notes + "; CborHandle",
			Tree:  tree(cb), Write: write(cb, cb)},
		Bench{ID: "go-codec-json", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: JSON,
			Notes: notes + "; JsonHandle (numbers without . e E decode as integers), Indent 2 for json-pretty",
			Tree:  tree(js), Write: write(js, pretty)},
		Bench{ID: "go-codec-binc", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: Msgpack,
			Notes: notes + "; BincHandle: Binc, a" + ownNotes,
			Own:   own("binc", bc), Tree: tree(bc), Write: write(bc, bc)},
		Bench{ID: "go-codec-simple", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: Msgpack,
			Notes: notes + "; SimpleHandle: go-codec's Simple encoding, a" + ownNotes,
			Own:   own("simple", sp), Tree: tree(sp), Write: write(sp, sp)},
	)
	// typed rows: their own handles (the schemaless rows' MapType does not apply to structs)
	typedRow := func(h codec.Handle) *Typed {
		return ReflectTyped(func(v any) ([]byte, error) {
			var out []byte
			err := codec.NewEncoderBytes(&out, h).Encode(v)
			return out, err
		}, func(d []byte, v any) error { return codec.NewDecoderBytes(d, h).Decode(v) })
	}
	tmp := &codec.MsgpackHandle{}
	tmp.WriteExt = true
	const typedNotes = "reflection over the native structs (codec tags), a fresh Encoder/Decoder per operation (NewEncoderBytes / NewDecoderBytes); structs as maps (the default)"
	Register(
		Bench{ID: "go-codec-msgpack-typed", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: Msgpack,
			Notes: typedNotes + "; MsgpackHandle with WriteExt; Side as its number (binary handles ignore TextMarshaler), u8s as bin",
			Typed: typedRow(tmp)},
		Bench{ID: "go-codec-cbor-typed", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: CBOR,
			Notes: typedNotes + "; CborHandle; u8s as a byte string",
			Typed: typedRow(&codec.CborHandle{})},
		Bench{ID: "go-codec-json-typed", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: []string{"json"},
			Notes: typedNotes + "; JsonHandle; Side as its name (TextMarshaler), u8s as base64",
			Typed: typedRow(&codec.JsonHandle{})},
	)
	const codecgenNotes = "codegen: codecgen v1.2.14's CodecEncodeSelf / CodecDecodeSelf on a copy of the native records (internal/gen/codecgen, regen-schemas.sh, viewed in place), called by the same NewEncoderBytes / NewDecoderBytes per operation as the reflection row; structs as maps"
	cmp := &codec.MsgpackHandle{}
	cmp.WriteExt = true
	Register(
		Bench{ID: "go-codec-msgpack-codecgen", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: Msgpack,
			Notes: codecgenNotes + "; MsgpackHandle with WriteExt; Side as its number, u8s as bin",
			Typed: codecgenTyped(cmp)},
		Bench{ID: "go-codec-cbor-codecgen", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: CBOR,
			Notes: codecgenNotes + "; CborHandle; u8s as a byte string",
			Typed: codecgenTyped(&codec.CborHandle{})},
		Bench{ID: "go-codec-json-codecgen", Library: "go-codec", Module: "github.com/ugorji/go/codec", Formats: []string{"json"},
			Notes: codecgenNotes + "; JsonHandle; Side as its name (TextMarshaler), u8s as base64",
			Typed: codecgenTyped(&codec.JsonHandle{})},
	)
}

// The generated types are Selfers: go-codec calls their generated methods instead of reflecting.
var (
	_ codec.Selfer = (*cg.Products)(nil)
	_ codec.Selfer = (*cg.Trades)(nil)
	_ codec.Selfer = (*cg.Nesteds)(nil)
	_ codec.Selfer = (*cg.Nested)(nil)
)

// codecgenTyped is the typed capability of the codecgen rows: go-codec's Encoder and Decoder on
// the generated copies of the record slices (Products, Trades, Nesteds) and records, viewed in
// place as the native records (View), so the typed hash is the native one.
func codecgenTyped(h codec.Handle) *Typed {
	enc := func(v any) ([]byte, error) {
		var out []byte
		err := codec.NewEncoderBytes(&out, h).Encode(v)
		return out, err
	}
	dec := func(d []byte, v any) error { return codec.NewDecoderBytes(d, h).Decode(v) }
	return &Typed{
		Tests: EncDec,
		Encoder: func(_ string, r *typed.Records) (Encoder, error) {
			var v any
			switch r.Schema {
			case typed.ProductSchema:
				p := cg.Products(View[cg.Product](r.Products))
				v = &p
			case typed.TradeSchema:
				t := cg.Trades(View[cg.Trade](r.Trades))
				v = &t
			default:
				n := cg.Nesteds(View[cg.Nested](r.Nested))
				v = &n
			}
			return func() ([]byte, error) { return enc(v) }, nil
		},
		Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
			switch s {
			case typed.ProductSchema:
				var v cg.Products
				err := dec(data, &v)
				return typed.HashProducts(View[typed.Product](v)), err
			case typed.TradeSchema:
				var v cg.Trades
				err := dec(data, &v)
				return typed.HashTrades(View[typed.Trade](v)), err
			}
			var v cg.Nesteds
			err := dec(data, &v)
			return typed.HashNesteds(View[typed.Nested](v)), err
		},
		One: func(_ string, r *typed.Records) (*OneCodec, error) {
			c := &OneCodec{}
			switch r.Schema {
			case typed.ProductSchema:
				c.Encode = func(i int) ([]byte, error) { return enc(ViewOf[cg.Product](&r.Products[i])) }
				c.Decode = func(d []byte) (uint64, error) {
					var v cg.Product
					err := dec(d, &v)
					return typed.HashProduct(ViewOf[typed.Product](&v)), err
				}
			case typed.TradeSchema:
				c.Encode = func(i int) ([]byte, error) { return enc(ViewOf[cg.Trade](&r.Trades[i])) }
				c.Decode = func(d []byte) (uint64, error) {
					var v cg.Trade
					err := dec(d, &v)
					return typed.HashTrade(ViewOf[typed.Trade](&v)), err
				}
			default:
				c.Encode = func(i int) ([]byte, error) { return enc(ViewOf[cg.Nested](&r.Nested[i])) }
				c.Decode = func(d []byte) (uint64, error) {
					var v cg.Nested
					err := dec(d, &v)
					return typed.HashNested(ViewOf[typed.Nested](&v)), err
				}
			}
			return c, nil
		},
	}
}
