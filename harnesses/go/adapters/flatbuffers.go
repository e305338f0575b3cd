//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_flatbuffers)

package adapters

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"serbench/harnesses/go/internal/gen/fb"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/typed"
)

// github.com/google/flatbuffers/go with the code flatc 2.0.8 generates from spec/schemas/typed.fbs
// (internal/gen/fb, regen-schemas.sh). typed-encode builds the buffer from the native records with
// a new Builder per operation (no object API); typed-access opens it with GetRootAs... and reads
// every field through the generated accessors. Go's FlatBuffers has no verifier, so the access row
// is unchecked: it trusts the bytes (an out-of-range offset panics, caught as the library's error).
func init() {
	Register(Bench{ID: "flatbuffers-go-unchecked", Library: "flatbuffers", Module: "github.com/google/flatbuffers", Formats: []string{"flatbuffers"},
		Notes: "codegen (flatc 2.0.8): build from the native records with flatbuffers.NewBuilder(1024) per op; access unchecked (Go's FlatBuffers has no verifier: only for trusted bytes) = GetRootAs...List + every field through the accessors into the typed hash",
		// no verifier: the view trusts the bytes, so it is not ranked with checked views
		Steps: map[string][]string{"typed-access": {"copy-input", "view-unchecked", "visit-all"}},
		Typed: &Typed{
			Tests: []string{"typed-encode", "typed-access"},
			Encoder: func(_ string, r *typed.Records) (Encoder, error) {
				return func() ([]byte, error) { return fbBuild(r, -1), nil }, nil
			},
			Access: func(_ string, s typed.Schema, data []byte) (uint64, error) { return fbAccess(s, data), nil },
			One: func(_ string, r *typed.Records) (*OneCodec, error) {
				return &OneCodec{
					Encode: func(i int) ([]byte, error) { return fbBuild(r, i), nil },
					Decode: func(d []byte) (uint64, error) { return fbAccessOne(r.Schema, d), nil },
				}, nil
			},
		},
	})
}

// fbVector builds a vector of scalars (prepended back to front, as the generated Start...Vector
// helpers expect).
func fbVector[T any](b *flatbuffers.Builder, v []T, size int, prepend func(T)) flatbuffers.UOffsetT {
	b.StartVector(size, len(v), size)
	for i := len(v) - 1; i >= 0; i-- {
		prepend(v[i])
	}
	return b.EndVector(len(v))
}

func fbOffsets(b *flatbuffers.Builder, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func fbStrings(b *flatbuffers.Builder, v []string) flatbuffers.UOffsetT {
	offs := make([]flatbuffers.UOffsetT, len(v))
	for i, s := range v {
		offs[i] = b.CreateString(s)
	}
	return fbOffsets(b, offs)
}

func fbProduct(b *flatbuffers.Builder, p *typed.Product) flatbuffers.UOffsetT {
	name, tags := b.CreateString(p.Name), fbStrings(b, p.Tags)
	fb.ProductStart(b)
	fb.ProductAddId(b, p.ID)
	fb.ProductAddName(b, name)
	fb.ProductAddPrice(b, p.Price)
	fb.ProductAddInStock(b, p.InStock)
	fb.ProductAddTags(b, tags)
	return fb.ProductEnd(b)
}

func fbTrade(b *flatbuffers.Builder, t *typed.Trade) flatbuffers.UOffsetT {
	text := b.CreateString(t.Text)
	fb.TradeStart(b)
	fb.TradeAddPrice(b, t.Price)
	fb.TradeAddFlag(b, t.Flag)
	fb.TradeAddText(b, text)
	fb.TradeAddSide(b, fb.Side(t.Side))
	fb.TradeAddSmallInt(b, t.SmallInt)
	fb.TradeAddLongInt(b, t.LongInt)
	return fb.TradeEnd(b)
}

func fbNested(b *flatbuffers.Builder, n *typed.Nested) flatbuffers.UOffsetT {
	children := make([]flatbuffers.UOffsetT, len(n.Children))
	for i := range n.Children {
		children[i] = fbNested(b, &n.Children[i])
	}
	childVec := fbOffsets(b, children)
	name := b.CreateString(n.Name)
	u8s := b.CreateByteVector(n.U8s)
	u16s := fbVector(b, n.U16s, 2, b.PrependUint16)
	u32s := fbVector(b, n.U32s, 4, b.PrependUint32)
	u64s := fbVector(b, n.U64s, 8, b.PrependUint64)
	i8s := fbVector(b, n.I8s, 1, b.PrependInt8)
	i16s := fbVector(b, n.I16s, 2, b.PrependInt16)
	i32s := fbVector(b, n.I32s, 4, b.PrependInt32)
	i64s := fbVector(b, n.I64s, 8, b.PrependInt64)
	f32s := fbVector(b, n.F32s, 4, b.PrependFloat32)
	f64s := fbVector(b, n.F64s, 8, b.PrependFloat64)
	flags := fbVector(b, n.Flags, 1, b.PrependBool)
	names := fbStrings(b, n.Names)
	counts := make([]flatbuffers.UOffsetT, 0, len(n.Counts))
	for k, v := range n.Counts {
		key := b.CreateString(k)
		fb.CountStart(b)
		fb.CountAddKey(b, key)
		fb.CountAddValue(b, v)
		counts = append(counts, fb.CountEnd(b))
	}
	countVec := fbOffsets(b, counts)
	var note flatbuffers.UOffsetT
	if n.Note != nil {
		note = b.CreateString(*n.Note)
	}
	label := b.CreateString(n.Inner.Label)
	fb.InnerStart(b)
	fb.InnerAddLabel(b, label)
	fb.InnerAddPoint(b, fb.CreatePoint(b, n.Inner.Point.X, n.Inner.Point.Y, n.Inner.Point.Z))
	inner := fb.InnerEnd(b)
	fb.NestedStart(b)
	fb.NestedAddU8(b, n.U8)
	fb.NestedAddU16(b, n.U16)
	fb.NestedAddU32(b, n.U32)
	fb.NestedAddU64(b, n.U64)
	fb.NestedAddI8(b, n.I8)
	fb.NestedAddI16(b, n.I16)
	fb.NestedAddI32(b, n.I32)
	fb.NestedAddI64(b, n.I64)
	fb.NestedAddF32(b, n.F32)
	fb.NestedAddF64(b, n.F64)
	fb.NestedAddFlag(b, n.Flag)
	fb.NestedAddName(b, name)
	fb.NestedAddU8s(b, u8s)
	fb.NestedAddU16s(b, u16s)
	fb.NestedAddU32s(b, u32s)
	fb.NestedAddU64s(b, u64s)
	fb.NestedAddI8s(b, i8s)
	fb.NestedAddI16s(b, i16s)
	fb.NestedAddI32s(b, i32s)
	fb.NestedAddI64s(b, i64s)
	fb.NestedAddF32s(b, f32s)
	fb.NestedAddF64s(b, f64s)
	fb.NestedAddFlags(b, flags)
	fb.NestedAddNames(b, names)
	fb.NestedAddCounts(b, countVec)
	if n.Note != nil {
		fb.NestedAddNote(b, note) // absent = null
	}
	fb.NestedAddInner(b, inner)
	fb.NestedAddChildren(b, childVec)
	return fb.NestedEnd(b)
}

// fbBuild builds the records' list (one < 0) or record one alone as the buffer's root.
func fbBuild(r *typed.Records, one int) []byte {
	b := flatbuffers.NewBuilder(1024)
	var root flatbuffers.UOffsetT
	switch r.Schema {
	case typed.ProductSchema:
		if one >= 0 {
			root = fbProduct(b, &r.Products[one])
			break
		}
		offs := make([]flatbuffers.UOffsetT, len(r.Products))
		for i := range r.Products {
			offs[i] = fbProduct(b, &r.Products[i])
		}
		v := fbOffsets(b, offs)
		fb.ProductListStart(b)
		fb.ProductListAddRecords(b, v)
		root = fb.ProductListEnd(b)
	case typed.TradeSchema:
		if one >= 0 {
			root = fbTrade(b, &r.Trades[one])
			break
		}
		offs := make([]flatbuffers.UOffsetT, len(r.Trades))
		for i := range r.Trades {
			offs[i] = fbTrade(b, &r.Trades[i])
		}
		v := fbOffsets(b, offs)
		fb.TradeListStart(b)
		fb.TradeListAddRecords(b, v)
		root = fb.TradeListEnd(b)
	default:
		if one >= 0 {
			root = fbNested(b, &r.Nested[one])
			break
		}
		offs := make([]flatbuffers.UOffsetT, len(r.Nested))
		for i := range r.Nested {
			offs[i] = fbNested(b, &r.Nested[i])
		}
		v := fbOffsets(b, offs)
		fb.NestedListStart(b)
		fb.NestedListAddRecords(b, v)
		root = fb.NestedListEnd(b)
	}
	b.Finish(root)
	return b.FinishedBytes()
}

// --- access --------------------------------------------------------------------------------------

// fbArray hashes an n-element vector from its elements' hashes.
func fbArray(n int, elem func(j int) uint64) uint64 {
	var a typed.Array
	for j := 0; j < n; j++ {
		a.Add(elem(j))
	}
	return a.End()
}

func fbProductHash(p *fb.Product) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.ID, hash.U64(p.Id()))
	m.Add(k.Name, hash.StrBytes(p.Name()))
	m.Add(k.Price, hash.F64(p.Price()))
	m.Add(k.InStock, hash.Bool(p.InStock()))
	m.Add(k.Tags, fbArray(p.TagsLength(), func(j int) uint64 { return hash.StrBytes(p.Tags(j)) }))
	return m.End()
}

func fbTradeHash(t *fb.Trade) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.Price, hash.F64(t.Price()))
	m.Add(k.Flag, hash.Bool(t.Flag()))
	m.Add(k.Text, hash.StrBytes(t.Text()))
	m.Add(k.Side, typed.SideHash(typed.Side(t.Side())))
	m.Add(k.SmallInt, hash.I64(int64(t.SmallInt())))
	m.Add(k.LongInt, hash.I64(t.LongInt()))
	return m.End()
}

func fbNestedHash(n *fb.Nested) uint64 {
	k := &typed.Keys
	var m typed.Map
	m.Add(k.U8, hash.U64(uint64(n.U8())))
	m.Add(k.U16, hash.U64(uint64(n.U16())))
	m.Add(k.U32, hash.U64(uint64(n.U32())))
	m.Add(k.U64, hash.U64(n.U64()))
	m.Add(k.I8, hash.I64(int64(n.I8())))
	m.Add(k.I16, hash.I64(int64(n.I16())))
	m.Add(k.I32, hash.I64(int64(n.I32())))
	m.Add(k.I64, hash.I64(n.I64()))
	m.Add(k.F32, hash.F64(float64(n.F32())))
	m.Add(k.F64, hash.F64(n.F64()))
	m.Add(k.Flag, hash.Bool(n.Flag()))
	m.Add(k.Name, hash.StrBytes(n.Name()))
	m.Add(k.U8s, typed.Uints(n.U8sBytes()))
	m.Add(k.U16s, fbArray(n.U16sLength(), func(j int) uint64 { return hash.U64(uint64(n.U16s(j))) }))
	m.Add(k.U32s, fbArray(n.U32sLength(), func(j int) uint64 { return hash.U64(uint64(n.U32s(j))) }))
	m.Add(k.U64s, fbArray(n.U64sLength(), func(j int) uint64 { return hash.U64(n.U64s(j)) }))
	m.Add(k.I8s, fbArray(n.I8sLength(), func(j int) uint64 { return hash.I64(int64(n.I8s(j))) }))
	m.Add(k.I16s, fbArray(n.I16sLength(), func(j int) uint64 { return hash.I64(int64(n.I16s(j))) }))
	m.Add(k.I32s, fbArray(n.I32sLength(), func(j int) uint64 { return hash.I64(int64(n.I32s(j))) }))
	m.Add(k.I64s, fbArray(n.I64sLength(), func(j int) uint64 { return hash.I64(n.I64s(j)) }))
	m.Add(k.F32s, fbArray(n.F32sLength(), func(j int) uint64 { return hash.F64(float64(n.F32s(j))) }))
	m.Add(k.F64s, fbArray(n.F64sLength(), func(j int) uint64 { return hash.F64(n.F64s(j)) }))
	m.Add(k.Flags, fbArray(n.FlagsLength(), func(j int) uint64 { return hash.Bool(n.Flags(j)) }))
	m.Add(k.Names, fbArray(n.NamesLength(), func(j int) uint64 { return hash.StrBytes(n.Names(j)) }))
	var counts typed.Map
	var c fb.Count
	for j := 0; j < n.CountsLength(); j++ {
		n.Counts(&c, j)
		counts.Add(hash.StrBytes(c.Key()), hash.I64(c.Value()))
	}
	m.Add(k.Counts, counts.End())
	note := hash.NullHash
	if s := n.Note(); s != nil {
		note = hash.StrBytes(s)
	}
	m.Add(k.Note, note)
	inner := hash.NullHash // absent: a mismatch, as the native records always have one
	var in fb.Inner
	var pt fb.Point
	if n.Inner(&in) != nil {
		point := hash.NullHash
		if in.Point(&pt) != nil {
			point = typed.HashPoint(pt.X(), pt.Y(), pt.Z())
		}
		inner = typed.HashInner(hash.StrBytes(in.Label()), point)
	}
	m.Add(k.Inner, inner)
	var child fb.Nested
	m.Add(k.Children, fbArray(n.ChildrenLength(), func(j int) uint64 {
		n.Children(&child, j)
		return fbNestedHash(&child)
	}))
	return m.End()
}

func fbAccess(s typed.Schema, data []byte) uint64 {
	var a typed.Array
	switch s {
	case typed.ProductSchema:
		l := fb.GetRootAsProductList(data, 0)
		var p fb.Product
		for j := 0; j < l.RecordsLength(); j++ {
			l.Records(&p, j)
			a.Add(fbProductHash(&p))
		}
	case typed.TradeSchema:
		l := fb.GetRootAsTradeList(data, 0)
		var t fb.Trade
		for j := 0; j < l.RecordsLength(); j++ {
			l.Records(&t, j)
			a.Add(fbTradeHash(&t))
		}
	default:
		l := fb.GetRootAsNestedList(data, 0)
		var n fb.Nested
		for j := 0; j < l.RecordsLength(); j++ {
			l.Records(&n, j)
			a.Add(fbNestedHash(&n))
		}
	}
	return typed.Document(s, a.End())
}

func fbAccessOne(s typed.Schema, data []byte) uint64 {
	switch s {
	case typed.ProductSchema:
		return fbProductHash(fb.GetRootAsProduct(data, 0))
	case typed.TradeSchema:
		return fbTradeHash(fb.GetRootAsTrade(data, 0))
	}
	return fbNestedHash(fb.GetRootAsNested(data, 0))
}
