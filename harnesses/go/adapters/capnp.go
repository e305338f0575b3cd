//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_capnp)

package adapters

import (
	capnp "capnproto.org/go/capnp/v3"

	cp "serbench/harnesses/go/internal/gen/capnpgen"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/typed"
)

// capnproto.org/go/capnp/v3 with the code capnpc-go generates from spec/schemas/typed.capnp
// (internal/gen/capnpgen, regen-schemas.sh), as the Rust and C++ capnp rows: typed-encode builds a
// message from the native records (capnp.NewMessage(capnp.SingleSegment(nil)), the library's
// pooled arena, then Marshal into a fresh byte slice with the segment table, and Release returns
// the arena); typed-access reads it in place (capnp.Unmarshal, whose reads are bounds-checked
// against the segments and counted against the default 64 MiB traversal and depth-64 limits) and
// reads every field through the generated accessors (text as zero-copy bytes) into the typed hash.
func init() {
	Register(Bench{ID: "capnp-go", Library: "capnp", Module: "capnproto.org/go/capnp/v3", Formats: []string{"capnp"},
		Notes: "codegen (capnp 0.9.2 + capnpc-go v3.1.0-alpha.2): build from the native records in a NewMessage(SingleSegment(nil)) per op (pooled arena) + Marshal (fresh slice, segment table) + Release; access = Unmarshal in place (bounds-checked, default traversal and depth limits) + every field through the accessors (text as bytes, no copy) into the typed hash",
		Typed: &Typed{
			Tests: []string{"typed-encode", "typed-access"},
			Encoder: func(_ string, r *typed.Records) (Encoder, error) {
				return func() ([]byte, error) { return cpBuild(r, -1) }, nil
			},
			Access: func(_ string, s typed.Schema, data []byte) (uint64, error) { return cpAccess(s, data, false) },
			One: func(_ string, r *typed.Records) (*OneCodec, error) {
				return &OneCodec{
					Encode: func(i int) ([]byte, error) { return cpBuild(r, i) },
					Decode: func(d []byte) (uint64, error) { return cpAccess(r.Schema, d, true) },
				}, nil
			},
		},
	})
}

// --- build ---------------------------------------------------------------------------------------

// cpBuild builds the records' list (one < 0), or record one alone, as the message's root.
func cpBuild(r *typed.Records, one int) ([]byte, error) {
	msg, seg, err := capnp.NewMessage(capnp.SingleSegment(nil))
	if err != nil {
		return nil, err
	}
	defer msg.Release()
	switch {
	case r.Schema == typed.ProductSchema && one >= 0:
		err = cpRoot(seg, cp.NewRootProduct, &r.Products[one], cpProduct)
	case r.Schema == typed.ProductSchema:
		err = cpList(seg, cp.NewRootProductList, cp.ProductList.NewRecords, r.Products, cpProduct)
	case r.Schema == typed.TradeSchema && one >= 0:
		err = cpRoot(seg, cp.NewRootTrade, &r.Trades[one], cpTrade)
	case r.Schema == typed.TradeSchema:
		err = cpList(seg, cp.NewRootTradeList, cp.TradeList.NewRecords, r.Trades, cpTrade)
	case one >= 0:
		err = cpRoot(seg, cp.NewRootNested, &r.Nested[one], cpNested)
	default:
		err = cpList(seg, cp.NewRootNestedList, cp.NestedList.NewRecords, r.Nested, cpNested)
	}
	if err != nil {
		return nil, err
	}
	return msg.Marshal()
}

func cpRoot[S ~capnp.StructKind, R any](seg *capnp.Segment, newRoot func(*capnp.Segment) (S, error), rec *R, fill func(S, *R) error) error {
	s, err := newRoot(seg)
	if err != nil {
		return err
	}
	return fill(s, rec)
}

func cpList[L any, S ~capnp.StructKind, R any](seg *capnp.Segment, newRoot func(*capnp.Segment) (L, error),
	newRecords func(L, int32) (capnp.StructList[S], error), recs []R, fill func(S, *R) error) error {
	root, err := newRoot(seg)
	if err != nil {
		return err
	}
	l, err := newRecords(root, int32(len(recs)))
	if err != nil {
		return err
	}
	for i := range recs {
		if err := fill(l.At(i), &recs[i]); err != nil {
			return err
		}
	}
	return nil
}

func cpTexts(newList func(int32) (capnp.TextList, error), v []string) error {
	l, err := newList(int32(len(v)))
	if err != nil {
		return err
	}
	for i, s := range v {
		if err := l.Set(i, s); err != nil {
			return err
		}
	}
	return nil
}

// cpScalars fills a new list of scalars (capnp's UInt16List, Float64List, ...).
func cpScalars[L interface{ Set(int, T) }, T any](newList func(int32) (L, error), v []T) error {
	l, err := newList(int32(len(v)))
	if err != nil {
		return err
	}
	for i, x := range v {
		l.Set(i, x)
	}
	return nil
}

func cpProduct(s cp.Product, p *typed.Product) error {
	s.SetId(p.ID)
	s.SetPrice(p.Price)
	s.SetInStock(p.InStock)
	if err := s.SetName(p.Name); err != nil {
		return err
	}
	return cpTexts(s.NewTags, p.Tags)
}

func cpTrade(s cp.Trade, t *typed.Trade) error {
	s.SetPrice(t.Price)
	s.SetFlag(t.Flag)
	s.SetSide(cp.Side(t.Side))
	s.SetSmallInt(t.SmallInt)
	s.SetLongInt(t.LongInt)
	return s.SetText(t.Text)
}

func cpNested(s cp.Nested, n *typed.Nested) error {
	s.SetU8(n.U8)
	s.SetU16(n.U16)
	s.SetU32(n.U32)
	s.SetU64(n.U64)
	s.SetI8(n.I8)
	s.SetI16(n.I16)
	s.SetI32(n.I32)
	s.SetI64(n.I64)
	s.SetF32(n.F32)
	s.SetF64(n.F64)
	s.SetFlag(n.Flag)
	u8s, err := capnp.NewData(s.Segment(), n.U8s)
	errs := []error{err, s.SetName(n.Name), s.SetU8s(u8s),
		cpScalars(s.NewU16s, n.U16s), cpScalars(s.NewU32s, n.U32s), cpScalars(s.NewU64s, n.U64s),
		cpScalars(s.NewI8s, n.I8s), cpScalars(s.NewI16s, n.I16s), cpScalars(s.NewI32s, n.I32s),
		cpScalars(s.NewI64s, n.I64s), cpScalars(s.NewF32s, n.F32s), cpScalars(s.NewF64s, n.F64s),
		cpScalars(s.NewFlags, n.Flags), cpTexts(s.NewNames, n.Names)}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	counts, err := s.NewCounts(int32(len(n.Counts)))
	if err != nil {
		return err
	}
	i := 0
	for k, v := range n.Counts {
		c := counts.At(i)
		c.SetValue(v)
		if err := c.SetKey(k); err != nil {
			return err
		}
		i++
	}
	if n.Note != nil { // absent = a null pointer
		if err := s.SetNote(*n.Note); err != nil {
			return err
		}
	}
	inner, err := s.NewInner()
	if err != nil {
		return err
	}
	if err := inner.SetLabel(n.Inner.Label); err != nil {
		return err
	}
	pt, err := inner.NewPoint()
	if err != nil {
		return err
	}
	pt.SetX(n.Inner.Point.X)
	pt.SetY(n.Inner.Point.Y)
	pt.SetZ(n.Inner.Point.Z)
	children, err := s.NewChildren(int32(len(n.Children)))
	if err != nil {
		return err
	}
	for j := range n.Children {
		if err := cpNested(children.At(j), &n.Children[j]); err != nil {
			return err
		}
	}
	return nil
}

// --- access --------------------------------------------------------------------------------------

// cpAccess opens the message in place and hashes its root: the list of records, or (one) a
// record alone.
func cpAccess(s typed.Schema, data []byte, one bool) (uint64, error) {
	msg, err := capnp.Unmarshal(data)
	if err != nil {
		return 0, err
	}
	defer msg.Release()
	switch {
	case s == typed.ProductSchema && one:
		return cpReadRoot(msg, cp.ReadRootProduct, cpProductHash)
	case s == typed.ProductSchema:
		return cpReadList(msg, s, cp.ReadRootProductList, cp.ProductList.Records, cpProductHash)
	case s == typed.TradeSchema && one:
		return cpReadRoot(msg, cp.ReadRootTrade, cpTradeHash)
	case s == typed.TradeSchema:
		return cpReadList(msg, s, cp.ReadRootTradeList, cp.TradeList.Records, cpTradeHash)
	case one:
		return cpReadRoot(msg, cp.ReadRootNested, cpNestedHash)
	}
	return cpReadList(msg, s, cp.ReadRootNestedList, cp.NestedList.Records, cpNestedHash)
}

func cpReadRoot[S ~capnp.StructKind](msg *capnp.Message, readRoot func(*capnp.Message) (S, error), h func(S) (uint64, error)) (uint64, error) {
	root, err := readRoot(msg)
	if err != nil {
		return 0, err
	}
	return h(root)
}

func cpReadList[L any, S ~capnp.StructKind](msg *capnp.Message, s typed.Schema, readRoot func(*capnp.Message) (L, error),
	records func(L) (capnp.StructList[S], error), h func(S) (uint64, error)) (uint64, error) {
	root, err := readRoot(msg)
	if err != nil {
		return 0, err
	}
	l, err := records(root)
	if err != nil {
		return 0, err
	}
	var a typed.Array
	for i := 0; i < l.Len(); i++ {
		x, err := h(l.At(i))
		if err != nil {
			return 0, err
		}
		a.Add(x)
	}
	return typed.Document(s, a.End()), nil
}

// cpText hashes a text field read as bytes (no copy).
func cpText(b []byte, err error) (uint64, error) { return hash.StrBytes(b), err }

func cpTextList(l capnp.TextList, err error) (uint64, error) {
	if err != nil {
		return 0, err
	}
	var a typed.Array
	for i := 0; i < l.Len(); i++ {
		b, err := l.BytesAt(i)
		if err != nil {
			return 0, err
		}
		a.Add(hash.StrBytes(b))
	}
	return a.End(), nil
}

// cpArray hashes a list of scalars element by element.
func cpArray[L interface {
	Len() int
	At(int) T
}, T any](l L, err error, h func(T) uint64) (uint64, error) {
	if err != nil {
		return 0, err
	}
	var a typed.Array
	for i := 0; i < l.Len(); i++ {
		a.Add(h(l.At(i)))
	}
	return a.End(), nil
}

func cpU[T uint8 | uint16 | uint32 | uint64](x T) uint64 { return hash.U64(uint64(x)) }
func cpI[T int8 | int16 | int32 | int64](x T) uint64     { return hash.I64(int64(x)) }
func cpF[T float32 | float64](x T) uint64                { return hash.F64(float64(x)) }

// cpFields is a record's map hash and the first error of its accessors.
type cpFields struct {
	m   typed.Map
	err error
}

func (f *cpFields) add(k uint64, h uint64, err error) {
	if f.err == nil {
		f.err = err
	}
	f.m.Add(k, h)
}

// at is add for the (hash, error) result of an accessor: f.at(key)(cpText(s.NameBytes())).
func (f *cpFields) at(k uint64) func(uint64, error) {
	return func(h uint64, err error) { f.add(k, h, err) }
}

func cpProductHash(p cp.Product) (uint64, error) {
	k := &typed.Keys
	var f cpFields
	f.m.Add(k.ID, hash.U64(p.Id()))
	f.at(k.Name)(cpText(p.NameBytes()))
	f.m.Add(k.Price, hash.F64(p.Price()))
	f.m.Add(k.InStock, hash.Bool(p.InStock()))
	f.at(k.Tags)(cpTextList(p.Tags()))
	return f.m.End(), f.err
}

func cpTradeHash(t cp.Trade) (uint64, error) {
	k := &typed.Keys
	var f cpFields
	f.m.Add(k.Price, hash.F64(t.Price()))
	f.m.Add(k.Flag, hash.Bool(t.Flag()))
	f.at(k.Text)(cpText(t.TextBytes()))
	f.m.Add(k.Side, typed.SideHash(typed.Side(t.Side())))
	f.m.Add(k.SmallInt, hash.I64(int64(t.SmallInt())))
	f.m.Add(k.LongInt, hash.I64(t.LongInt()))
	return f.m.End(), f.err
}

func cpNestedHash(n cp.Nested) (uint64, error) {
	k := &typed.Keys
	var f cpFields
	f.m.Add(k.U8, hash.U64(uint64(n.U8())))
	f.m.Add(k.U16, hash.U64(uint64(n.U16())))
	f.m.Add(k.U32, hash.U64(uint64(n.U32())))
	f.m.Add(k.U64, hash.U64(n.U64()))
	f.m.Add(k.I8, hash.I64(int64(n.I8())))
	f.m.Add(k.I16, hash.I64(int64(n.I16())))
	f.m.Add(k.I32, hash.I64(int64(n.I32())))
	f.m.Add(k.I64, hash.I64(n.I64()))
	f.m.Add(k.F32, hash.F64(float64(n.F32())))
	f.m.Add(k.F64, hash.F64(n.F64()))
	f.m.Add(k.Flag, hash.Bool(n.Flag()))
	f.at(k.Name)(cpText(n.NameBytes()))
	u8s, err := n.U8s()
	f.at(k.U8s)(cpArray(u8s, err, cpU[uint8]))
	u16s, err := n.U16s()
	f.at(k.U16s)(cpArray(u16s, err, cpU[uint16]))
	u32s, err := n.U32s()
	f.at(k.U32s)(cpArray(u32s, err, cpU[uint32]))
	u64s, err := n.U64s()
	f.at(k.U64s)(cpArray(u64s, err, cpU[uint64]))
	i8s, err := n.I8s()
	f.at(k.I8s)(cpArray(i8s, err, cpI[int8]))
	i16s, err := n.I16s()
	f.at(k.I16s)(cpArray(i16s, err, cpI[int16]))
	i32s, err := n.I32s()
	f.at(k.I32s)(cpArray(i32s, err, cpI[int32]))
	i64s, err := n.I64s()
	f.at(k.I64s)(cpArray(i64s, err, cpI[int64]))
	f32s, err := n.F32s()
	f.at(k.F32s)(cpArray(f32s, err, cpF[float32]))
	f64s, err := n.F64s()
	f.at(k.F64s)(cpArray(f64s, err, cpF[float64]))
	flags, err := n.Flags()
	f.at(k.Flags)(cpArray(flags, err, hash.Bool))
	f.at(k.Names)(cpTextList(n.Names()))
	counts, err := n.Counts()
	var cm typed.Map
	for i := 0; err == nil && i < counts.Len(); i++ {
		c := counts.At(i)
		var key []byte
		key, err = c.KeyBytes()
		cm.Add(hash.StrBytes(key), hash.I64(c.Value()))
	}
	f.add(k.Counts, cm.End(), err)
	note := hash.NullHash
	if n.HasNote() {
		note, err = cpText(n.NoteBytes())
		f.add(k.Note, note, err)
	} else {
		f.m.Add(k.Note, note)
	}
	inner := hash.NullHash // absent: a mismatch, as the native records always have one
	if n.HasInner() {
		in, err := n.Inner()
		label, lerr := cpText(in.LabelBytes())
		point := hash.NullHash
		if in.HasPoint() {
			pt, perr := in.Point()
			point, err = typed.HashPoint(pt.X(), pt.Y(), pt.Z()), firstErr(err, perr)
		}
		inner, err = typed.HashInner(label, point), firstErr(err, lerr)
		f.add(k.Inner, inner, err)
	} else {
		f.m.Add(k.Inner, inner)
	}
	children, err := n.Children()
	var a typed.Array
	for i := 0; err == nil && i < children.Len(); i++ {
		var h uint64
		h, err = cpNestedHash(children.At(i))
		a.Add(h)
	}
	f.add(k.Children, a.End(), err)
	return f.m.End(), f.err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
