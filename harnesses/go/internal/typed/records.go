package typed

import "fmt"

// The native records of spec/typed.md, as a Go program declares them: one struct per schema, the
// data model's snake_case names in the tags of the reflection libraries (json, msgpack, codec, msg).
// regen-schemas.sh copies this file into each code-generating library's package (internal/gen/...),
// so a generator's methods never reach the reflection rows (encoding/json would call an easyjson
// MarshalJSON, go-codec a codecgen CodecEncodeSelf); those copies have the same layout, checked by
// the tests, so the harness views them as these types without copying.

// Product is the `product` schema.
type Product struct {
	ID      uint64   `json:"id" msgpack:"id" codec:"id" msg:"id"`
	Name    string   `json:"name" msgpack:"name" codec:"name" msg:"name"`
	Price   float64  `json:"price" msgpack:"price" codec:"price" msg:"price"`
	InStock bool     `json:"in_stock" msgpack:"in_stock" codec:"in_stock" msg:"in_stock"`
	Tags    []string `json:"tags" msgpack:"tags" codec:"tags" msg:"tags"`
}

// Side is the enum of `trade`; its data-model value is the variant's name.
type Side int32

// The variants of Side.
const (
	Buy  Side = 0
	Sell Side = 1
)

// String is the variant's name (its data-model value).
func (s Side) String() string {
	switch s {
	case Buy:
		return "Buy"
	case Sell:
		return "Sell"
	}
	return fmt.Sprintf("Side(%d)", int32(s))
}

// MarshalText writes the variant's name, so text formats (JSON) carry the enum as the data model
// has it; a value outside the enum is an error, never a silent name.
func (s Side) MarshalText() ([]byte, error) {
	switch s {
	case Buy, Sell:
		return []byte(s.String()), nil
	}
	return nil, fmt.Errorf("%v is not a Side", s)
}

// UnmarshalText reads a variant's name.
func (s *Side) UnmarshalText(b []byte) error {
	switch string(b) {
	case "Buy":
		*s = Buy
	case "Sell":
		*s = Sell
	default:
		return fmt.Errorf("unknown Side %q", b)
	}
	return nil
}

// Trade is the `trade` schema.
type Trade struct {
	Price    float64 `json:"price" msgpack:"price" codec:"price" msg:"price"`
	Flag     bool    `json:"flag" msgpack:"flag" codec:"flag" msg:"flag"`
	Text     string  `json:"text" msgpack:"text" codec:"text" msg:"text"`
	Side     Side    `json:"side" msgpack:"side" codec:"side" msg:"side"`
	SmallInt int32   `json:"small_int" msgpack:"small_int" codec:"small_int" msg:"small_int"`
	LongInt  int64   `json:"long_int" msgpack:"long_int" codec:"long_int" msg:"long_int"`
}

// Point is a sub-struct of Inner.
type Point struct {
	X float64 `json:"x" msgpack:"x" codec:"x" msg:"x"`
	Y float64 `json:"y" msgpack:"y" codec:"y" msg:"y"`
	Z float32 `json:"z" msgpack:"z" codec:"z" msg:"z"`
}

// Inner is a sub-struct of Nested.
type Inner struct {
	Label string `json:"label" msgpack:"label" codec:"label" msg:"label"`
	Point Point  `json:"point" msgpack:"point" codec:"point" msg:"point"`
}

// Nested is the `nested` schema: every numeric width, a slice of each, a map, an optional
// (nil = absent), sub-structs and children. U8s is a []uint8, i.e. a []byte: encoding/json writes
// it as base64 and MessagePack codecs as bin, the natural Go encoding of the type.
type Nested struct {
	U8       uint8            `json:"u8" msgpack:"u8" codec:"u8" msg:"u8"`
	U16      uint16           `json:"u16" msgpack:"u16" codec:"u16" msg:"u16"`
	U32      uint32           `json:"u32" msgpack:"u32" codec:"u32" msg:"u32"`
	U64      uint64           `json:"u64" msgpack:"u64" codec:"u64" msg:"u64"`
	I8       int8             `json:"i8" msgpack:"i8" codec:"i8" msg:"i8"`
	I16      int16            `json:"i16" msgpack:"i16" codec:"i16" msg:"i16"`
	I32      int32            `json:"i32" msgpack:"i32" codec:"i32" msg:"i32"`
	I64      int64            `json:"i64" msgpack:"i64" codec:"i64" msg:"i64"`
	F32      float32          `json:"f32" msgpack:"f32" codec:"f32" msg:"f32"`
	F64      float64          `json:"f64" msgpack:"f64" codec:"f64" msg:"f64"`
	Flag     bool             `json:"flag" msgpack:"flag" codec:"flag" msg:"flag"`
	Name     string           `json:"name" msgpack:"name" codec:"name" msg:"name"`
	U8s      []uint8          `json:"u8s" msgpack:"u8s" codec:"u8s" msg:"u8s"`
	U16s     []uint16         `json:"u16s" msgpack:"u16s" codec:"u16s" msg:"u16s"`
	U32s     []uint32         `json:"u32s" msgpack:"u32s" codec:"u32s" msg:"u32s"`
	U64s     []uint64         `json:"u64s" msgpack:"u64s" codec:"u64s" msg:"u64s"`
	I8s      []int8           `json:"i8s" msgpack:"i8s" codec:"i8s" msg:"i8s"`
	I16s     []int16          `json:"i16s" msgpack:"i16s" codec:"i16s" msg:"i16s"`
	I32s     []int32          `json:"i32s" msgpack:"i32s" codec:"i32s" msg:"i32s"`
	I64s     []int64          `json:"i64s" msgpack:"i64s" codec:"i64s" msg:"i64s"`
	F32s     []float32        `json:"f32s" msgpack:"f32s" codec:"f32s" msg:"f32s"`
	F64s     []float64        `json:"f64s" msgpack:"f64s" codec:"f64s" msg:"f64s"`
	Flags    []bool           `json:"flags" msgpack:"flags" codec:"flags" msg:"flags"`
	Names    []string         `json:"names" msgpack:"names" codec:"names" msg:"names"`
	Counts   map[string]int64 `json:"counts" msgpack:"counts" codec:"counts" msg:"counts"`
	Note     *string          `json:"note" msgpack:"note" codec:"note" msg:"note"`
	Inner    Inner            `json:"inner" msgpack:"inner" codec:"inner" msg:"inner"`
	Children []Nested         `json:"children" msgpack:"children" codec:"children" msg:"children"`
}
