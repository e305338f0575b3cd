// Package typed holds the typed records of spec/typed.md: the native Go structs (records.go), the
// loader of a typed dataset file, and the typed hash (a record is the map of its fields, an enum
// its variant name, a nil optional null, an f32 the double of its value), which equals the object
// hash of the same records read schemalessly.
package typed

import (
	"fmt"
	"math"

	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/refdec"
)

// Schema names a record type.
type Schema string

// The schemas.
const (
	ProductSchema Schema = "product"
	TradeSchema   Schema = "trade"
	NestedSchema  Schema = "nested"
)

// Records is a dataset: its schema and its records (only the slice of that schema is set).
type Records struct {
	Schema   Schema
	Products []Product
	Trades   []Trade
	Nested   []Nested
}

// Len is the number of records.
func (r *Records) Len() int {
	switch r.Schema {
	case ProductSchema:
		return len(r.Products)
	case TradeSchema:
		return len(r.Trades)
	}
	return len(r.Nested)
}

// ParseSide reads a variant's name.
func ParseSide(name string) (Side, error) {
	var s Side
	err := s.UnmarshalText([]byte(name))
	return s, err
}

// --- the typed hash ------------------------------------------------------------------------------

// Field-name and enum-name hashes, computed once (as the Rust harness's key! macro does at compile
// time), so hashing a record costs what walking its values costs.
var (
	kSchema, kRecords                                           = hash.Str("schema"), hash.Str("records")
	kID, kName, kPrice, kInStock, kTags                         = hash.Str("id"), hash.Str("name"), hash.Str("price"), hash.Str("in_stock"), hash.Str("tags")
	kFlag, kText, kSide, kSmallInt, kLongInt                    = hash.Str("flag"), hash.Str("text"), hash.Str("side"), hash.Str("small_int"), hash.Str("long_int")
	kX, kY, kZ, kLabel, kPoint                                  = hash.Str("x"), hash.Str("y"), hash.Str("z"), hash.Str("label"), hash.Str("point")
	kU8, kU16, kU32, kU64, kI8, kI16, kI32, kI64, kF32, kF64    = hash.Str("u8"), hash.Str("u16"), hash.Str("u32"), hash.Str("u64"), hash.Str("i8"), hash.Str("i16"), hash.Str("i32"), hash.Str("i64"), hash.Str("f32"), hash.Str("f64")
	kU8s, kU16s, kU32s, kU64s, kI8s, kI16s, kI32s, kI64s, kF32s = hash.Str("u8s"), hash.Str("u16s"), hash.Str("u32s"), hash.Str("u64s"), hash.Str("i8s"), hash.Str("i16s"), hash.Str("i32s"), hash.Str("i64s"), hash.Str("f32s")
	kF64s, kFlags, kNames, kCounts, kNote, kInner, kChildren    = hash.Str("f64s"), hash.Str("flags"), hash.Str("names"), hash.Str("counts"), hash.Str("note"), hash.Str("inner"), hash.Str("children")
	hBuy, hSell                                                 = hash.Str("Buy"), hash.Str("Sell")
	hProductName, hTradeName, hNestedName                       = hash.Str("product"), hash.Str("trade"), hash.Str("nested")
)

// Map accumulates a map's hash from its entries (in any order).
type Map struct{ sum, n uint64 }

// Add adds an entry from its key's and value's hashes.
func (m *Map) Add(k, v uint64) {
	m.sum += hash.MapTerm(k, v)
	m.n++
}

// End is the map's hash.
func (m *Map) End() uint64 { return hash.MapEnd(m.sum, m.n) }

// Array accumulates an array's hash from its elements, in order.
type Array struct{ sum, n uint64 }

// Add adds the next element's hash.
func (a *Array) Add(h uint64) {
	a.sum += hash.ArrayTerm(a.n, h)
	a.n++
}

// End is the array's hash.
func (a *Array) End() uint64 { return hash.ArrayEnd(a.sum, a.n) }

// Uints hashes a slice of unsigned integers of any width.
func Uints[T uint8 | uint16 | uint32 | uint64](v []T) uint64 {
	var a Array
	for _, x := range v {
		a.Add(hash.U64(uint64(x)))
	}
	return a.End()
}

// Ints hashes a slice of signed integers of any width.
func Ints[T int8 | int16 | int32 | int64](v []T) uint64 {
	var a Array
	for _, x := range v {
		a.Add(hash.I64(int64(x)))
	}
	return a.End()
}

// Floats hashes a slice of float32 or float64 (an f32 as the double of its value).
func Floats[T float32 | float64](v []T) uint64 {
	var a Array
	for _, x := range v {
		a.Add(hash.F64(float64(x)))
	}
	return a.End()
}

// Bools hashes a slice of bools.
func Bools(v []bool) uint64 {
	var a Array
	for _, x := range v {
		a.Add(hash.Bool(x))
	}
	return a.End()
}

// Strs hashes a slice of strings.
func Strs(v []string) uint64 {
	var a Array
	for _, x := range v {
		a.Add(hash.Str(x))
	}
	return a.End()
}

// SideHash is an enum value's hash: its variant's name (spec/typed.md). A value outside the enum
// hashes as its number, which no name equals, so a library that invents one is caught.
func SideHash(s Side) uint64 {
	switch s {
	case Buy:
		return hBuy
	case Sell:
		return hSell
	}
	return hash.I64(int64(s))
}

// HashProduct is a product record's hash.
func HashProduct(p *Product) uint64 {
	var m Map
	m.Add(kID, hash.U64(p.ID))
	m.Add(kName, hash.Str(p.Name))
	m.Add(kPrice, hash.F64(p.Price))
	m.Add(kInStock, hash.Bool(p.InStock))
	m.Add(kTags, Strs(p.Tags))
	return m.End()
}

// HashTrade is a trade record's hash.
func HashTrade(t *Trade) uint64 {
	var m Map
	m.Add(kPrice, hash.F64(t.Price))
	m.Add(kFlag, hash.Bool(t.Flag))
	m.Add(kText, hash.Str(t.Text))
	m.Add(kSide, SideHash(t.Side))
	m.Add(kSmallInt, hash.I64(int64(t.SmallInt)))
	m.Add(kLongInt, hash.I64(t.LongInt))
	return m.End()
}

// HashPoint is a Point's hash.
func HashPoint(x, y float64, z float32) uint64 {
	var m Map
	m.Add(kX, hash.F64(x))
	m.Add(kY, hash.F64(y))
	m.Add(kZ, hash.F64(float64(z)))
	return m.End()
}

// HashInner is an Inner's hash from its label's and its point's hashes.
func HashInner(label, point uint64) uint64 {
	var m Map
	m.Add(kLabel, label)
	m.Add(kPoint, point)
	return m.End()
}

// HashCounts is the hash of the counts map.
func HashCounts(c map[string]int64) uint64 {
	var m Map
	for k, v := range c {
		m.Add(hash.Str(k), hash.I64(v))
	}
	return m.End()
}

// HashNote is the optional note's hash (nil = null).
func HashNote(n *string) uint64 {
	if n == nil {
		return hash.NullHash
	}
	return hash.Str(*n)
}

// HashNested is a nested record's hash, its children included (the recursion is bounded by the
// loader's MaxNestedDepth and by the libraries' decoders of the harness's own encodings).
func HashNested(v *Nested) uint64 {
	var m Map
	m.Add(kU8, hash.U64(uint64(v.U8)))
	m.Add(kU16, hash.U64(uint64(v.U16)))
	m.Add(kU32, hash.U64(uint64(v.U32)))
	m.Add(kU64, hash.U64(v.U64))
	m.Add(kI8, hash.I64(int64(v.I8)))
	m.Add(kI16, hash.I64(int64(v.I16)))
	m.Add(kI32, hash.I64(int64(v.I32)))
	m.Add(kI64, hash.I64(v.I64))
	m.Add(kF32, hash.F64(float64(v.F32)))
	m.Add(kF64, hash.F64(v.F64))
	m.Add(kFlag, hash.Bool(v.Flag))
	m.Add(kName, hash.Str(v.Name))
	m.Add(kU8s, Uints(v.U8s))
	m.Add(kU16s, Uints(v.U16s))
	m.Add(kU32s, Uints(v.U32s))
	m.Add(kU64s, Uints(v.U64s))
	m.Add(kI8s, Ints(v.I8s))
	m.Add(kI16s, Ints(v.I16s))
	m.Add(kI32s, Ints(v.I32s))
	m.Add(kI64s, Ints(v.I64s))
	m.Add(kF32s, Floats(v.F32s))
	m.Add(kF64s, Floats(v.F64s))
	m.Add(kFlags, Bools(v.Flags))
	m.Add(kNames, Strs(v.Names))
	m.Add(kCounts, HashCounts(v.Counts))
	m.Add(kNote, HashNote(v.Note))
	m.Add(kInner, HashInner(hash.Str(v.Inner.Label), HashPoint(v.Inner.Point.X, v.Inner.Point.Y, v.Inner.Point.Z)))
	var c Array
	for i := range v.Children {
		c.Add(HashNested(&v.Children[i]))
	}
	m.Add(kChildren, c.End())
	return m.End()
}

// Keys are the field-name hashes, for the rows that hash a library's own types field by field
// (protobuf's generated messages, zero-copy views).
var Keys = struct {
	ID, Name, Price, InStock, Tags, Flag, Text, Side, SmallInt, LongInt                         uint64
	U8, U16, U32, U64, I8, I16, I32, I64, F32, F64                                              uint64
	U8s, U16s, U32s, U64s, I8s, I16s, I32s, I64s, F32s, F64s, Flags, Names, Counts, Note, Inner uint64
	Children                                                                                    uint64
}{kID, kName, kPrice, kInStock, kTags, kFlag, kText, kSide, kSmallInt, kLongInt,
	kU8, kU16, kU32, kU64, kI8, kI16, kI32, kI64, kF32, kF64,
	kU8s, kU16s, kU32s, kU64s, kI8s, kI16s, kI32s, kI64s, kF32s, kF64s, kFlags, kNames, kCounts, kNote, kInner,
	kChildren}

// Document is the hash of the typed document {"schema": name, "records": [...]} from the records'
// hashes (the array's hash).
func Document(s Schema, records uint64) uint64 {
	var m Map
	name := hash.Str(string(s))
	switch s {
	case ProductSchema:
		name = hProductName
	case TradeSchema:
		name = hTradeName
	case NestedSchema:
		name = hNestedName
	}
	m.Add(kSchema, name)
	m.Add(kRecords, records)
	return m.End()
}

// HashProducts is the document hash of product records.
func HashProducts(v []Product) uint64 {
	var a Array
	for i := range v {
		a.Add(HashProduct(&v[i]))
	}
	return Document(ProductSchema, a.End())
}

// HashTrades is the document hash of trade records.
func HashTrades(v []Trade) uint64 {
	var a Array
	for i := range v {
		a.Add(HashTrade(&v[i]))
	}
	return Document(TradeSchema, a.End())
}

// HashNesteds is the document hash of nested records.
func HashNesteds(v []Nested) uint64 {
	var a Array
	for i := range v {
		a.Add(HashNested(&v[i]))
	}
	return Document(NestedSchema, a.End())
}

// Hash is the dataset's document hash.
func (r *Records) Hash() uint64 {
	switch r.Schema {
	case ProductSchema:
		return HashProducts(r.Products)
	case TradeSchema:
		return HashTrades(r.Trades)
	}
	return HashNesteds(r.Nested)
}

// RecordHashes is each record's own hash (the latency pass checks records one at a time).
func (r *Records) RecordHashes() []uint64 {
	out := make([]uint64, 0, r.Len())
	for i := range r.Products {
		out = append(out, HashProduct(&r.Products[i]))
	}
	for i := range r.Trades {
		out = append(out, HashTrade(&r.Trades[i]))
	}
	for i := range r.Nested {
		out = append(out, HashNested(&r.Nested[i]))
	}
	return out
}

// --- the loader ----------------------------------------------------------------------------------

// MaxNestedDepth bounds the children of a loaded nested record (the datasets go to depth 2), so
// the loader's and the hash's recursion never depends on a hostile file's depth.
const MaxNestedDepth = 64

// Load reads a typed dataset file (JSON, through the harness's reference decoder) into native
// records, outside any timed loop. Every value is checked against its field's type: a wrong type,
// an integer outside its width, an f32 not exactly a float32, or a missing or unknown field is an
// error (the file's, exit 6).
func Load(data []byte) (*Records, error) {
	tree, err := refdec.Decode("json", data)
	if err != nil {
		return nil, fmt.Errorf("typed file: %v", err)
	}
	doc, ok := tree.(map[string]any)
	if !ok || len(doc) != 2 {
		return nil, fmt.Errorf("typed file: expected {\"schema\": ..., \"records\": [...]}")
	}
	name, _ := doc["schema"].(string)
	list, ok := doc["records"].([]any)
	if !ok {
		return nil, fmt.Errorf("typed file: \"records\" is not an array")
	}
	r := &Records{Schema: Schema(name)}
	for i, x := range list {
		rec, err := fields(x, nil)
		if err != nil {
			return nil, fmt.Errorf("record %d: %v", i, err)
		}
		switch r.Schema {
		case ProductSchema:
			var p Product
			err = loadProduct(rec, &p)
			r.Products = append(r.Products, p)
		case TradeSchema:
			var t Trade
			err = loadTrade(rec, &t)
			r.Trades = append(r.Trades, t)
		case NestedSchema:
			var n Nested
			err = loadNested(rec, &n, 0)
			r.Nested = append(r.Nested, n)
		default:
			return nil, fmt.Errorf("typed file: unknown schema %q", name)
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %v", i, err)
		}
	}
	if r.Schema != ProductSchema && r.Schema != TradeSchema && r.Schema != NestedSchema {
		return nil, fmt.Errorf("typed file: unknown schema %q", name)
	}
	return r, nil
}

// rec is a record's fields, each read once: leftovers are unknown fields.
type rec map[string]any

func fields(x any, _ []string) (rec, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a map")
	}
	out := make(rec, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out, nil
}

func (r rec) take(name string) (any, error) {
	v, ok := r[name]
	if !ok {
		return nil, fmt.Errorf("missing field %q", name)
	}
	delete(r, name)
	return v, nil
}

func (r rec) done() error {
	for k := range r {
		return fmt.Errorf("unknown field %q", k)
	}
	return nil
}

func asUint(x any, max uint64) (uint64, error) {
	switch v := x.(type) {
	case int64:
		if v >= 0 && uint64(v) <= max {
			return uint64(v), nil
		}
	case uint64:
		if v <= max {
			return v, nil
		}
	default:
		return 0, fmt.Errorf("%T is not an integer", x)
	}
	return 0, fmt.Errorf("%v is outside [0, %d]", x, max)
}

func asInt(x any, min, max int64) (int64, error) {
	v, ok := x.(int64)
	if !ok {
		return 0, fmt.Errorf("%v (%T) is not an int64", x, x)
	}
	if v < min || v > max {
		return 0, fmt.Errorf("%d is outside [%d, %d]", v, min, max)
	}
	return v, nil
}

func asF64(x any) (float64, error) {
	v, ok := x.(float64)
	if !ok {
		return 0, fmt.Errorf("%v (%T) is not a float", x, x)
	}
	return v, nil
}

func asF32(x any) (float32, error) {
	v, err := asF64(x)
	if err == nil && float64(float32(v)) != v {
		err = fmt.Errorf("%v is not exactly a float32 (spec/typed.md, float32 values)", v)
	}
	return float32(v), err
}

func asStr(x any) (string, error) {
	v, ok := x.(string)
	if !ok {
		return "", fmt.Errorf("%v (%T) is not a string", x, x)
	}
	return v, nil
}

func asBool(x any) (bool, error) {
	v, ok := x.(bool)
	if !ok {
		return false, fmt.Errorf("%v (%T) is not a bool", x, x)
	}
	return v, nil
}

// field reads one field with its converter into *dst.
func field[T any](r rec, name string, conv func(any) (T, error), dst *T) error {
	x, err := r.take(name)
	if err == nil {
		*dst, err = conv(x)
	}
	if err != nil {
		return fmt.Errorf("field %q: %v", name, err)
	}
	return nil
}

// slice reads an array field whose elements conv converts.
func slice[T any](r rec, name string, conv func(any) (T, error), dst *[]T) error {
	return field(r, name, func(x any) ([]T, error) {
		a, ok := x.([]any)
		if !ok {
			return nil, fmt.Errorf("not an array")
		}
		out := make([]T, len(a))
		for i, e := range a {
			v, err := conv(e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %v", i, err)
			}
			out[i] = v
		}
		return out, nil
	}, dst)
}

func uintOf[T uint8 | uint16 | uint32 | uint64](max uint64) func(any) (T, error) {
	return func(x any) (T, error) {
		v, err := asUint(x, max)
		return T(v), err
	}
}

func intOf[T int8 | int16 | int32 | int64](min, max int64) func(any) (T, error) {
	return func(x any) (T, error) {
		v, err := asInt(x, min, max)
		return T(v), err
	}
}

func loadProduct(r rec, p *Product) error {
	return first(
		field(r, "id", uintOf[uint64](math.MaxUint64), &p.ID),
		field(r, "name", asStr, &p.Name),
		field(r, "price", asF64, &p.Price),
		field(r, "in_stock", asBool, &p.InStock),
		slice(r, "tags", asStr, &p.Tags),
		r.done(),
	)
}

func loadTrade(r rec, t *Trade) error {
	return first(
		field(r, "price", asF64, &t.Price),
		field(r, "flag", asBool, &t.Flag),
		field(r, "text", asStr, &t.Text),
		field(r, "side", func(x any) (Side, error) {
			s, err := asStr(x)
			if err != nil {
				return 0, err
			}
			return ParseSide(s)
		}, &t.Side),
		field(r, "small_int", intOf[int32](math.MinInt32, math.MaxInt32), &t.SmallInt),
		field(r, "long_int", intOf[int64](math.MinInt64, math.MaxInt64), &t.LongInt),
		r.done(),
	)
}

func loadNested(r rec, n *Nested, depth int) error {
	if depth > MaxNestedDepth {
		return fmt.Errorf("children nested deeper than %d (the loader's limit)", MaxNestedDepth)
	}
	err := first(
		field(r, "u8", uintOf[uint8](math.MaxUint8), &n.U8),
		field(r, "u16", uintOf[uint16](math.MaxUint16), &n.U16),
		field(r, "u32", uintOf[uint32](math.MaxUint32), &n.U32),
		field(r, "u64", uintOf[uint64](math.MaxUint64), &n.U64),
		field(r, "i8", intOf[int8](math.MinInt8, math.MaxInt8), &n.I8),
		field(r, "i16", intOf[int16](math.MinInt16, math.MaxInt16), &n.I16),
		field(r, "i32", intOf[int32](math.MinInt32, math.MaxInt32), &n.I32),
		field(r, "i64", intOf[int64](math.MinInt64, math.MaxInt64), &n.I64),
		field(r, "f32", asF32, &n.F32),
		field(r, "f64", asF64, &n.F64),
		field(r, "flag", asBool, &n.Flag),
		field(r, "name", asStr, &n.Name),
		slice(r, "u8s", uintOf[uint8](math.MaxUint8), &n.U8s),
		slice(r, "u16s", uintOf[uint16](math.MaxUint16), &n.U16s),
		slice(r, "u32s", uintOf[uint32](math.MaxUint32), &n.U32s),
		slice(r, "u64s", uintOf[uint64](math.MaxUint64), &n.U64s),
		slice(r, "i8s", intOf[int8](math.MinInt8, math.MaxInt8), &n.I8s),
		slice(r, "i16s", intOf[int16](math.MinInt16, math.MaxInt16), &n.I16s),
		slice(r, "i32s", intOf[int32](math.MinInt32, math.MaxInt32), &n.I32s),
		slice(r, "i64s", intOf[int64](math.MinInt64, math.MaxInt64), &n.I64s),
		slice(r, "f32s", asF32, &n.F32s),
		slice(r, "f64s", asF64, &n.F64s),
		slice(r, "flags", asBool, &n.Flags),
		slice(r, "names", asStr, &n.Names),
		field(r, "counts", func(x any) (map[string]int64, error) {
			m, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("not a map")
			}
			out := make(map[string]int64, len(m))
			for k, v := range m {
				i, err := asInt(v, math.MinInt64, math.MaxInt64)
				if err != nil {
					return nil, fmt.Errorf("key %q: %v", k, err)
				}
				out[k] = i
			}
			return out, nil
		}, &n.Counts),
		field(r, "note", func(x any) (*string, error) {
			if x == nil {
				return nil, nil
			}
			s, err := asStr(x)
			return &s, err
		}, &n.Note),
		field(r, "inner", func(x any) (Inner, error) {
			var in Inner
			ir, err := fields(x, nil)
			if err != nil {
				return in, err
			}
			err = first(
				field(ir, "label", asStr, &in.Label),
				field(ir, "point", func(x any) (Point, error) {
					var p Point
					pr, err := fields(x, nil)
					if err != nil {
						return p, err
					}
					return p, first(field(pr, "x", asF64, &p.X), field(pr, "y", asF64, &p.Y), field(pr, "z", asF32, &p.Z), pr.done())
				}, &in.Point),
				ir.done(),
			)
			return in, err
		}, &n.Inner),
		slice(r, "children", func(x any) (Nested, error) {
			var c Nested
			cr, err := fields(x, nil)
			if err == nil {
				err = loadNested(cr, &c, depth+1)
			}
			return c, err
		}, &n.Children),
	)
	if err != nil {
		return err
	}
	return r.done()
}

// first is the first error of a record's field reads (all of them run; the record is discarded on
// error anyway).
func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
