package hash

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// MaxDepth bounds the recursion of the harness's own tree walks. Go's stacks grow on demand (up
// to 1 GB by default), so a recursive walk of a document nested 100,000 deep is fine; deeper than
// MaxDepth is refused as a limit of the harness's own code (exit 6, spec/protocol.md), never a
// stack overflow.
const MaxDepth = 200_000

// LimitError is an input beyond a limit of the harness's own code (exit 6), not a library's.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }

// TooDeep is the LimitError of a document nested deeper than limit containers.
func TooDeep(limit int) *LimitError {
	return &LimitError{fmt.Sprintf("nested deeper than %d containers (the limit of the harness's tree walk)", limit)}
}

var errDepth = TooDeep(MaxDepth)

// IsLimit tells whether err is (or wraps) a LimitError.
func IsLimit(err error) bool {
	var l *LimitError
	return errors.As(err, &l)
}

// Any is the tree form of the hash over a Go value as the Go libraries decode schemaless data:
// nil, bool, every integer and float type, string, []byte, json.Number, []any, map[string]any and
// map[any]any with string keys. The hash-walk reference (never subtracted) walks the harness's own
// tree through it as tree rows walk theirs; the hash-object baseline uses Flat, its cheapest walk.
func Any(v any) (uint64, error) { return anyAt(v, 0) }

func anyAt(v any, depth int) (uint64, error) {
	switch x := v.(type) {
	case nil:
		return NullHash, nil
	case bool:
		return Bool(x), nil
	case int64:
		return I64(x), nil
	case uint64:
		return U64(x), nil
	case float64:
		return F64(x), nil
	case string:
		return Str(x), nil
	case []any:
		if depth >= MaxDepth {
			return 0, errDepth
		}
		var a uint64
		for i, e := range x {
			h, err := anyAt(e, depth+1)
			if err != nil {
				return 0, err
			}
			a += ArrayTerm(uint64(i), h)
		}
		return ArrayEnd(a, uint64(len(x))), nil
	case map[string]any:
		if depth >= MaxDepth {
			return 0, errDepth
		}
		var s uint64
		for k, e := range x {
			h, err := anyAt(e, depth+1)
			if err != nil {
				return 0, err
			}
			s += MapTerm(Str(k), h)
		}
		return MapEnd(s, uint64(len(x))), nil
	case []byte:
		return Bin(x), nil
	case json.Number:
		return Number(string(x))
	case int:
		return I64(int64(x)), nil
	case int8:
		return I64(int64(x)), nil
	case int16:
		return I64(int64(x)), nil
	case int32:
		return I64(int64(x)), nil
	case uint:
		return U64(uint64(x)), nil
	case uint8:
		return U64(uint64(x)), nil
	case uint16:
		return U64(uint64(x)), nil
	case uint32:
		return U64(uint64(x)), nil
	case float32:
		// a float32 is exactly representable as a float64; a library that narrowed a double to
		// float32 changed its bits, and the hash shows it
		return F64(float64(x)), nil
	case map[any]any:
		if depth >= MaxDepth {
			return 0, errDepth
		}
		var s uint64
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return 0, fmt.Errorf("map key of Go type %T is not a string (outside the data model)", k)
			}
			h, err := anyAt(e, depth+1)
			if err != nil {
				return 0, err
			}
			s += MapTerm(Str(ks), h)
		}
		return MapEnd(s, uint64(len(x))), nil
	default:
		return 0, fmt.Errorf("value of Go type %T is outside the data model", v)
	}
}

// Number hashes a JSON number's text as the data model reads it: an integer when it has no
// fraction and no exponent (within int64/uint64), else a float64 (correctly rounded).
func Number(s string) (uint64, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return I64(i), nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return U64(u), nil
		}
		return 0, fmt.Errorf("integer %s is outside int64/uint64", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("number %s: %v", s, err)
	}
	return F64(f), nil
}

// NumberBytes is Number over the bytes of a number's text, without copying them.
func NumberBytes(b []byte) (uint64, error) {
	return Number(unsafe.String(unsafe.SliceData(b), len(b)))
}
