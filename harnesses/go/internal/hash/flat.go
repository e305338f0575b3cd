package hash

import (
	"encoding/binary"
	"fmt"
	"math"
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
// x1 = seed and x2 = P0 ^ 8, which gives mum(payload ^ seed, P0). Which words and constants is a
// table look-up and masks, never a branch: on the corpus's mixed types a branch on scalar-or-string
// mispredicts (docs/methodology.md, "Fewer branches per value"). Rows hash their scalars with U64
// and the like and their strings with Bytes: the same mum.
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
// when it is an empty or long string or binary. Out of line (over the inliner's budget): for
// HashEvents, which calls the hasher for every value anyway, and for a root that is a leaf.
func (d *Flat) leaf(x flatNode) uint64 {
	c := &flatLeaf[x.tag&15]
	n := uint64(x.count)&c.str | c.n
	if n-1 >= 16 {
		return d.bytesOf(x)
	}
	w := (*[16]byte)(d.bytes[x.payload&c.str:])
	m := &mask16[n&31]
	lo := (binary.LittleEndian.Uint64(w[:8])&c.str | x.payload&^c.str) & m[0]
	return Mum(lo^c.x1, binary.LittleEndian.Uint64(w[8:])&m[1]^n^c.x2)
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

// FlatFrame is one open container of Flat.Hash.
type FlatFrame struct {
	acc, n, i, key uint64
	isMap          bool
}

// Hash is the object hash of the document (tree form), iteratively: the open container's frame
// lives in locals, arrays and maps have their own loops, and the only per-node decisions are scalar
// word, bytes or container, and whether the container has ended. st holds the parents: grown
// to the document's depth on the first call, then reused, so later calls never allocate. The same
// walk as the native harness's hash_doc (common/ref.cpp) and the Rust harness's hash_flat.
func (d *Flat) Hash(st *[]FlatFrame) uint64 {
	nodes, pool := d.nodes, d.bytes
	if len(nodes) == 0 {
		return 0 // not a document; Flatten never makes one
	}
	root := nodes[0]
	if root.tag < flatArray {
		return d.leaf(root)
	}
	if root.count == 0 {
		return emptyContainer(root)
	}
	if cap(*st) < d.maxDepth {
		*st = make([]FlatFrame, 0, d.maxDepth)
	}
	stack := (*st)[:0] // holds at most maxDepth-1 parents: append never reallocates
	f := FlatFrame{n: uint64(root.count), isMap: root.tag == flatMap}
	i := 1
	for {
		// the children of f until one is a non-empty container (opened) or f ends. The leaf is
		// written out in both loops: as a function it is over the Go inliner's budget, and a call
		// per value costs more (every register is the caller's to save). A scalar, or a string of
		// 1 to 16 bytes, is one mum (flatLeaf); its 16 bytes are read from the pool, which Flatten
		// pads, so no page check; a scalar reads 16 bytes of the pool and masks them off. Other
		// strings (n = 0 or more than 16) and containers (n = 0) leave the leaf's path.
		opened := false
		if f.isMap {
			for f.i < f.n {
				k := nodes[i]
				f.key = Bytes(seedStr, pool[k.payload:k.payload+uint64(k.count)])
				x := nodes[i+1]
				c := &flatLeaf[x.tag&15]
				n := uint64(x.count)&c.str | c.n
				w := (*[16]byte)(pool[x.payload&c.str:])
				m := &mask16[n&31]
				lo := (binary.LittleEndian.Uint64(w[:8])&c.str | x.payload&^c.str) & m[0]
				h := Mum(lo^c.x1, binary.LittleEndian.Uint64(w[8:])&m[1]^n^c.x2)
				if n-1 < 16 { // the leaf was one mum
				} else if x.tag < flatArray {
					h = d.bytesOf(x)
				} else if x.count != 0 {
					i++
					opened = true
					break
				} else {
					h = emptyContainer(x)
				}
				i += 2
				f.acc += MapTerm(f.key, h)
				f.i++
			}
		} else {
			for f.i < f.n {
				x := nodes[i]
				c := &flatLeaf[x.tag&15]
				n := uint64(x.count)&c.str | c.n
				w := (*[16]byte)(pool[x.payload&c.str:])
				m := &mask16[n&31]
				lo := (binary.LittleEndian.Uint64(w[:8])&c.str | x.payload&^c.str) & m[0]
				h := Mum(lo^c.x1, binary.LittleEndian.Uint64(w[8:])&m[1]^n^c.x2)
				if n-1 < 16 { // the leaf was one mum
				} else if x.tag < flatArray {
					h = d.bytesOf(x)
				} else if x.count != 0 {
					opened = true
					break
				} else {
					h = emptyContainer(x)
				}
				i++
				f.acc += ArrayTerm(f.i, h)
				f.i++
			}
		}
		if opened {
			x := nodes[i]
			i++
			stack = append(stack, f)
			f = FlatFrame{n: uint64(x.count), isMap: x.tag == flatMap}
			continue
		}
		var h uint64
		if f.isMap {
			h = MapEnd(f.acc, f.n)
		} else {
			h = ArrayEnd(f.acc, f.n)
		}
		if len(stack) == 0 {
			return h
		}
		f = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.isMap {
			f.acc += MapTerm(f.key, h)
		} else {
			f.acc += ArrayTerm(f.i, h)
		}
		f.i++
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
	nodes, pool := d.nodes, d.bytes
	if cap(*st) < d.maxDepth {
		*st = make([]EventFrame, 0, d.maxDepth)
	}
	stack := (*st)[:0]
	// the root is the value of a pseudo-container of one value, which has no close
	f := EventFrame{left: uint32(min(len(nodes), 1))}
	for i := 0; ; i++ {
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
			k := nodes[i]
			if err := s.Key(Bytes(seedStr, pool[k.payload:k.payload+uint64(k.count)])); err != nil {
				return 0, err
			}
			i++
		}
		x := nodes[i]
		if x.tag < flatArray {
			if err := s.Emit(d.leaf(x)); err != nil {
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
