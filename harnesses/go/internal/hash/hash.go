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

// canRead16 is true when the 16 bytes at p lie in one 4 KiB page. Pages are 4 KiB or a multiple of
// it, so those bytes are then mapped if p is: a read of up to 15 bytes past a string's end, within
// its page, never faults, whatever holds the string. The bytes read past the end are masked off
// before use, so they never change a hash. The same check as the native harness's sb_can_read16 and
// the Rust harness's hash::masked16.
func canRead16(p *byte) bool { return uintptr(unsafe.Pointer(p))&4095 <= 4096-16 }

// mask16 keeps the first n (0..16) bytes of the two little-endian words at a string's start: w(0)
// and w(8) of spec/hash.md, with the bytes past n counted as 0. 32 entries, indexed by n&31, so the
// index needs no bounds check.
var mask16 = func() (m [32][2]uint64) {
	for n := 0; n <= 16; n++ {
		m[n][0] = ^uint64(0) >> (64 - 8*min(n, 8)) // n = 0: a shift by 64 is 0 in Go
		if n > 8 {
			m[n][1] = ^uint64(0) >> (64 - 8*(n-8))
		}
	}
	return
}()

// masked16 reads the first n (0..16) bytes at p as w(0) and w(8), both words whole and masked, when
// canRead16(p): every length takes the same instructions, with no branch on its class (1-3, 4-8,
// 9-16 bytes), which on the corpus's mixed key and string lengths mispredicts
// (docs/studies/fewer-branches-per-value.md, "Fewer branches per value"). The 16 bytes are read through a slice of p's own pointer, so the only
// pointer the collector can ever see is p, which points into the string.
func masked16(p *byte, n uint) (lo, hi uint64) {
	w := unsafe.Slice(p, 16)
	m := &mask16[n&31]
	return binary.LittleEndian.Uint64(w) & m[0], binary.LittleEndian.Uint64(w[8:]) & m[1]
}

// Bytes is bytes(s, b) of spec/hash.md. A string of 1 to 16 bytes (most keys, half the corpus's
// strings) is one mum over two masked words with no branch on its length; longer ones, empty ones
// (whose pointer may be nil) and the rare short one at a page's end take bytesSlow.
func Bytes(s uint64, b []byte) uint64 {
	n := uint(len(b))
	if p := unsafe.SliceData(b); !raceBuild && n-1 < 16 && canRead16(p) {
		lo, hi := masked16(p, n)
		return Mum(lo^P1, hi^s^uint64(n)^P2)
	}
	return bytesSlow(s, b)
}

// bytesSlow is bytes(s, b) read exactly: the length first, then two lanes of 32 bytes per step,
// then 16 bytes at a time (zero-padded).
func bytesSlow(s uint64, b []byte) uint64 {
	n := len(b)
	if n <= 16 {
		if n == 0 {
			return s
		}
		var w [16]byte
		copy(w[:], b)
		return Mum(binary.LittleEndian.Uint64(w[:])^P1, binary.LittleEndian.Uint64(w[8:])^uint64(n)^s^P2)
	}
	return bytesLong(s, b)
}

// bytesLong is bytes(s, b) for more than 16 bytes: the 32-byte steps, then at most one whole 16-byte
// block and the last 0..16 bytes in lane a, taken without a branch on how many remain (selects, and
// the 16 bytes that end the string read as two words and shifted as one 128-bit value), so a string
// costs one mispredicted branch at most, its loop's exit. The native harness's sb_hash_bytes_long.
func bytesLong(s uint64, b []byte) uint64 {
	n := len(b)
	a := s ^ uint64(n)
	var c uint64
	// the 32-byte steps read through unsafe: b[i:i+32] kept three bounds checks per step, and a
	// shrinking slice its masked pointer arithmetic (docs/studies/go-flat-walk.md, "Go's flat walk"); the
	// 32 bytes at i lie inside b, since i <= n-32
	p := unsafe.Pointer(unsafe.SliceData(b))
	for i := 0; i <= n-32; i += 32 {
		w := (*[32]byte)(unsafe.Add(p, i))
		a = Mum(binary.LittleEndian.Uint64(w[0:8])^P1, binary.LittleEndian.Uint64(w[8:16])^a^P2)
		c = Mum(binary.LittleEndian.Uint64(w[16:24])^P3, binary.LittleEndian.Uint64(w[24:32])^c^P0)
	}
	rem := n & 31
	block := uint64(0) // 1: a whole 16-byte block at n-rem, then rem-16 bytes
	if rem > 16 {
		block = 1
	}
	// the block's words are read at n-rem when it is taken, else at n-16 (inside the string, n > 16)
	q := b[select64(block, uint64(n-rem), uint64(n-16)):][:16]
	a = select64(block, Mum(binary.LittleEndian.Uint64(q)^P1, binary.LittleEndian.Uint64(q[8:])^a^P2), a)
	r := uint64(rem) - 16*block // 0..16 bytes left, the last r of the string
	e := b[n-16:]
	w0, w1 := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:])
	sh := 8 * (16 - r) // 0..128; Go's shifts by 64 or more give 0, so each term below is exact
	lo := w0>>sh | w1<<(64-sh) | w1>>(sh-64)
	hi := w1 >> sh
	rest := uint64(0)
	if r != 0 {
		rest = 1
	}
	return select64(rest, Mum(lo^P1, hi^a^P2), a) ^ c
}

// select64 is c ? x : y (c is 0 or 1) as arithmetic, so that the compiler cannot turn it into a
// branch: the conditions it is used for change from one string to the next.
func select64(c, x, y uint64) uint64 { return y ^ ((x ^ y) & -c) }

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
