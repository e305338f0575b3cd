package adapters

import (
	"fmt"
	"unsafe"

	"serbench/harnesses/go/internal/typed"
)

// Typed is a row's typed-record capability (spec/typed.md). Encoder prepares the library's input
// from the native records (outside the loop: the records themselves for reflection rows, the
// library's generated types for protobuf) and returns the operation that encodes it; typed-decode
// and typed-access rows use it too, outside the loop, to make the bytes they read. Decode decodes
// into native records (or the library's own types) and returns the typed document hash; Access
// reads every field through a zero-copy view and returns the same hash. One is the per-record
// codec of the latency pass (nil: the row has no latency pass).
type Typed struct {
	Tests   []string
	Encoder func(format string, r *typed.Records) (Encoder, error)
	Decode  TypedDecodeFn
	Access  TypedDecodeFn
	One     func(format string, r *typed.Records) (*OneCodec, error)
}

// TypedDecodeFn reads a library's encoding of records of schema s (a fresh, 16-byte aligned copy
// the library may keep until the operation returns) and returns the typed document hash.
type TypedDecodeFn func(format string, s typed.Schema, data []byte) (uint64, error)

// OneCodec is one record at a time (--latency): Encode encodes record i; Decode decodes one
// record's bytes and returns its typed hash.
type OneCodec struct {
	Encode func(i int) ([]byte, error)
	Decode func(data []byte) (uint64, error)
}

// EncDec are the tests of a row that encodes and decodes (no zero-copy view).
var EncDec = []string{"typed-encode", "typed-decode"}

// TypedFormats are the typed wire format ids of this harness's rows (spec/typed.md).
var TypedFormats = []string{"json", "msgpack", "cbor", "bson", "protobuf", "flatbuffers", "capnp", "gob"}

// AlignedBuf is the 16-byte aligned buffer every typed read copies its input into (spec/typed.md:
// zero-copy readers need aligned input, and Go's small size classes only guarantee 8). One buffer
// per cell, grown once and overwritten by every operation's copy, as the schemaless rows' input copy
// (spec/fairness.md rule 1): a new buffer per operation was a 7.5 MB allocation per operation on
// product-large, so the collector and the kernel's page faults for it ran in every sample, baseline
// and row alike, and made the typed cells the least repeatable of the harness (docs/studies/go-typed-input-copy.md,
// "Go's typed input copy"). A library may keep the bytes it is given only for as long as the
// operation that reads them: the next operation's copy overwrites them.
type AlignedBuf struct{ buf []byte }

// Copy copies src into the buffer, 16-byte aligned, and returns the copy.
func (a *AlignedBuf) Copy(src []byte) []byte {
	if len(a.buf) < len(src)+15 {
		a.buf = make([]byte, len(src)+15)
	}
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(a.buf))) & 15)
	b := a.buf[off : off+len(src) : off+len(src)]
	copy(b, src)
	return b
}

// AlignedCopy is a 16-byte aligned copy of src in a buffer of its own.
func AlignedCopy(src []byte) []byte {
	var a AlignedBuf
	return a.Copy(src)
}

// ReflectTyped is the typed capability of a reflection library whose API is
// Marshal(v) ([]byte, error) and Unmarshal(data, &v) error: it encodes the record slice as one
// value (an array of records) and decodes it back into native records.
func ReflectTyped(marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) *Typed {
	return &Typed{
		Tests: EncDec,
		Encoder: func(_ string, r *typed.Records) (Encoder, error) {
			var v any
			switch r.Schema {
			case typed.ProductSchema:
				v = r.Products
			case typed.TradeSchema:
				v = r.Trades
			default:
				v = r.Nested
			}
			return func() ([]byte, error) { return marshal(v) }, nil
		},
		Decode: func(_ string, s typed.Schema, data []byte) (uint64, error) {
			switch s {
			case typed.ProductSchema:
				var v []typed.Product
				if err := unmarshal(data, &v); err != nil {
					return 0, err
				}
				return typed.HashProducts(v), nil
			case typed.TradeSchema:
				var v []typed.Trade
				if err := unmarshal(data, &v); err != nil {
					return 0, err
				}
				return typed.HashTrades(v), nil
			}
			var v []typed.Nested
			if err := unmarshal(data, &v); err != nil {
				return 0, err
			}
			return typed.HashNesteds(v), nil
		},
		One: func(_ string, r *typed.Records) (*OneCodec, error) {
			c := &OneCodec{}
			switch r.Schema {
			case typed.ProductSchema:
				c.Encode = func(i int) ([]byte, error) { return marshal(&r.Products[i]) }
				c.Decode = func(d []byte) (uint64, error) {
					var v typed.Product
					err := unmarshal(d, &v)
					return typed.HashProduct(&v), err
				}
			case typed.TradeSchema:
				c.Encode = func(i int) ([]byte, error) { return marshal(&r.Trades[i]) }
				c.Decode = func(d []byte) (uint64, error) {
					var v typed.Trade
					err := unmarshal(d, &v)
					return typed.HashTrade(&v), err
				}
			default:
				c.Encode = func(i int) ([]byte, error) { return marshal(&r.Nested[i]) }
				c.Decode = func(d []byte) (uint64, error) {
					var v typed.Nested
					err := unmarshal(d, &v)
					return typed.HashNested(&v), err
				}
			}
			return c, nil
		},
	}
}

// TypedWire is the records encoded in a typed wire format, for the baselines: the shortest
// encoding any row of this binary makes in that format, so a baseline never copies or hashes more
// bytes than a row it is subtracted from (spec/typed.md, fairness.md rule 5).
func TypedWire(format string, r *typed.Records) ([]byte, error) {
	var best []byte
	lastErr := fmt.Errorf("no typed row writes %s", format)
	for _, b := range All() {
		if b.Typed == nil || !b.Supports("typed-encode", format) {
			continue
		}
		out, err := Lib(func() ([]byte, error) {
			enc, err := b.Typed.Encoder(format, r)
			if err != nil {
				return nil, err
			}
			return enc()
		})
		switch {
		case err != nil:
			lastErr = err // a row that cannot carry these records has no bytes to match here
		case best == nil || len(out) < len(best):
			best = out
		}
	}
	if best == nil {
		return nil, lastErr
	}
	return best, nil
}

// View is a slice of records seen as another type of the same layout, without copying: a code
// generator's copy of the native records (internal/gen/..., made by regen-schemas.sh from
// internal/typed/records.go; the tests check that every such pair has the same fields, types and
// offsets), so a codegen row encodes the harness's records and hashes its decoded records with
// the native typed hash, as a Rust derive does on the one type.
func View[D, S any](s []S) []D {
	return unsafe.Slice((*D)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// ViewOf is one record seen as the same-layout type D.
func ViewOf[D, S any](s *S) *D { return (*D)(unsafe.Pointer(s)) }
