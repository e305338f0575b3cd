package hash

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// Flat is the harness's document as a flat pre-order array of nodes, for the hash-object baseline
// (spec/fairness.md rule 5): the baseline does the hash's work and the least walk any tree needs,
// so the type dispatch a row spends reading its library's tree stays in the row's net time. A
// container's children follow it; a map's entries are (key, value) node pairs. Neither slice holds
// a pointer, so the collector never scans them. The same layout as the native harness's Doc and
// the Rust harness's FlatDoc.
type Flat struct {
	nodes    []flatNode
	bytes    []byte // every string's and binary's bytes, one after another
	maxDepth int    // open containers at the deepest point (the root container is 1)
}

type flatNode struct {
	payload uint64 // a scalar's 64-bit payload, or the offset of its bytes in Flat.bytes
	count   uint32 // children (array), entries (map) or byte length (string, binary)
	tag     uint8  // null, false, true, uint, negint, float, string, binary, array, map
}

// a node is 16 bytes, which leafWords reads whole from a scalar's node: this fails to compile if not
var _ = [1]struct{}{}[unsafe.Sizeof(flatNode{})-16]

const (
	flatFloat uint8 = 5
	flatStr   uint8 = 6
	flatBin   uint8 = 7
	flatArray uint8 = 8
	flatMap   uint8 = 9
)

// flatSeed is the seed each flat tag's leaf is mixed with: every scalar is mum(payload ^ seed, P0)
// (true is scalar(BOOL, 1) = payload 0 with seed S(BOOL) ^ 1), a string or binary hashes its
// bytes with its seed.
var flatSeed = [8]uint64{
	Seed(TagNull), Seed(TagBool), Seed(TagBool) ^ 1, Seed(TagUint),
	Seed(TagNegInt), Seed(TagFloat), Seed(TagString), Seed(TagBinary),
}

// leafConst holds, by flat tag, what makes a scalar and a short string the same instructions in
// Hash's loops (the native harness's kLeafConst, sb.h): both are mum(w0 ^ x1, w1 ^ n ^ x2) over two
// masked words. A string's words are its first 16 bytes in the pool, n its length, x1 = P1 and x2 =
// seed ^ P2 (Bytes' short path); a scalar's are its payload and nothing (n = 8 masks w1 to 0), with
// x1 = seed and x2 = P0 ^ 8, which gives mum(payload ^ seed, P0). The constants and n are a table
// look-up and masks; which words, a branch in Go (leafWords says why). Rows hash their scalars with
// U64 and the like and their strings with Bytes: the same mum.
type leafConst struct {
	x1, x2 uint64
	str    uint64 // all ones for a string or binary (its count is its length, its payload an offset)
	n      uint64 // 8 for a scalar
}

// flatLeaf has 16 entries, indexed by tag&15, so the index needs no bounds check; a container's entry
// is all zero, so its n is 0 and the loops take it out of the leaf's path.
var flatLeaf = func() (c [16]leafConst) {
	for t := range flatArray {
		if t <= flatFloat {
			c[t] = leafConst{x1: flatSeed[t], x2: P0 ^ 8, n: 8}
		} else {
			c[t] = leafConst{x1: P1, x2: flatSeed[t] ^ P2, str: ^uint64(0)}
		}
	}
	return
}()

var (
	emptyArray = ArrayEnd(0, 0)
	emptyMap   = MapEnd(0, 0)
)

// Flatten flattens a tree of the harness's own types (refdec's output), iteratively: any depth
// costs heap, never stack.
func Flatten(v any) (*Flat, error) {
	d := &Flat{}
	// what is left to write, last first: a value with its depth, or a map key (isKey)
	type item struct {
		v     any
		key   string
		depth int
		isKey bool
	}
	todo := []item{{v: v}}
	for len(todo) > 0 {
		it := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if it.isKey {
			if err := pushBytes(d, flatStr, it.key); err != nil {
				return nil, err
			}
			continue
		}
		var n flatNode
		switch x := it.v.(type) {
		case nil:
			n.tag = 0
		case bool:
			n.tag = 1
			if x {
				n.tag = 2
			}
		case int64:
			n.tag, n.payload = 3, uint64(x)
			if x < 0 {
				n.tag = 4
			}
		case uint64:
			n.tag, n.payload = 3, x
		case float64:
			n.tag, n.payload = flatFloat, math.Float64bits(x)
		case string:
			if err := pushBytes(d, flatStr, x); err != nil {
				return nil, err
			}
			continue
		case []byte:
			if err := pushBytes(d, flatBin, x); err != nil {
				return nil, err
			}
			continue
		case []any:
			for i := len(x) - 1; i >= 0; i-- {
				todo = append(todo, item{v: x[i], depth: it.depth + 1})
			}
			n.tag, n.count = flatArray, uint32(len(x))
		case map[string]any:
			// any entry order: the map's sum is commutative; a key comes just before its value
			for k, e := range x {
				todo = append(todo, item{v: e, depth: it.depth + 1}, item{key: k, isKey: true})
			}
			n.tag, n.count = flatMap, uint32(len(x))
		default:
			return nil, fmt.Errorf("value of Go type %T is not of the harness's tree", it.v)
		}
		if n.tag >= flatArray {
			d.maxDepth = max(d.maxDepth, it.depth+1)
		}
		d.nodes = append(d.nodes, n)
	}
	// 16 bytes past the last string, so that Hash reads 16 bytes at any string's start
	d.bytes = append(d.bytes, make([]byte, 16)...)
	// room for one node past the last, so that Hash's pointer to the next node never leaves the
	// array's allocation (next)
	d.nodes = slices.Grow(d.nodes, 1)
	return d, nil
}

func pushBytes[T string | []byte](d *Flat, tag uint8, s T) error {
	if uint64(len(s)) > math.MaxUint32 {
		return &LimitError{fmt.Sprintf("a string or binary of %d bytes (the harness's flat document holds up to 4 GiB each)", len(s))}
	}
	d.nodes = append(d.nodes, flatNode{payload: uint64(len(d.bytes)), count: uint32(len(s)), tag: tag})
	d.bytes = append(d.bytes, s...)
	return nil
}

// leaf hashes a leaf node (tag below flatArray) with Hash's one-mum leaf (flatLeaf), or exactly
// when it is an empty or long string or binary. Out of line (over the inliner's budget): for a root
// that is a leaf.
func (d *Flat) leaf(x *flatNode) uint64 {
	c := &flatLeaf[x.tag&15]
	n := uint64(x.count)&c.str | c.n
	if n-1 >= 16 {
		return d.bytesOf(*x)
	}
	lo, hi := leafWords(x, unsafe.Pointer(unsafe.SliceData(d.bytes)))
	return leafMum(lo, hi, c, n)
}

// bytesOf hashes a string or binary node with its seed.
func (d *Flat) bytesOf(x flatNode) uint64 {
	return Bytes(flatSeed[x.tag&7], d.bytes[x.payload:x.payload+uint64(x.count)])
}

func emptyContainer(x flatNode) uint64 {
	if x.tag == flatMap {
		return emptyMap
	}
	return emptyArray
}

// FlatFrame is one open container of Flat.Hash, kept while a child container is open.
type FlatFrame struct {
	acc, n, i, key uint64
	isMap          bool
}

// next is the node after the one at p, as unsafe.Add(p, size of a node): Flatten leaves room for
// one node past the last (Flat.nodes' capacity), so a walk's pointer to the next node stays inside
// the array's allocation, which Go's rules for unsafe.Pointer require, even after the last node.
func next(p unsafe.Pointer, k uintptr) unsafe.Pointer {
	return unsafe.Add(p, k*unsafe.Sizeof(flatNode{}))
}

// keyX2 is seed(string) ^ P2, the constant of a key's one mum (Bytes' short path), written out so
// that Go puts it in the instruction rather than in a register (TestKeyX2IsTheStringSeedsConstant).
const keyX2 = 0x3bf0b0a867362e9d

// leafWords is the two words a leaf's one mum reads: a string's first 16 bytes in the pool, or a
// scalar node's own 16 bytes (its payload, then 8 bytes the mask takes off). Go compiles the if to
// a branch on scalar or string, where the C and Rust walks select without one; in Go the branch
// measured faster than selecting the words by arithmetic (0.94 of its time at size 4, and 7%
// fewer instructions: docs/studies/go-flat-walk.md, "Go's flat walk").
func leafWords(x *flatNode, pool unsafe.Pointer) (uint64, uint64) {
	w := unsafe.Pointer(x)
	if x.tag > flatFloat {
		w = unsafe.Add(pool, x.payload)
	}
	return binary.LittleEndian.Uint64((*[16]byte)(w)[:8]), binary.LittleEndian.Uint64((*[16]byte)(w)[8:])
}

// leafMum is the one mum of a leaf whose n (flatLeaf: its length, or 8 for a scalar) is 1 to 16,
// over its words (leafWords); the caller tests n, so that this has no call in it and Go inlines it
// into the walks' loops (with leafWords inside it would cost 86 of the inliner's 80).
func leafMum(lo, hi uint64, c *leafConst, n uint64) uint64 {
	m := &mask16[n&31]
	return Mum(lo&m[0]^c.x1, hi&m[1]^n^c.x2)
}

// keyMum is the hash of a key of n = 1 to 16 bytes (Bytes' short path) at off in the pool, read
// without a bounds check: Flatten pads the pool with 16 bytes past the last string, so the 16
// bytes lie inside it. The caller tests n, as for leafMum.
func keyMum(pool unsafe.Pointer, off, n uint64) uint64 {
	w := (*[16]byte)(unsafe.Add(pool, off))
	m := &mask16[n&31]
	return Mum(binary.LittleEndian.Uint64(w[:8])&m[0]^P1, binary.LittleEndian.Uint64(w[8:])&m[1]^n^keyX2)
}

// Hash is the object hash of the document (tree form), iteratively: the open container's frame
// lives in locals, arrays and maps have their own loops, and the only per-node decisions are scalar
// word, bytes or container, and whether the container has ended. st holds the parents: grown
// to the document's depth on the first call, then reused, so later calls never allocate. The same
// walk as the native harness's hash_doc (common/ref.cpp) and the Rust harness's hash_flat.
//
// Written for Go's compiler, which the C and Rust walks need not be (docs/studies/go-flat-walk.md, "Go's
// flat walk"): the open frame is five locals, not a FlatFrame (Go keeps a struct of more than four
// fields in memory, so each f.acc += was a load and a store per value); nodes and the pool's 16
// bytes are read through next, leafWords and keyMum, with no bounds check; a key of 1 to 16 bytes
// is hashed in the loop (Bytes is over the inliner's budget, and a call per entry spills every
// register).
func (d *Flat) Hash(st *[]FlatFrame) uint64 {
	nodes := d.nodes
	if len(nodes) == 0 {
		return 0 // not a document; Flatten never makes one
	}
	root := nodes[0]
	if root.tag < flatArray {
		return d.leaf(&nodes[0])
	}
	if root.count == 0 {
		return emptyContainer(root)
	}
	if cap(*st) < d.maxDepth {
		*st = make([]FlatFrame, 0, d.maxDepth)
	}
	*st = (*st)[:0] // holds at most maxDepth-1 parents: append never reallocates
	pool := unsafe.Pointer(unsafe.SliceData(d.bytes))
	// the open container: its sum, its count, the next child's index, the pending key, its kind
	acc, n, idx, key, isMap := uint64(0), uint64(root.count), uint64(0), uint64(0), root.tag == flatMap
	p := next(unsafe.Pointer(unsafe.SliceData(nodes)), 1) // the next node
	for {
		// the children of the open container until one is a non-empty container (opened) or it
		// ends. The leaf's test is written out in both loops, its one mum inlined (leafMum): a
		// whole leaf as a function is over the Go inliner's budget (a function with a call in it
		// always is), and a call per value costs more (every register is the caller's to save). A
		// scalar, or a string of 1 to 16 bytes, is one mum (flatLeaf) over 16 bytes: a string's in
		// the pool, a scalar's node's own (leafWords). Other strings (n = 0 or more than 16) and
		// containers (n = 0) leave the leaf's path.
		opened := false
		if isMap {
			// entries left, counted down: a map's terms need no index, so its count stays out
			// of the loop's registers
			left := n - idx
			for ; left != 0; left-- {
				k := (*flatNode)(p)
				if kn := uint64(k.count); kn-1 < 16 {
					key = keyMum(pool, k.payload, kn)
				} else {
					key = d.bytesOf(*k)
				}
				x := (*flatNode)(next(p, 1))
				c := &flatLeaf[x.tag&15]
				var h uint64
				if xn := uint64(x.count)&c.str | c.n; xn-1 < 16 { // the leaf is one mum
					lo, hi := leafWords(x, pool)
					h = leafMum(lo, hi, c, xn)
				} else if x.tag < flatArray {
					h = d.bytesOf(*x)
				} else if x.count != 0 {
					p = next(p, 1)
					opened = true
					break
				} else {
					h = emptyContainer(*x)
				}
				p = next(p, 2)
				acc += MapTerm(key, h)
			}
			idx = n - left
		} else {
			for idx < n {
				x := (*flatNode)(p)
				c := &flatLeaf[x.tag&15]
				var h uint64
				if xn := uint64(x.count)&c.str | c.n; xn-1 < 16 { // the leaf is one mum
					lo, hi := leafWords(x, pool)
					h = leafMum(lo, hi, c, xn)
				} else if x.tag < flatArray {
					h = d.bytesOf(*x)
				} else if x.count != 0 {
					opened = true
					break
				} else {
					h = emptyContainer(*x)
				}
				p = next(p, 1)
				acc += ArrayTerm(idx, h)
				idx++
			}
		}
		// the parents are reached through st, not a local slice, so that its header is not live
		// (and reloaded by Go's register allocator) in the loops above
		if opened {
			x := (*flatNode)(p)
			p = next(p, 1)
			*st = append(*st, FlatFrame{acc: acc, n: n, i: idx, key: key, isMap: isMap})
			acc, n, idx, isMap = 0, uint64(x.count), 0, x.tag == flatMap
			continue
		}
		var h uint64
		if isMap {
			h = MapEnd(acc, n)
		} else {
			h = ArrayEnd(acc, n)
		}
		top := len(*st) - 1
		if top < 0 {
			return h
		}
		f := (*st)[top]
		*st = (*st)[:top]
		acc, n, idx, key, isMap = f.acc, f.n, f.i, f.key, f.isMap
		if isMap {
			acc += MapTerm(key, h)
		} else {
			acc += ArrayTerm(idx, h)
		}
		idx++
	}
}

// EventFrame is one open container of Flat.HashEvents: its values still to come, and whether it is
// a map.
type EventFrame struct {
	left  uint32
	isMap bool
}

// HashEvents is the streaming form of the hash over the document: the hash-events baseline. It
// feeds s what a pull parser's row feeds it (a key's hash, a value's hash, a container's open and
// close) in document order, through the cheapest walk: pre-order over the node array, a map's
// entries as (key, value) node pairs, the open container's count of values still to come in a
// local and its parents on st (grown to the document's depth on the first call, then reused). No
// switch on a value's type: a row's dispatch on its parser's token is its own cost
// (spec/fairness.md rule 5). The native harness's hash_doc_events (common/ref.cpp).
func (d *Flat) HashEvents(s *Stream, st *[]EventFrame) (uint64, error) {
	s.Reset()
	if cap(*st) < d.maxDepth {
		*st = make([]EventFrame, 0, d.maxDepth)
	}
	stack := (*st)[:0]
	pool := unsafe.Pointer(unsafe.SliceData(d.bytes))
	p := unsafe.Pointer(unsafe.SliceData(d.nodes)) // the next node (next says why it may pass the last)
	// the root is the value of a pseudo-container of one value, which has no close
	f := EventFrame{left: uint32(min(len(d.nodes), 1))}
	for {
		for f.left == 0 {
			if len(stack) == 0 {
				return s.Value()
			}
			if err := s.End(); err != nil {
				return 0, err
			}
			f = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		f.left--
		if f.isMap {
			k := (*flatNode)(p)
			var key uint64
			if n := uint64(k.count); n-1 < 16 { // Bytes' short path, as in Hash
				key = keyMum(pool, k.payload, n)
			} else {
				key = d.bytesOf(*k)
			}
			if err := s.Key(key); err != nil {
				return 0, err
			}
			p = next(p, 1)
		}
		x := (*flatNode)(p)
		p = next(p, 1)
		// the leaf's one mum written out, as in Hash (d.leaf is a call per value)
		c := &flatLeaf[x.tag&15]
		if xn := uint64(x.count)&c.str | c.n; xn-1 < 16 {
			lo, hi := leafWords(x, pool)
			if err := s.Emit(leafMum(lo, hi, c, xn)); err != nil {
				return 0, err
			}
			continue
		}
		if x.tag < flatArray {
			if err := s.Emit(d.bytesOf(*x)); err != nil {
				return 0, err
			}
			continue
		}
		if x.tag == flatMap {
			s.StartMap()
		} else {
			s.StartArray()
		}
		stack = append(stack, f)
		f = EventFrame{left: x.count, isMap: x.tag == flatMap}
	}
}
