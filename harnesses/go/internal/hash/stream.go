package hash

import "errors"

const (
	kindRoot uint8 = iota
	kindArray
	kindMap
)

type frame struct {
	acc    uint64 // an array's or a map's sum; the root's hash
	n      uint64
	key    uint64
	kind   uint8
	hasKey bool
}

// Stream computes the hash from parse events, without a tree (spec/hash.md, "Streaming form").
// The open container is kept apart from its parents (top), so a scalar event updates it in place;
// the parents slice grows only when a container opens (iterative: any depth costs heap).
type Stream struct {
	top     frame
	parents []frame
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
	s.parents = s.parents[:0]
}

// Emit feeds a scalar's (or a finished container's) hash.
func (s *Stream) Emit(h uint64) error {
	f := &s.top
	switch f.kind {
	case kindArray:
		f.acc += ArrayTerm(f.n, h)
	case kindMap:
		if !f.hasKey {
			return errNoKey
		}
		f.hasKey = false
		f.acc += MapTerm(f.key, h)
	default:
		if f.n != 0 {
			return errTwoRoots
		}
		f.acc = h
	}
	f.n++
	return nil
}

// StartArray opens an array.
func (s *Stream) StartArray() {
	s.parents = append(s.parents, s.top)
	s.top = frame{kind: kindArray}
}

// StartMap opens a map.
func (s *Stream) StartMap() {
	s.parents = append(s.parents, s.top)
	s.top = frame{kind: kindMap}
}

// Key feeds a map key's hash (see Str).
func (s *Stream) Key(k uint64) error {
	if s.top.kind != kindMap || s.top.hasKey {
		return errKey
	}
	s.top.key, s.top.hasKey = k, true
	return nil
}

// ExpectsKey tells whether the innermost open container is a map waiting for a key.
func (s *Stream) ExpectsKey() bool { return s.top.kind == kindMap && !s.top.hasKey }

// InMap tells whether the innermost open container is a map.
func (s *Stream) InMap() bool { return s.top.kind == kindMap }

// Depth is the number of open containers.
func (s *Stream) Depth() int { return len(s.parents) }

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
	s.top = s.parents[len(s.parents)-1]
	s.parents = s.parents[:len(s.parents)-1]
	return s.Emit(h)
}

// Value is the document's hash once its root is complete.
func (s *Stream) Value() (uint64, error) {
	if s.top.kind == kindRoot && s.top.n == 1 {
		return s.top.acc, nil
	}
	return 0, errIncomplet
}
