// Package refdec holds the reference decoders: what a file in each format means for this harness
// (the hash-data, hash-object and hash-events baselines, the input of write rows, and the check
// of a write row's output). A port of the Rust harness's refdec.rs, for the same two reasons:
//   - Iterative: containers are kept on a heap stack, so a document nested 100,000 deep decodes
//     without recursion.
//   - Strict: exactly the data model (spec/data-model.md) in each format; a root that is not a
//     map, truncation, trailing bytes, counts larger than the bytes left (checked before anything
//     is allocated), invalid UTF-8, NUL, duplicate keys, non-string keys, integers outside
//     int64/uint64, NaN and infinities, a BSON old binary (subtype 0x02) whose inner length is
//     wrong, and every type outside the model are rejected with the offset. The answers are those
//     of vectors/conformance/manifest.json, which selftest checks (main.go, conformance).
//
// The tree is the harness's own object: nil, bool, int64 (every integer that fits), uint64 (above
// INT64_MAX), float64, string, []byte, []any and map[string]any, i.e. what a Go program holds as
// schemaless data and gives to an encoder.
package refdec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"serbench/harnesses/go/internal/hash"
)

// Formats this harness reads with a reference decoder.
var Formats = []string{"json", "json-pretty", "msgpack", "cbor", "bson"}

// Decode decodes data in format f into the harness's tree, strictly.
func Decode(f string, data []byte) (any, error) { return DecodeWithin(f, data, 0) }

// DecodeWithin is Decode that refuses, as a limit of the harness (hash.LimitError, exit 6), a
// document nested deeper than maxDepth containers (0: no bound) before it has built a tree of it.
func DecodeWithin(f string, data []byte, maxDepth int) (any, error) {
	switch f {
	case "json", "json-pretty":
		return decodeJSON(data, maxDepth)
	case "msgpack":
		return decodeMsgpack(data, maxDepth)
	case "cbor":
		return decodeCBOR(data, maxDepth)
	case "bson":
		return decodeBSON(data, maxDepth)
	}
	return nil, fmt.Errorf("no reference decoder for format %s", f)
}

// Int is the harness's form of an int64: every integer that fits in int64 is an int64.
func Int(v int64) any { return v }

// Uint is the harness's form of a uint64: int64 when it fits, else uint64.
func Uint(v uint64) any {
	if v <= math.MaxInt64 {
		return int64(v)
	}
	return v
}

type frame struct {
	arr    []any
	m      map[string]any
	left   int64 // items or entries still to come; -1: closed by a marker
	key    string
	isMap  bool
	hasKey bool
}

type tree struct {
	maxDepth int // containers open at once beyond which the document is refused; 0: no bound
	stack    []frame
	root     any
	done     bool
}

func (t *tree) expectsKey() bool {
	n := len(t.stack)
	return n > 0 && t.stack[n-1].isMap && !t.stack[n-1].hasKey
}

func (t *tree) topIsMap() bool { return len(t.stack) > 0 && t.stack[len(t.stack)-1].isMap }

func (t *tree) open(isMap bool, left int64) error {
	if len(t.stack) == 0 && !isMap {
		return errRoot("an array") // said at its first byte, before a large array is read
	}
	if left == 0 {
		if isMap {
			return t.emit(map[string]any{})
		}
		return t.emit([]any{})
	}
	if t.maxDepth > 0 && len(t.stack) >= t.maxDepth {
		return hash.TooDeep(t.maxDepth)
	}
	f := frame{left: left, isMap: isMap}
	if isMap {
		f.m = map[string]any{}
	} else {
		f.arr = []any{}
	}
	t.stack = append(t.stack, f)
	return nil
}

func (t *tree) setKey(k string) error {
	if strings.IndexByte(k, 0) >= 0 {
		return errNUL
	}
	top := &t.stack[len(t.stack)-1]
	if _, dup := top.m[k]; dup {
		return fmt.Errorf("duplicate map key %s", show(k))
	}
	top.key, top.hasKey = k, true
	return nil
}

var errNUL = errors.New("NUL in a string or key (the data model has no NUL)")

// errRoot rejects a root that is not a map: the root of every document is a map
// (spec/data-model.md), so [1,2,3] or a lone scalar is outside the data model in every format.
func errRoot(what string) error {
	return fmt.Errorf("the root is %s, not a map (spec/data-model.md: the root of every document is a map)", what)
}

// kind names a value's type for an error message.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case int64, uint64:
		return "an integer"
	case float64:
		return "a float"
	case string:
		return "a string"
	case []byte:
		return "a binary"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// emit appends a finished value to the open container (closing it, and its parents, when their
// counts are reached), or makes it the root.
func (t *tree) emit(v any) error {
	if s, ok := v.(string); ok && strings.IndexByte(s, 0) >= 0 {
		return errNUL
	}
	for {
		n := len(t.stack)
		if n == 0 {
			if _, ok := v.(map[string]any); !ok {
				return errRoot(kind(v))
			}
			t.root, t.done = v, true
			return nil
		}
		top := &t.stack[n-1]
		if top.isMap {
			if !top.hasKey {
				return errors.New("map value without a key")
			}
			top.m[top.key] = v
			top.hasKey = false
		} else {
			top.arr = append(top.arr, v)
		}
		if top.left < 0 {
			return nil
		}
		top.left--
		if top.left > 0 {
			return nil
		}
		v = t.pop()
	}
}

func (t *tree) pop() any {
	f := t.stack[len(t.stack)-1]
	t.stack = t.stack[:len(t.stack)-1]
	if f.isMap {
		return f.m
	}
	return f.arr
}

// closeTop closes the innermost container (its end marker was read).
func (t *tree) closeTop() error {
	if len(t.stack) == 0 {
		return errors.New("close without an open container")
	}
	return t.emit(t.pop())
}

func (t *tree) finish() (any, error) {
	if len(t.stack) == 0 && t.done {
		return t.root, nil
	}
	return nil, errors.New("document is incomplete")
}

// show quotes a key for an error message, at most 40 characters.
func show(k string) string {
	r := []rune(k)
	if len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "..."
	}
	return strconv.Quote(k)
}

func finite(f float64, at int) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v at offset %d is not in the data model (floats are finite)", f, at)
	}
	return f, nil
}

// reader is a bounds-checked cursor over the input.
type reader struct {
	d []byte
	p int
}

func (r *reader) left() int { return len(r.d) - r.p }

func (r *reader) take(n uint64) ([]byte, error) {
	if n > uint64(r.left()) {
		return nil, fmt.Errorf("truncated: %d bytes needed at offset %d, %d left (a length larger than the input?)", n, r.p, r.left())
	}
	s := r.d[r.p : r.p+int(n)]
	r.p += int(n)
	return s, nil
}

func (r *reader) u8() (byte, error) {
	b, err := r.take(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (r *reader) be(n uint64) (uint64, error) {
	b, err := r.take(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, nil
}

func (r *reader) utf8(n uint64) (string, error) {
	at := r.p
	b, err := r.take(n)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("invalid UTF-8 in the string at offset %d", at)
	}
	return string(b), nil
}

// count checks that a container count fits in what is left, at min bytes per item.
func (r *reader) count(n, min uint64, at int) (int64, error) {
	hi, need := mul64(n, min)
	if hi != 0 || need > uint64(r.left()) {
		return 0, fmt.Errorf("the count %d at offset %d is larger than the %d bytes left", n, at, r.left())
	}
	return int64(n), nil
}

func mul64(a, b uint64) (uint64, uint64) {
	if a != 0 && b > math.MaxUint64/a {
		return 1, 0
	}
	return 0, a * b
}

// --- JSON (RFC 8259) ---------------------------------------------------------------------------

func ws(d []byte, p int) int {
	for p < len(d) && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r') {
		p++
	}
	return p
}

func eof(what string) error { return fmt.Errorf("truncated: the input ends inside %s", what) }

func decodeJSON(d []byte, maxDepth int) (any, error) {
	t := tree{maxDepth: maxDepth}
	p := 0
	for {
		// a value is expected
		p = ws(d, p)
		if p >= len(d) {
			return nil, eof("the document")
		}
		c := d[p]
		var err error
		switch {
		case c == '{':
			p = ws(d, p+1)
			if p < len(d) && d[p] == '}' {
				p++
				err = t.emit(map[string]any{})
			} else {
				if err = t.open(true, -1); err != nil {
					return nil, err
				}
				if p, err = jsonKey(d, p, &t); err != nil {
					return nil, err
				}
				continue
			}
		case c == '[':
			p = ws(d, p+1)
			if p < len(d) && d[p] == ']' {
				p++
				err = t.emit([]any{})
			} else {
				if err = t.open(false, -1); err != nil {
					return nil, err
				}
				continue
			}
		case c == '"':
			var s string
			if s, p, err = jsonString(d, p); err != nil {
				return nil, err
			}
			err = t.emit(s)
		case c == 't' || c == 'f' || c == 'n':
			word, v := "null", any(nil)
			if c == 't' {
				word, v = "true", true
			} else if c == 'f' {
				word, v = "false", false
			}
			if !strings.HasPrefix(string(d[p:min(len(d), p+5)]), word) {
				return nil, fmt.Errorf("invalid literal at offset %d", p)
			}
			p += len(word)
			err = t.emit(v)
		case c == '-' || (c >= '0' && c <= '9'):
			var v any
			if v, p, err = jsonNumber(d, p); err != nil {
				return nil, err
			}
			err = t.emit(v)
		default:
			return nil, fmt.Errorf("unexpected byte 0x%02x at offset %d", c, p)
		}
		if err != nil {
			return nil, err
		}
		// after a value: a comma, the end of its container, or the end of the input
	after:
		for {
			p = ws(d, p)
			if len(t.stack) == 0 {
				if p != len(d) {
					return nil, fmt.Errorf("trailing bytes after the document at offset %d", p)
				}
				return t.finish()
			}
			isMap := t.topIsMap()
			if p >= len(d) {
				if isMap {
					return nil, eof("an object")
				}
				return nil, eof("an array")
			}
			switch c := d[p]; {
			case c == ',':
				p++
				if isMap {
					if p, err = jsonKey(d, ws(d, p), &t); err != nil {
						return nil, err
					}
				}
				break after
			case c == ']' && !isMap, c == '}' && isMap:
				p++
				if err := t.closeTop(); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("unexpected byte 0x%02x at offset %d (',' or a close expected)", c, p)
			}
		}
	}
}

// jsonKey reads `"key" :` at p; returns the offset after the colon.
func jsonKey(d []byte, p int, t *tree) (int, error) {
	if p >= len(d) {
		return 0, eof("an object")
	}
	if d[p] != '"' {
		return 0, fmt.Errorf("unexpected byte 0x%02x at offset %d (a string key expected)", d[p], p)
	}
	k, q, err := jsonString(d, p)
	if err != nil {
		return 0, err
	}
	if err := t.setKey(k); err != nil {
		return 0, err
	}
	q = ws(d, q)
	if q >= len(d) {
		return 0, eof("an object")
	}
	if d[q] != ':' {
		return 0, fmt.Errorf("unexpected byte 0x%02x at offset %d (':' expected)", d[q], q)
	}
	return q + 1, nil
}

func hex4(d []byte, p int) (rune, error) {
	if p+4 > len(d) {
		return 0, eof("a \\u escape")
	}
	v, err := strconv.ParseUint(string(d[p:p+4]), 16, 32)
	if err != nil || strings.ContainsAny(string(d[p:p+4]), "+-_xX") {
		return 0, fmt.Errorf("invalid \\u escape at offset %d", p)
	}
	return rune(v), nil
}

// jsonString reads the string starting with the quote at p; returns it and the offset after
// the closing quote.
func jsonString(d []byte, p int) (string, int, error) {
	var out []byte
	i := p + 1
	for {
		start := i
		for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 {
			i++
		}
		out = append(out, d[start:i]...)
		if i >= len(d) {
			return "", 0, eof("a string")
		}
		switch c := d[i]; c {
		case '"':
			if !utf8.Valid(out) {
				return "", 0, fmt.Errorf("invalid UTF-8 in the string at offset %d", p)
			}
			return string(out), i + 1, nil
		case '\\':
			if i+1 >= len(d) {
				return "", 0, eof("a string")
			}
			e := d[i+1]
			i += 2
			var ch rune
			switch e {
			case '"':
				ch = '"'
			case '\\':
				ch = '\\'
			case '/':
				ch = '/'
			case 'b':
				ch = '\b'
			case 'f':
				ch = '\f'
			case 'n':
				ch = '\n'
			case 'r':
				ch = '\r'
			case 't':
				ch = '\t'
			case 'u':
				at := i - 2
				hi, err := hex4(d, i)
				if err != nil {
					return "", 0, err
				}
				i += 4
				switch {
				case hi >= 0xD800 && hi <= 0xDBFF:
					if i+2 > len(d) || d[i] != '\\' || d[i+1] != 'u' {
						return "", 0, fmt.Errorf("lone surrogate \\u%04x at offset %d (not UTF-8)", hi, at)
					}
					lo, err := hex4(d, i+2)
					if err != nil {
						return "", 0, err
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						return "", 0, fmt.Errorf("lone surrogate \\u%04x at offset %d (not UTF-8)", hi, at)
					}
					i += 6
					ch = 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
				case hi >= 0xDC00 && hi <= 0xDFFF:
					return "", 0, fmt.Errorf("lone surrogate \\u%04x at offset %d (not UTF-8)", hi, at)
				default:
					ch = hi
				}
			default:
				return "", 0, fmt.Errorf("invalid escape at offset %d", i-2)
			}
			out = utf8.AppendRune(out, ch)
		default:
			return "", 0, fmt.Errorf("unescaped control character 0x%02x in a string at offset %d", c, i)
		}
	}
}

func digits(d []byte, p int) int {
	for p < len(d) && d[p] >= '0' && d[p] <= '9' {
		p++
	}
	return p
}

// jsonNumber reads a number: an integer when it has no fraction and no exponent (within
// int64/uint64), else a float64 (correctly rounded by strconv; beyond the float64 range is
// rejected, an underflow reads as the nearest value, as Python's json and Rust's parse do).
func jsonNumber(d []byte, start int) (any, int, error) {
	bad := fmt.Errorf("invalid number at offset %d", start)
	neg := d[start] == '-'
	intStart := start
	if neg {
		intStart++
	}
	var p int
	switch {
	case intStart < len(d) && d[intStart] == '0':
		p = intStart + 1
	case intStart < len(d) && d[intStart] >= '1' && d[intStart] <= '9':
		p = digits(d, intStart+1)
	default:
		return nil, 0, bad
	}
	intEnd := p
	isFloat := false
	if p < len(d) && d[p] == '.' {
		q := digits(d, p+1)
		if q == p+1 {
			return nil, 0, bad
		}
		p, isFloat = q, true
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		p++
		if p < len(d) && (d[p] == '+' || d[p] == '-') {
			p++
		}
		q := digits(d, p)
		if q == p {
			return nil, 0, bad
		}
		p, isFloat = q, true
	}
	if isFloat {
		f, err := strconv.ParseFloat(string(d[start:p]), 64)
		if err != nil && (!errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0)) {
			return nil, 0, fmt.Errorf("the number at offset %d is beyond the float64 range", start)
		}
		return f, p, nil
	}
	var mag uint64
	for _, b := range d[intStart:intEnd] {
		if mag > (math.MaxUint64-uint64(b-'0'))/10 {
			return nil, 0, fmt.Errorf("the integer at offset %d is outside int64/uint64", start)
		}
		mag = mag*10 + uint64(b-'0')
	}
	switch {
	case !neg || mag == 0:
		return Uint(mag), p, nil
	case mag <= 1<<63:
		return int64(-mag), p, nil
	}
	return nil, 0, fmt.Errorf("the integer at offset %d is below INT64_MIN", start)
}

// --- MessagePack ---------------------------------------------------------------------------------

func decodeMsgpack(d []byte, maxDepth int) (any, error) {
	r := reader{d: d}
	t := tree{maxDepth: maxDepth}
	for !t.done {
		at := r.p
		m, err := r.u8()
		if err != nil {
			return nil, err
		}
		strLen := int64(-1)
		switch {
		case m >= 0xa0 && m <= 0xbf:
			strLen = int64(m & 0x1f)
		case m == 0xd9, m == 0xda, m == 0xdb:
			n, err := r.be(1 << (m - 0xd9))
			if err != nil {
				return nil, err
			}
			strLen = int64(n)
		}
		if strLen >= 0 {
			s, err := r.utf8(uint64(strLen))
			if err != nil {
				return nil, err
			}
			if t.expectsKey() {
				err = t.setKey(s)
			} else {
				err = t.emit(s)
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if t.expectsKey() {
			return nil, fmt.Errorf("the map key at offset %d is not a string", at)
		}
		var v any
		isValue := true
		switch {
		case m <= 0x7f:
			v = int64(m)
		case m >= 0xe0:
			v = int64(int8(m))
		case m == 0xc0:
			v = nil
		case m == 0xc2:
			v = false
		case m == 0xc3:
			v = true
		case m >= 0xc4 && m <= 0xc6:
			n, err := r.be(1 << (m - 0xc4))
			if err != nil {
				return nil, err
			}
			b, err := r.take(n)
			if err != nil {
				return nil, err
			}
			v = append([]byte{}, b...)
		case m == 0xca:
			x, err := r.be(4)
			if err != nil {
				return nil, err
			}
			if v, err = finite(float64(math.Float32frombits(uint32(x))), at); err != nil {
				return nil, err
			}
		case m == 0xcb:
			x, err := r.be(8)
			if err != nil {
				return nil, err
			}
			if v, err = finite(math.Float64frombits(x), at); err != nil {
				return nil, err
			}
		case m >= 0xcc && m <= 0xcf:
			x, err := r.be(1 << (m - 0xcc))
			if err != nil {
				return nil, err
			}
			v = Uint(x)
		case m >= 0xd0 && m <= 0xd3:
			size := uint64(1) << (m - 0xd0)
			x, err := r.be(size)
			if err != nil {
				return nil, err
			}
			shift := 64 - 8*size
			v = int64(x<<shift) >> shift
		case (m >= 0x80 && m <= 0x9f) || (m >= 0xdc && m <= 0xdf):
			isValue = false
			var isMap bool
			var n uint64
			switch {
			case m <= 0x8f:
				isMap, n = true, uint64(m&0x0f)
			case m <= 0x9f:
				n = uint64(m & 0x0f)
			case m == 0xdc || m == 0xdd:
				n, err = r.be(2 << (m - 0xdc))
			default:
				isMap = true
				n, err = r.be(2 << (m - 0xde))
			}
			if err != nil {
				return nil, err
			}
			per := uint64(1)
			if isMap {
				per = 2
			}
			c, err := r.count(n, per, at)
			if err != nil {
				return nil, err
			}
			if err := t.open(isMap, c); err != nil {
				return nil, err
			}
		case m == 0xc1:
			return nil, fmt.Errorf("byte 0xc1 at offset %d is never used in MessagePack", at)
		default:
			return nil, fmt.Errorf("the ext type at offset %d is not in the data model", at)
		}
		if isValue {
			if err := t.emit(v); err != nil {
				return nil, err
			}
		}
	}
	if r.left() != 0 {
		return nil, fmt.Errorf("trailing bytes after the document at offset %d", r.p)
	}
	return t.finish()
}

// --- CBOR (RFC 8949) -----------------------------------------------------------------------------

func f16(h uint16) float64 {
	exp := (h >> 10) & 0x1f
	mant := float64(h & 0x3ff)
	var mag float64
	switch {
	case exp == 0:
		mag = mant * math.Pow(2, -24)
	case exp == 31 && mant == 0:
		mag = math.Inf(1)
	case exp == 31:
		mag = math.NaN()
	default:
		mag = (mant + 1024) * math.Pow(2, float64(exp)-25)
	}
	if h&0x8000 != 0 {
		return -mag
	}
	return mag
}

// cborArg reads the argument of a head (indefinite: ok false).
func cborArg(r *reader, ai byte, at int) (uint64, bool, error) {
	switch {
	case ai <= 23:
		return uint64(ai), true, nil
	case ai <= 27:
		v, err := r.be(1 << (ai - 24))
		return v, true, err
	case ai == 31:
		return 0, false, nil
	}
	return 0, false, fmt.Errorf("reserved additional information %d at offset %d", ai, at)
}

// cborString reads a byte or text string whose head is already read: definite, or the definite
// chunks of an indefinite one (each text chunk valid UTF-8 on its own).
func cborString(r *reader, major byte, n uint64, definite bool, at int) ([]byte, error) {
	chunk := func(n uint64) ([]byte, error) {
		cAt := r.p
		b, err := r.take(n)
		if err != nil {
			return nil, err
		}
		if major == 3 && !utf8.Valid(b) {
			return nil, fmt.Errorf("invalid UTF-8 in the string at offset %d", cAt)
		}
		return b, nil
	}
	if definite {
		b, err := chunk(n)
		return append([]byte{}, b...), err
	}
	out := []byte{}
	for {
		cAt := r.p
		ib, err := r.u8()
		if err != nil {
			return nil, err
		}
		if ib == 0xff {
			return out, nil
		}
		if ib>>5 != major {
			return nil, fmt.Errorf("chunk of another type at offset %d in the indefinite string at %d", cAt, at)
		}
		n, def, err := cborArg(r, ib&31, cAt)
		if err != nil {
			return nil, err
		}
		if !def {
			return nil, fmt.Errorf("nested indefinite string at offset %d", cAt)
		}
		b, err := chunk(n)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
}

func decodeCBOR(d []byte, maxDepth int) (any, error) {
	r := reader{d: d}
	t := tree{maxDepth: maxDepth}
	for !t.done {
		at := r.p
		ib, err := r.u8()
		if err != nil {
			return nil, err
		}
		if ib == 0xff {
			// break: ends an indefinite-length container, a map between entries
			n := len(t.stack)
			if n == 0 || t.stack[n-1].left >= 0 || t.stack[n-1].hasKey {
				return nil, fmt.Errorf("unexpected break at offset %d", at)
			}
			if err := t.closeTop(); err != nil {
				return nil, err
			}
			continue
		}
		major, ai := ib>>5, ib&31
		arg, definite, err := cborArg(&r, ai, at)
		if err != nil {
			return nil, err
		}
		if major == 3 {
			b, err := cborString(&r, 3, arg, definite, at)
			if err != nil {
				return nil, err
			}
			if !utf8.Valid(b) {
				return nil, fmt.Errorf("invalid UTF-8 in the string at offset %d", at)
			}
			if t.expectsKey() {
				err = t.setKey(string(b))
			} else {
				err = t.emit(string(b))
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if t.expectsKey() {
			return nil, fmt.Errorf("the map key at offset %d is not a string", at)
		}
		needDef := func(what string) error {
			if !definite {
				return fmt.Errorf("%s at offset %d cannot have an indefinite length", what, at)
			}
			return nil
		}
		var v any
		isValue := true
		switch major {
		case 0:
			if err := needDef("an integer"); err != nil {
				return nil, err
			}
			v = Uint(arg)
		case 1:
			if err := needDef("an integer"); err != nil {
				return nil, err
			}
			if arg > math.MaxInt64 {
				return nil, fmt.Errorf("the integer at offset %d is below INT64_MIN", at)
			}
			v = -1 - int64(arg)
		case 2:
			if v, err = cborString(&r, 2, arg, definite, at); err != nil {
				return nil, err
			}
		case 4, 5:
			isValue = false
			isMap := major == 5
			n := int64(-1)
			if definite {
				per := uint64(1)
				if isMap {
					per = 2
				}
				if n, err = r.count(arg, per, at); err != nil {
					return nil, err
				}
			}
			if err := t.open(isMap, n); err != nil {
				return nil, err
			}
		case 6:
			return nil, fmt.Errorf("the tag at offset %d is not in the data model", at)
		default:
			switch ai {
			case 20:
				v = false
			case 21:
				v = true
			case 22:
				v = nil
			case 25:
				v, err = finite(f16(uint16(arg)), at)
			case 26:
				v, err = finite(float64(math.Float32frombits(uint32(arg))), at)
			case 27:
				v, err = finite(math.Float64frombits(arg), at)
			case 23:
				return nil, fmt.Errorf("undefined at offset %d is not in the data model", at)
			default:
				if !definite {
					return nil, fmt.Errorf("unexpected break at offset %d", at)
				}
				return nil, fmt.Errorf("the simple value at offset %d is not in the data model", at)
			}
			if err != nil {
				return nil, err
			}
		}
		if isValue {
			if err := t.emit(v); err != nil {
				return nil, err
			}
		}
	}
	if r.left() != 0 {
		return nil, fmt.Errorf("trailing bytes after the document at offset %d", r.p)
	}
	return t.finish()
}

// --- BSON 1.1 ------------------------------------------------------------------------------------

func leI32(d []byte, p int) int32 { return int32(binary.LittleEndian.Uint32(d[p:])) }

type doc struct {
	end   int   // offset of the document's terminating 0x00, from its length field
	index int64 // arrays: the next index, which must be the key; -1 for documents
}

func bsonTypeName(t byte) string {
	names := map[byte]string{0x06: "undefined", 0x07: "ObjectId", 0x09: "UTC datetime", 0x0B: "regex",
		0x0C: "DBPointer", 0x0D: "JavaScript code", 0x0E: "symbol", 0x0F: "code with scope",
		0x11: "timestamp", 0x13: "decimal128", 0x7F: "max key", 0xFF: "min key"}
	if n, ok := names[t]; ok {
		return fmt.Sprintf("BSON type %s (0x%02x)", n, t)
	}
	return fmt.Sprintf("unknown BSON type 0x%02x", t)
}

func decodeBSON(d []byte, maxDepth int) (any, error) {
	if len(d) < 5 {
		return nil, fmt.Errorf("truncated: a BSON document is at least 5 bytes, the input has %d", len(d))
	}
	n0 := leI32(d, 0)
	if n0 < 5 || int64(n0) != int64(len(d)) {
		return nil, fmt.Errorf("the document length field says %d (as unsigned %d), the input has %d bytes", n0, uint32(n0), len(d))
	}
	t := tree{maxDepth: maxDepth}
	docs := []doc{{end: len(d) - 1, index: -1}}
	_ = t.open(true, -1)
	p := 4
	for len(docs) > 0 {
		dc := &docs[len(docs)-1]
		end := dc.end
		at := p
		ty := d[p]
		if ty == 0 {
			if p != end {
				return nil, fmt.Errorf("document terminator at offset %d, but its length field puts the end at offset %d", p, end)
			}
			p++
			docs = docs[:len(docs)-1]
			if err := t.closeTop(); err != nil {
				return nil, err
			}
			continue
		}
		if p == end {
			return nil, fmt.Errorf("the document ending at offset %d is not terminated by 0x00", end)
		}
		k0 := p + 1
		nul := -1
		for i := k0; i < end; i++ {
			if d[i] == 0 {
				nul = i
				break
			}
		}
		if nul < 0 {
			return nil, fmt.Errorf("the key at offset %d runs past the end of its document", k0)
		}
		key := d[k0:nul]
		if dc.index >= 0 {
			if string(key) != strconv.FormatInt(dc.index, 10) {
				return nil, fmt.Errorf("array key at offset %d is not the index %d", k0, dc.index)
			}
			dc.index++
		} else {
			if !utf8.Valid(key) {
				return nil, fmt.Errorf("invalid UTF-8 in the key at offset %d", k0)
			}
			if err := t.setKey(string(key)); err != nil {
				return nil, err
			}
		}
		p = nul + 1
		room := end - p
		need := func(n int64) error {
			if n > int64(room) {
				return fmt.Errorf("truncated: the value at offset %d needs %d bytes, its document has %d left", p, n, room)
			}
			return nil
		}
		var v any
		var err error
		isValue := true
		switch ty {
		case 0x01:
			if err = need(8); err == nil {
				v, err = finite(math.Float64frombits(binary.LittleEndian.Uint64(d[p:])), p)
				p += 8
			}
		case 0x02:
			if err = need(4); err != nil {
				break
			}
			n := leI32(d, p)
			if n < 1 {
				err = fmt.Errorf("the string length %d at offset %d is invalid (at least 1, for its 0x00)", n, p)
				break
			}
			if err = need(4 + int64(n)); err != nil {
				break
			}
			s := d[p+4 : p+4+int(n)]
			if s[len(s)-1] != 0 {
				err = fmt.Errorf("the string at offset %d is not terminated by 0x00", p)
				break
			}
			if !utf8.Valid(s[:len(s)-1]) {
				err = fmt.Errorf("invalid UTF-8 in the string at offset %d", p)
				break
			}
			v = string(s[:len(s)-1])
			p += 4 + int(n)
		case 0x03, 0x04:
			isValue = false
			if err = need(4); err != nil {
				break
			}
			n := leI32(d, p)
			if n < 5 {
				err = fmt.Errorf("the document length %d at offset %d is invalid (at least 5)", n, p)
				break
			}
			if err = need(int64(n)); err != nil {
				break
			}
			array := ty == 0x04
			idx := int64(-1)
			if array {
				idx = 0
			}
			docs = append(docs, doc{end: p + int(n) - 1, index: idx})
			err = t.open(!array, -1)
			p += 4
		case 0x05:
			if err = need(5); err != nil {
				break
			}
			n := leI32(d, p)
			if n < 0 {
				err = fmt.Errorf("the binary length %d at offset %d is negative", n, p)
				break
			}
			if err = need(5 + int64(n)); err != nil {
				break
			}
			// every subtype is binary in the data model, its bytes (rule R7); only the old binary
			// (0x02, deprecated) wraps them: an int32 inner length, which must be the binary's
			// length minus 4 (bsonspec.org), then the bytes, which are the value
			b := d[p+5 : p+5+int(n)]
			if sub := d[p+4]; sub == 0x02 {
				if len(b) < 4 {
					err = fmt.Errorf("the old binary (subtype 0x02) at offset %d has %d bytes, too few for its int32 inner length", p, len(b))
					break
				}
				if inner := leI32(b, 0); int64(inner) != int64(len(b))-4 {
					err = fmt.Errorf("the old binary (subtype 0x02) at offset %d says its inner length is %d, but it holds %d bytes after it", p, inner, len(b)-4)
					break
				}
				b = b[4:]
			}
			v = append([]byte{}, b...)
			p += 5 + int(n)
		case 0x08:
			if err = need(1); err != nil {
				break
			}
			switch d[p] {
			case 0:
				v = false
			case 1:
				v = true
			default:
				err = fmt.Errorf("boolean byte 0x%02x at offset %d is neither 0 nor 1", d[p], p)
			}
			p++
		case 0x0A:
			v = nil
		case 0x10:
			if err = need(4); err == nil {
				v = int64(leI32(d, p))
				p += 4
			}
		case 0x12:
			if err = need(8); err == nil {
				v = int64(binary.LittleEndian.Uint64(d[p:]))
				p += 8
			}
		default:
			return nil, fmt.Errorf("%s at offset %d is not in the data model", bsonTypeName(ty), at)
		}
		if err != nil {
			return nil, err
		}
		if isValue {
			if err := t.emit(v); err != nil {
				return nil, err
			}
		}
	}
	return t.finish()
}
