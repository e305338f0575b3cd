//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_tinylib_msgp)

package adapters

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"serbench/harnesses/go/internal/gen/msgpgen"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/typed"
)

// github.com/tinylib/msgp: its schemaless runtime API (no generated code in those rows), and its
// code generator's methods (msgp-typed, codegen).
func init() {
	Register(
		Bench{ID: "msgp-intf", Library: "tinylib/msgp", Module: "github.com/tinylib/msgp", Formats: Msgpack,
			Notes: "schemaless runtime API, no codegen; tree: msgp.ReadIntfBytes into any (map[string]any), the rest must be empty; write: msgp.AppendIntf of the map[string]any tree into a fresh buffer",
			Tree: func(_ string, data []byte) (uint64, error) {
				v, rest, err := msgp.ReadIntfBytes(data)
				if err != nil {
					return 0, err
				}
				if len(rest) != 0 {
					return 0, errTrailing
				}
				return hash.Any(v)
			},
			Write: func(_ string, v any) (Encoder, error) {
				return func() ([]byte, error) { return msgp.AppendIntf(nil, v) }, nil
			},
		},
		Bench{ID: "msgp-tokens", Library: "tinylib/msgp", Module: "github.com/tinylib/msgp", Formats: Msgpack,
			Notes:       "raw token reader, no tree: msgp.NextType then Read*Bytes (strings and binary zero-copy, ReadStringZC / ReadBytesZC) into the streaming hash",
			Incremental: msgpTokens,
		},
		Bench{ID: "msgp-typed", Library: "tinylib/msgp", Module: "github.com/tinylib/msgp", Formats: Msgpack,
			Notes: "codegen: the msgp generator's MarshalMsg(nil) / UnmarshalMsg on a copy of the native records (internal/gen/msgpgen, regen-schemas.sh, viewed in place), the rest must be empty; structs as maps, Side as its number, u8s as bin",
			Typed: msgpTyped},
	)
}

// msgpTyped: the generated methods of the record slices (Products, Trades, Nesteds) and records.
var msgpTyped = &Typed{
	Tests: EncDec,
	Encoder: func(_ string, r *typed.Records) (Encoder, error) {
		var m msgp.Marshaler
		switch r.Schema {
		case typed.ProductSchema:
			m = msgpgen.Products(View[msgpgen.Product](r.Products))
		case typed.TradeSchema:
			m = msgpgen.Trades(View[msgpgen.Trade](r.Trades))
		default:
			m = msgpgen.Nesteds(View[msgpgen.Nested](r.Nested))
		}
		return func() ([]byte, error) { return m.MarshalMsg(nil) }, nil
	},
	Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
		switch s {
		case typed.ProductSchema:
			var v msgpgen.Products
			err := msgpAll(v.UnmarshalMsg(data))
			return typed.HashProducts(View[typed.Product](v)), err
		case typed.TradeSchema:
			var v msgpgen.Trades
			err := msgpAll(v.UnmarshalMsg(data))
			return typed.HashTrades(View[typed.Trade](v)), err
		}
		var v msgpgen.Nesteds
		err := msgpAll(v.UnmarshalMsg(data))
		return typed.HashNesteds(View[typed.Nested](v)), err
	},
	One: func(_ string, r *typed.Records) (*OneCodec, error) {
		c := &OneCodec{}
		switch r.Schema {
		case typed.ProductSchema:
			c.Encode = func(i int) ([]byte, error) { return ViewOf[msgpgen.Product](&r.Products[i]).MarshalMsg(nil) }
			c.Decode = func(d []byte) (uint64, error) {
				var v msgpgen.Product
				err := msgpAll(v.UnmarshalMsg(d))
				return typed.HashProduct(ViewOf[typed.Product](&v)), err
			}
		case typed.TradeSchema:
			c.Encode = func(i int) ([]byte, error) { return ViewOf[msgpgen.Trade](&r.Trades[i]).MarshalMsg(nil) }
			c.Decode = func(d []byte) (uint64, error) {
				var v msgpgen.Trade
				err := msgpAll(v.UnmarshalMsg(d))
				return typed.HashTrade(ViewOf[typed.Trade](&v)), err
			}
		default:
			c.Encode = func(i int) ([]byte, error) { return ViewOf[msgpgen.Nested](&r.Nested[i]).MarshalMsg(nil) }
			c.Decode = func(d []byte) (uint64, error) {
				var v msgpgen.Nested
				err := msgpAll(v.UnmarshalMsg(d))
				return typed.HashNested(ViewOf[typed.Nested](&v)), err
			}
		}
		return c, nil
	},
}

// msgpAll is UnmarshalMsg's error, or errTrailing when bytes are left over.
func msgpAll(rest []byte, err error) error {
	if err == nil && len(rest) != 0 {
		return errTrailing
	}
	return err
}

// msgpTokens pulls tokens with msgp's Read*Bytes functions into the streaming hash. Container
// counts come from the headers, kept on a stack of remaining counts (no recursion).
func msgpTokens(_ string, b []byte) (uint64, error) {
	var s hash.Stream
	var left []uint32 // per open container: items still to read (a map counts keys and values)
	for {
		// close every container whose items are all read
		for len(left) > 0 && left[len(left)-1] == 0 {
			left = left[:len(left)-1]
			if err := s.End(); err != nil {
				return 0, err
			}
		}
		if len(left) == 0 && s.Depth() == 0 {
			if _, err := s.Value(); err == nil {
				break
			}
		}
		if len(left) > 0 {
			left[len(left)-1]--
		}
		var h uint64
		var err error
		t := msgp.NextType(b)
		if s.ExpectsKey() {
			if t != msgp.StrType {
				return 0, fmt.Errorf("map key of type %v is not a string", t)
			}
			var k []byte
			if k, b, err = msgp.ReadStringZC(b); err != nil {
				return 0, err
			}
			if err := s.Key(hash.StrBytes(k)); err != nil {
				return 0, err
			}
			continue
		}
		switch t {
		case msgp.MapType:
			var n uint32
			if n, b, err = msgp.ReadMapHeaderBytes(b); err != nil {
				return 0, err
			}
			s.StartMap()
			left = append(left, 2*n)
			continue
		case msgp.ArrayType:
			var n uint32
			if n, b, err = msgp.ReadArrayHeaderBytes(b); err != nil {
				return 0, err
			}
			s.StartArray()
			left = append(left, n)
			continue
		case msgp.StrType:
			var v []byte
			if v, b, err = msgp.ReadStringZC(b); err == nil {
				h = hash.StrBytes(v)
			}
		case msgp.BinType:
			var v []byte
			if v, b, err = msgp.ReadBytesZC(b); err == nil {
				h = hash.Bin(v)
			}
		case msgp.IntType:
			var v int64
			if v, b, err = msgp.ReadInt64Bytes(b); err == nil {
				h = hash.I64(v)
			}
		case msgp.UintType:
			var v uint64
			if v, b, err = msgp.ReadUint64Bytes(b); err == nil {
				h = hash.U64(v)
			}
		case msgp.Float64Type:
			var v float64
			if v, b, err = msgp.ReadFloat64Bytes(b); err == nil {
				h = hash.F64(v)
			}
		case msgp.Float32Type:
			var v float32
			if v, b, err = msgp.ReadFloat32Bytes(b); err == nil {
				h = hash.F64(float64(v))
			}
		case msgp.BoolType:
			var v bool
			if v, b, err = msgp.ReadBoolBytes(b); err == nil {
				h = hash.Bool(v)
			}
		case msgp.NilType:
			if b, err = msgp.ReadNilBytes(b); err == nil {
				h = hash.NullHash
			}
		case msgp.InvalidType:
			return 0, msgp.ErrShortBytes
		default:
			return 0, fmt.Errorf("MessagePack type %v is outside the data model", t)
		}
		if err != nil {
			return 0, err
		}
		if err := s.Emit(h); err != nil {
			return 0, err
		}
	}
	if len(b) != 0 {
		return 0, errTrailing
	}
	return s.Value()
}
