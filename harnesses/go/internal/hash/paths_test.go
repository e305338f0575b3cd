//go:build linux

package hash

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// specBytes is bytes(s, b) exactly as spec/hash.md writes it, a byte at a time: the reference that
// Bytes' fast paths (a short string read as two masked words, up to 15 bytes past its end within its
// page; a long one's tail without a branch) are checked against. Pinned by the spec's worked example
// in TestEveryLengthAndPlacementHashesAsTheSpecDefines.
func specBytes(s uint64, b []byte) uint64 {
	word := func(i int) (w uint64) { // w(i): bytes past the end count as 0
		for j := 0; j < 8 && i+j < len(b); j++ {
			w |= uint64(b[i+j]) << (8 * j)
		}
		return w
	}
	n := len(b)
	a, c, i := s^uint64(n), uint64(0), 0
	for ; n-i >= 32; i += 32 {
		a = Mum(word(i)^P1, word(i+8)^a^P2)
		c = Mum(word(i+16)^P3, word(i+24)^c^P0)
	}
	for ; i < n; i += 16 {
		a = Mum(word(i)^P1, word(i+8)^a^P2)
	}
	return a ^ c
}

// guarded maps two pages, fills the first with pseudo-random bytes and makes the second
// inaccessible, so that a read past the first page's end crashes the test.
func guarded(t *testing.T) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	if err := syscall.Mprotect(m[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	x := uint64(0x2545f4914f6cdd1d)
	for i := range page {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		m[i] = byte(x)
	}
	return m[:page:page]
}

func TestEveryLengthAndPlacementHashesAsTheSpecDefines(t *testing.T) {
	g := guarded(t)
	page := len(g)
	checked := 0
	for n := 0; n <= 300; n++ {
		// every start within 40 bytes of the page's end (ending at it, and crossing the 16-byte
		// check's boundary from both sides), then starts across the page
		var starts []int
		for gap := 0; gap <= 40 && n+gap <= page; gap++ {
			starts = append(starts, page-n-gap)
		}
		for at := 0; at+n <= page; at += 61 {
			starts = append(starts, at)
		}
		for _, at := range starts {
			b := g[at : at+n : at+n]
			if got, want := Bytes(seedStr, b), specBytes(seedStr, b); got != want {
				t.Fatalf("length %d at offset %d: %s, want %s", n, at, Hex64(got), Hex64(want))
			}
			checked++
		}
	}
	if checked < 30_000 {
		t.Fatalf("only %d placements", checked)
	}
	if Bytes(seedStr, nil) != seedStr || Str("") != seedStr {
		t.Error("an empty string hashes to its seed, and its pointer is never read")
	}
	// the spec's worked example, so that specBytes is pinned too
	if got := specBytes(seedStr, []byte("abc")); got != 0xfffe66391ebe87c4 {
		t.Errorf("spec's example: %s", Hex64(got))
	}
}

func TestTheFlatLeafHashesStringsOfEveryLengthAsTheTree(t *testing.T) {
	// keys and values of every length around the one-mum path's limits, in maps and arrays, last in
	// the pool too (its padding is what the leaf reads past a string)
	for n := 0; n <= 40; n++ {
		s := strings.Repeat(fmt.Sprint(n%10), n)
		doc := map[string]any{s: []any{int64(-1), s, []byte(s), map[string]any{"": s, s: true}, 2.5, s}}
		sameAsTree(t, fmt.Sprintf("strings of %d bytes", n), doc)
		sameAsTree(t, fmt.Sprintf("an array ending in a string of %d bytes", n), []any{nil, s})
	}
}
