package hash

import "errors"

const (
	kindRoot uint8 = iota
	kindArray
	kindMap
)

// frame is one open container (or the root below them), in the form of the native harness's
// sb_frame (common/objhash.h): an array's and a map's terms are one expression, Mum(h^c1,
// (n&amask)^kx), ArrayTerm(n, h) with c1 = P1, amask = all ones, kx = P2 and MapTerm(key, h) with
// c1 = P0, amask = 0, kx = key^P3, so that Emit fits Go's inliner budget (docs/studies/go-streaming-hash.md,
// "Go's streaming hash").
type frame struct {
	acc    uint64 // an array's or a map's sum; the root's hash
	n      uint64
	amask  uint64
	kx     uint64
	c1     uint64
	kind   uint8
	hasKey bool
}

var (
	arrayFrame = frame{amask: ^uint64(0), kx: P2, c1: P1, kind: kindArray}
	mapFrame   = frame{kx: P3, c1: P0, kind: kindMap}
)

// inlineParents is how many parents a Stream holds in itself, before any heap: the corpus nests
// 11 deep at most.
const inlineParents = 16

// Stream computes the hash from parse events, without a tree (spec/hash.md, "Streaming form").
// The open container is kept apart from its parents (top), so a scalar event updates it in place;
// its parents are pushed and popped only when a container opens or closes, the first
// inlineParents of them in the Stream itself and the rest on the heap (iterative: any depth). A
// row makes its Stream per operation (`var s hash.Stream`, on the stack); a parents slice alone
// grew by append in each, so every Go incremental row's operation made one to four allocations of
// the harness's (its count and its time), which the hash-events baseline, reusing one Stream, did
// not (spec/fairness.md version 8; docs/studies/rust-input-copy.md, "Rust's input copy").
type Stream struct {
	top    frame
	depth  int // parents: inline[:min(depth, inlineParents)], then more
	inline [inlineParents]frame
	more   []frame
}

var (
	errNoKey     = errors.New("map value without a key")
	errTwoRoots  = errors.New("more than one root value")
	errKey       = errors.New("key outside a map, or two keys in a row")
	errClose     = errors.New("close without an open container")
	errKeyNoVal  = errors.New("map closed after a key without a value")
	errIncomplet = errors.New("document is incomplete")
)

// Reset empties the hasher for a new document, keeping its stack's memory.
func (s *Stream) Reset() {
	s.top = frame{}
	s.depth = 0
	s.more = s.more[:0]
}

// Emit feeds a scalar's (or a finished container's) hash. Inlined (cost 78 of Go's 80): a call
// per event cost more than the event (every register is the caller's to save). hasKey is only ever
// set in a map (Key), so the first test is "an array, or a map after its key".
func (s *Stream) Emit(h uint64) error {
	f := &s.top
	if f.kind == kindArray || f.hasKey {
		f.hasKey = false
		f.acc += Mum(h^f.c1, (f.n&f.amask)^f.kx)
		f.n++
		return nil
	}
	if f.kind == kindMap {
		return errNoKey
	}
	if f.n != 0 {
		return errTwoRoots
	}
	f.acc, f.n = h, 1
	return nil
}

// push makes top a parent.
func (s *Stream) push() {
	if s.depth < inlineParents {
		s.inline[s.depth] = s.top
	} else {
		s.more = append(s.more, s.top)
	}
	s.depth++
}

// StartArray opens an array.
func (s *Stream) StartArray() {
	s.push()
	s.top = arrayFrame
}

// StartMap opens a map.
func (s *Stream) StartMap() {
	s.push()
	s.top = mapFrame
}

// Key feeds a map key's hash (see Str).
func (s *Stream) Key(k uint64) error {
	if s.top.kind != kindMap || s.top.hasKey {
		return errKey
	}
	s.top.kx, s.top.hasKey = k^P3, true
	return nil
}

// ExpectsKey tells whether the innermost open container is a map waiting for a key.
func (s *Stream) ExpectsKey() bool { return s.top.kind == kindMap && !s.top.hasKey }

// InMap tells whether the innermost open container is a map.
func (s *Stream) InMap() bool { return s.top.kind == kindMap }

// Depth is the number of open containers.
func (s *Stream) Depth() int { return s.depth }

// End closes the innermost container and feeds its hash to its parent.
func (s *Stream) End() error {
	f := s.top
	var h uint64
	switch {
	case f.kind == kindRoot:
		return errClose
	case f.hasKey:
		return errKeyNoVal
	case f.kind == kindArray:
		h = ArrayEnd(f.acc, f.n)
	default:
		h = MapEnd(f.acc, f.n)
	}
	// the root frame is a parent of every container, so depth > 0 here
	s.depth--
	if s.depth < inlineParents {
		s.top = s.inline[s.depth]
	} else {
		s.top = s.more[len(s.more)-1]
		s.more = s.more[:len(s.more)-1]
	}
	return s.Emit(h)
}

// Value is the document's hash once its root is complete.
func (s *Stream) Value() (uint64, error) {
	if s.top.kind == kindRoot && s.top.n == 1 {
		return s.top.acc, nil
	}
	return 0, errIncomplet
}
