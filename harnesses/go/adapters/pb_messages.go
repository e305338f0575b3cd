//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_google_golang_org_protobuf || sizeprobe_vtprotobuf)

// The typed capability over protoc-gen-go's messages (internal/gen/pb), shared by the
// google.golang.org/protobuf rows (protobuf.go) and the vtprotobuf row (vtprotobuf.go): vtprotobuf
// generates its methods on these very messages, so a code-size probe of either library includes
// this file and the messages (cmd/sizeprobe).

package adapters

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"serbench/harnesses/go/internal/gen/pb"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/typed"
)

// pbTyped is the typed capability over the generated messages with a marshal / unmarshal pair
// (proto.Marshal / proto.Unmarshal here, vtprotobuf's generated methods in vtprotobuf.go).
func pbTyped(convert bool, marshal func(proto.Message) ([]byte, error), unmarshal func([]byte, proto.Message) error) *Typed {
	return &Typed{
		Tests: EncDec,
		Encoder: func(_ string, r *typed.Records) (Encoder, error) {
			if convert {
				return func() ([]byte, error) { return marshal(pbList(r)) }, nil
			}
			m := pbList(r)
			return func() ([]byte, error) { return marshal(m) }, nil
		},
		Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
			switch s {
			case typed.ProductSchema:
				var m pb.ProductList
				if err := unmarshal(data, &m); err != nil {
					return 0, err
				}
				if convert {
					return typed.HashProducts(pbToProducts(m.Records)), nil
				}
				var a typed.Array
				for _, p := range m.Records {
					a.Add(pbProductHash(p))
				}
				return typed.Document(s, a.End()), nil
			case typed.TradeSchema:
				var m pb.TradeList
				if err := unmarshal(data, &m); err != nil {
					return 0, err
				}
				if convert {
					return typed.HashTrades(pbToTrades(m.Records)), nil
				}
				var a typed.Array
				for _, t := range m.Records {
					a.Add(pbTradeHash(t))
				}
				return typed.Document(s, a.End()), nil
			}
			var m pb.NestedList
			if err := unmarshal(data, &m); err != nil {
				return 0, err
			}
			if convert {
				v, err := pbToNesteds(m.Records)
				return typed.HashNesteds(v), err
			}
			var a typed.Array
			for _, n := range m.Records {
				a.Add(pbNestedHash(n))
			}
			return typed.Document(s, a.End()), nil
		},
		One: func(_ string, r *typed.Records) (*OneCodec, error) {
			c := &OneCodec{}
			switch r.Schema {
			case typed.ProductSchema:
				msgs := pbProducts(r.Products)
				c.Encode = func(i int) ([]byte, error) {
					if convert {
						return marshal(pbProduct(&r.Products[i]))
					}
					return marshal(msgs[i])
				}
				c.Decode = func(d []byte) (uint64, error) {
					var m pb.Product
					err := unmarshal(d, &m)
					if convert {
						v := pbToProducts([]*pb.Product{&m})
						return typed.HashProduct(&v[0]), err
					}
					return pbProductHash(&m), err
				}
			case typed.TradeSchema:
				msgs := pbTrades(r.Trades)
				c.Encode = func(i int) ([]byte, error) {
					if convert {
						return marshal(pbTrade(&r.Trades[i]))
					}
					return marshal(msgs[i])
				}
				c.Decode = func(d []byte) (uint64, error) {
					var m pb.Trade
					err := unmarshal(d, &m)
					if convert {
						v := pbToTrades([]*pb.Trade{&m})
						return typed.HashTrade(&v[0]), err
					}
					return pbTradeHash(&m), err
				}
			default:
				msgs := pbNesteds(r.Nested)
				c.Encode = func(i int) ([]byte, error) {
					if convert {
						return marshal(pbNested(&r.Nested[i]))
					}
					return marshal(msgs[i])
				}
				c.Decode = func(d []byte) (uint64, error) {
					var m pb.Nested
					if err := unmarshal(d, &m); err != nil {
						return 0, err
					}
					if convert {
						v, err := pbToNested(&m, 0)
						return typed.HashNested(&v), err
					}
					return pbNestedHash(&m), nil
				}
			}
			return c, nil
		},
	}
}

// --- native records -> messages ------------------------------------------------------------------

func pbList(r *typed.Records) proto.Message {
	switch r.Schema {
	case typed.ProductSchema:
		return &pb.ProductList{Records: pbProducts(r.Products)}
	case typed.TradeSchema:
		return &pb.TradeList{Records: pbTrades(r.Trades)}
	}
	return &pb.NestedList{Records: pbNesteds(r.Nested)}
}

func pbProduct(p *typed.Product) *pb.Product {
	return &pb.Product{Id: p.ID, Name: p.Name, Price: p.Price, InStock: p.InStock, Tags: p.Tags}
}

func pbProducts(v []typed.Product) []*pb.Product {
	out := make([]*pb.Product, len(v))
	for i := range v {
		out[i] = pbProduct(&v[i])
	}
	return out
}

func pbTrade(t *typed.Trade) *pb.Trade {
	return &pb.Trade{Price: t.Price, Flag: t.Flag, Text: t.Text, Side: pb.Side(t.Side), SmallInt: t.SmallInt, LongInt: t.LongInt}
}

func pbTrades(v []typed.Trade) []*pb.Trade {
	out := make([]*pb.Trade, len(v))
	for i := range v {
		out[i] = pbTrade(&v[i])
	}
	return out
}

// widen copies a slice into a wider integer type (protobuf has no 8/16-bit integers).
func widen[B, A uint8 | uint16 | uint32 | int8 | int16 | int32](v []A) []B {
	out := make([]B, len(v))
	for i, x := range v {
		out[i] = B(x)
	}
	return out
}

func pbNested(n *typed.Nested) *pb.Nested {
	return &pb.Nested{
		U8: uint32(n.U8), U16: uint32(n.U16), U32: n.U32, U64: n.U64,
		I8: int32(n.I8), I16: int32(n.I16), I32: n.I32, I64: n.I64,
		F32: n.F32, F64: n.F64, Flag: n.Flag, Name: n.Name,
		U8S: widen[uint32](n.U8s), U16S: widen[uint32](n.U16s), U32S: n.U32s, U64S: n.U64s,
		I8S: widen[int32](n.I8s), I16S: widen[int32](n.I16s), I32S: n.I32s, I64S: n.I64s,
		F32S: n.F32s, F64S: n.F64s, Flags: n.Flags, Names: n.Names, Counts: n.Counts, Note: n.Note,
		Inner:    &pb.Inner{Label: n.Inner.Label, Point: &pb.Point{X: n.Inner.Point.X, Y: n.Inner.Point.Y, Z: n.Inner.Point.Z}},
		Children: pbNesteds(n.Children),
	}
}

func pbNesteds(v []typed.Nested) []*pb.Nested {
	out := make([]*pb.Nested, len(v))
	for i := range v {
		out[i] = pbNested(&v[i])
	}
	return out
}

// --- messages -> native records (the convert row) -------------------------------------------------

func pbToProducts(v []*pb.Product) []typed.Product {
	out := make([]typed.Product, len(v))
	for i, p := range v {
		out[i] = typed.Product{ID: p.Id, Name: p.Name, Price: p.Price, InStock: p.InStock, Tags: p.Tags}
	}
	return out
}

func pbToTrades(v []*pb.Trade) []typed.Trade {
	out := make([]typed.Trade, len(v))
	for i, t := range v {
		out[i] = typed.Trade{Price: t.Price, Flag: t.Flag, Text: t.Text, Side: typed.Side(t.Side), SmallInt: t.SmallInt, LongInt: t.LongInt}
	}
	return out
}

// narrow converts a field to a narrower integer type, refusing a value that does not fit.
func narrow[B uint8 | uint16 | int8 | int16, A uint32 | int32](x A, lo, hi int64, what string) (B, error) {
	if int64(x) < lo || int64(x) > hi {
		return 0, fmt.Errorf("%s: %d is out of range", what, x)
	}
	return B(x), nil
}

func narrowAll[B uint8 | uint16 | int8 | int16, A uint32 | int32](v []A, lo, hi int64, what string) ([]B, error) {
	out := make([]B, len(v))
	for i, x := range v {
		y, err := narrow[B](x, lo, hi, what)
		if err != nil {
			return nil, err
		}
		out[i] = y
	}
	return out, nil
}

func pbToNesteds(v []*pb.Nested) ([]typed.Nested, error) {
	out := make([]typed.Nested, len(v))
	for i, n := range v {
		var err error
		if out[i], err = pbToNested(n, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func pbToNested(n *pb.Nested, depth int) (typed.Nested, error) {
	var v typed.Nested
	if depth > typed.MaxNestedDepth {
		return v, fmt.Errorf("children nested deeper than %d", typed.MaxNestedDepth)
	}
	var errs [8]error
	v.U8, errs[0] = narrow[uint8](n.U8, 0, math.MaxUint8, "u8")
	v.U16, errs[1] = narrow[uint16](n.U16, 0, math.MaxUint16, "u16")
	v.I8, errs[2] = narrow[int8](n.I8, math.MinInt8, math.MaxInt8, "i8")
	v.I16, errs[3] = narrow[int16](n.I16, math.MinInt16, math.MaxInt16, "i16")
	v.U8s, errs[4] = narrowAll[uint8](n.U8S, 0, math.MaxUint8, "u8s")
	v.U16s, errs[5] = narrowAll[uint16](n.U16S, 0, math.MaxUint16, "u16s")
	v.I8s, errs[6] = narrowAll[int8](n.I8S, math.MinInt8, math.MaxInt8, "i8s")
	v.I16s, errs[7] = narrowAll[int16](n.I16S, math.MinInt16, math.MaxInt16, "i16s")
	for _, e := range errs {
		if e != nil {
			return v, e
		}
	}
	v.U32, v.U64, v.I32, v.I64 = n.U32, n.U64, n.I32, n.I64
	v.F32, v.F64, v.Flag, v.Name = n.F32, n.F64, n.Flag, n.Name
	v.U32s, v.U64s, v.I32s, v.I64s = n.U32S, n.U64S, n.I32S, n.I64S
	v.F32s, v.F64s, v.Flags, v.Names, v.Counts, v.Note = n.F32S, n.F64S, n.Flags, n.Names, n.Counts, n.Note
	if n.Inner == nil || n.Inner.Point == nil {
		return v, fmt.Errorf("inner or inner.point is absent")
	}
	v.Inner = typed.Inner{Label: n.Inner.Label, Point: typed.Point{X: n.Inner.Point.X, Y: n.Inner.Point.Y, Z: n.Inner.Point.Z}}
	v.Children = make([]typed.Nested, len(n.Children))
	for i, c := range n.Children {
		var err error
		if v.Children[i], err = pbToNested(c, depth+1); err != nil {
			return v, err
		}
	}
	return v, nil
}

// --- the typed hash over the generated messages ----------------------------------------------------

func pbProductHash(p *pb.Product) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.ID, hash.U64(p.Id))
	m.Add(k.Name, hash.Str(p.Name))
	m.Add(k.Price, hash.F64(p.Price))
	m.Add(k.InStock, hash.Bool(p.InStock))
	m.Add(k.Tags, typed.Strs(p.Tags))
	return m.End()
}

func pbTradeHash(t *pb.Trade) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.Price, hash.F64(t.Price))
	m.Add(k.Flag, hash.Bool(t.Flag))
	m.Add(k.Text, hash.Str(t.Text))
	m.Add(k.Side, typed.SideHash(typed.Side(t.Side)))
	m.Add(k.SmallInt, hash.I64(int64(t.SmallInt)))
	m.Add(k.LongInt, hash.I64(t.LongInt))
	return m.End()
}

// pbNestedHash: u8/u16 (i8/i16) travel as uint32 (sint32), the same numbers, so the same hash; a
// value out of its width's range hashes as itself, which no record has (a mismatch, not a crash).
// An absent inner or point hashes as null (a mismatch too).
func pbNestedHash(n *pb.Nested) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.U8, hash.U64(uint64(n.U8)))
	m.Add(k.U16, hash.U64(uint64(n.U16)))
	m.Add(k.U32, hash.U64(uint64(n.U32)))
	m.Add(k.U64, hash.U64(n.U64))
	m.Add(k.I8, hash.I64(int64(n.I8)))
	m.Add(k.I16, hash.I64(int64(n.I16)))
	m.Add(k.I32, hash.I64(int64(n.I32)))
	m.Add(k.I64, hash.I64(n.I64))
	m.Add(k.F32, hash.F64(float64(n.F32)))
	m.Add(k.F64, hash.F64(n.F64))
	m.Add(k.Flag, hash.Bool(n.Flag))
	m.Add(k.Name, hash.Str(n.Name))
	m.Add(k.U8s, typed.Uints(n.U8S))
	m.Add(k.U16s, typed.Uints(n.U16S))
	m.Add(k.U32s, typed.Uints(n.U32S))
	m.Add(k.U64s, typed.Uints(n.U64S))
	m.Add(k.I8s, typed.Ints(n.I8S))
	m.Add(k.I16s, typed.Ints(n.I16S))
	m.Add(k.I32s, typed.Ints(n.I32S))
	m.Add(k.I64s, typed.Ints(n.I64S))
	m.Add(k.F32s, typed.Floats(n.F32S))
	m.Add(k.F64s, typed.Floats(n.F64S))
	m.Add(k.Flags, typed.Bools(n.Flags))
	m.Add(k.Names, typed.Strs(n.Names))
	m.Add(k.Counts, typed.HashCounts(n.Counts))
	m.Add(k.Note, typed.HashNote(n.Note))
	inner := hash.NullHash
	if in := n.Inner; in != nil {
		point := hash.NullHash
		if p := in.Point; p != nil {
			point = typed.HashPoint(p.X, p.Y, p.Z)
		}
		inner = typed.HashInner(hash.Str(in.Label), point)
	}
	m.Add(k.Inner, inner)
	var c typed.Array
	for _, x := range n.Children {
		c.Add(pbNestedHash(x))
	}
	m.Add(k.Children, c.End())
	return m.End()
}
