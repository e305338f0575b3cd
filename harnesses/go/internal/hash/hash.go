// Package hash is the serbench object hash, spec/hash.md version 2: leaf hashes, container sums,
// the tree form over Go values (Any) and the streaming form (Stream).
package hash

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Version is the spec/hash.md version this package implements.
const Version = 2

const (
	K  uint64 = 0x9E3779B97F4A7C15
	P0 uint64 = 0xA0761D6478BD642F // wyhash's secret constants (spec/hash.md, "Arithmetic")
	P1 uint64 = 0xE7037ED1A0B428DB
	P2 uint64 = 0x8EBC6AF09C88C6E3
	P3 uint64 = 0x589965CC75374CC3
)

// Type tags.
const (
	TagNull   uint64 = 1
	TagBool   uint64 = 2
	TagUint   uint64 = 3
	TagNegInt uint64 = 4
	TagFloat  uint64 = 5
	TagString uint64 = 6
	TagBinary uint64 = 7
	TagArray  uint64 = 8
	TagMap    uint64 = 9
)

// Seed is S(t), the seed of type tag t.
func Seed(tag uint64) uint64 { return tag * K }

// Mum is wyhash's mixing step: the full 128-bit product, low half XOR high half.
func Mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// Scalar is scalar(t, v): a value of type tag t with 64-bit payload v.
func Scalar(tag, v uint64) uint64 { return Mum(v^Seed(tag), P0) }

var (
	NullHash  = Scalar(TagNull, 0)
	FalseHash = Scalar(TagBool, 0)
	TrueHash  = Scalar(TagBool, 1)
	seedStr   = Seed(TagString)
	seedBin   = Seed(TagBinary)
	seedUint  = Seed(TagUint)
	seedNeg   = Seed(TagNegInt)
	seedFloat = Seed(TagFloat)
	seedArray = Seed(TagArray)
	seedMap   = Seed(TagMap)
)

func Bool(b bool) uint64 {
	if b {
		return TrueHash
	}
	return FalseHash
}

// U64 hashes an integer >= 0, whether it was stored as int or uint.
func U64(v uint64) uint64 { return Mum(v^seedUint, P0) }

// I64 hashes an int64: the sign picks the tag.
func I64(v int64) uint64 {
	s := seedUint
	if v < 0 {
		s = seedNeg
	}
	return Mum(uint64(v)^s, P0)
}

// F64 hashes the IEEE-754 bits of a float64 (so -0.0 != 0.0 and 1.0 != 1).
func F64(f float64) uint64 { return Mum(math.Float64bits(f)^seedFloat, P0) }

// tail16 reads the last 1 to 15 bytes as two zero-padded little-endian words.
func tail16(t []byte) (uint64, uint64) {
	n := len(t)
	if n >= 8 {
		hi := binary.LittleEndian.Uint64(t[n-8:]) >> (8 * (16 - n))
		if n == 8 {
			hi = 0
		}
		return binary.LittleEndian.Uint64(t), hi
	}
	if n >= 4 {
		lo := uint64(binary.LittleEndian.Uint32(t)) | uint64(binary.LittleEndian.Uint32(t[n-4:]))<<(8*(n-4))
		return lo, 0
	}
	lo := uint64(t[0]) | uint64(t[n/2])<<(8*(n/2)) | uint64(t[n-1])<<(8*(n-1))
	return lo, 0
}

// Bytes is bytes(s, b) of spec/hash.md: the length first, then two lanes of 32 bytes per step,
// then 16 bytes at a time (zero-padded).
func Bytes(s uint64, b []byte) uint64 {
	n := len(b)
	if n == 0 {
		return s
	}
	if n < 16 {
		lo, hi := tail16(b)
		return Mum(lo^P1, hi^uint64(n)^s^P2)
	}
	a := s ^ uint64(n)
	var c uint64
	for len(b) >= 32 {
		a = Mum(binary.LittleEndian.Uint64(b)^P1, binary.LittleEndian.Uint64(b[8:])^a^P2)
		c = Mum(binary.LittleEndian.Uint64(b[16:])^P3, binary.LittleEndian.Uint64(b[24:])^c^P0)
		b = b[32:]
	}
	if len(b) >= 16 {
		a = Mum(binary.LittleEndian.Uint64(b)^P1, binary.LittleEndian.Uint64(b[8:])^a^P2)
		b = b[16:]
	}
	if len(b) > 0 {
		lo, hi := tail16(b)
		a = Mum(lo^P1, hi^a^P2)
	}
	return a ^ c
}

// Str hashes a string without copying it.
func Str(s string) uint64 {
	return Bytes(seedStr, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// StrBytes hashes UTF-8 bytes as a string.
func StrBytes(b []byte) uint64 { return Bytes(seedStr, b) }

// Bin hashes binary data.
func Bin(b []byte) uint64 { return Bytes(seedBin, b) }

// ArrayTerm is element i's term in its array's sum (its index keys it, so order matters).
func ArrayTerm(i, h uint64) uint64 { return Mum(h^P1, i^P2) }

// ArrayEnd finishes an array of n elements from its sum.
func ArrayEnd(sum, n uint64) uint64 { return Mum(sum^seedArray, n^P3) }

// MapTerm is one entry's term, from its key's and its value's hashes.
func MapTerm(key, value uint64) uint64 { return Mum(key^P3, value^P0) }

// MapEnd finishes a map of n entries from its sum (a wrapping sum: any order).
func MapEnd(sum, n uint64) uint64 { return Mum(sum^seedMap, n^P3) }

// Hex64 is the hash as 16 lowercase hex digits.
func Hex64(h uint64) string { return fmt.Sprintf("%016x", h) }
