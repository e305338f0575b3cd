package adapters

import (
	"bytes"
	"testing"
	"unsafe"
)

func TestAlignedBufCopiesAlignedAndReusesItsStorage(t *testing.T) {
	var a AlignedBuf
	long := bytes.Repeat([]byte("0123456789abcdef!"), 100)
	for i, src := range [][]byte{long, long[:3], {}, long[5:900], long} {
		got := a.Copy(src)
		if !bytes.Equal(got, src) || cap(got) != len(src) {
			t.Fatalf("copy %d: %d bytes (cap %d), want the %d given", i, len(got), cap(got), len(src))
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(got))); p&15 != 0 {
			t.Fatalf("copy %d at %#x: not 16-byte aligned", i, p)
		}
	}
	// every copy after the first, none longer than it, lands in the same storage
	first := unsafe.SliceData(a.buf)
	a.Copy(long[:10])
	if unsafe.SliceData(a.buf) != first {
		t.Fatal("a shorter copy allocated a new buffer")
	}
	if n := testing.AllocsPerRun(100, func() { a.Copy(long) }); n != 0 {
		t.Fatalf("%v allocations per copy into a buffer that fits", n)
	}
	a.Copy(append(long, long...))
	if unsafe.SliceData(a.buf) == first {
		t.Fatal("a longer copy did not grow the buffer")
	}
}
