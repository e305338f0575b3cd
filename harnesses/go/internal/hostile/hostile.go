// Package hostile builds documents that test the harness's robustness (used by the tests):
// nesting far deeper than any library's limit, in every format the reference decoders read.
package hostile

import (
	"bytes"
	"encoding/binary"
)

// Deep is {"a": X} where X is depth nested arrays around [1, "x"] (maps false), or depth nested
// maps {"a": ...} around {"b": 1} (maps true), in format f.
func Deep(f string, depth int, maps bool) []byte {
	var b bytes.Buffer
	switch f {
	case "json", "json-pretty":
		b.WriteString(`{"a":`)
		for i := 0; i < depth; i++ {
			if maps {
				b.WriteString(`{"a":`)
			} else {
				b.WriteByte('[')
			}
		}
		if maps {
			b.WriteString(`{"b":1}`)
		} else {
			b.WriteString(`[1,"x"]`)
		}
		for i := 0; i < depth; i++ {
			if maps {
				b.WriteByte('}')
			} else {
				b.WriteByte(']')
			}
		}
		b.WriteByte('}')
	case "msgpack", "cbor":
		mp := f == "msgpack"
		head := map[bool][3]byte{true: {0x81, 0xa1, 'a'}, false: {0xa1, 0x61, 'a'}}[mp]
		b.Write(head[:])
		for i := 0; i < depth; i++ {
			if maps {
				b.Write(head[:])
			} else if mp {
				b.WriteByte(0x91)
			} else {
				b.WriteByte(0x81)
			}
		}
		switch {
		case maps && mp:
			b.Write([]byte{0x81, 0xa1, 'b', 0x01})
		case maps:
			b.Write([]byte{0xa1, 0x61, 'b', 0x01})
		case mp:
			b.Write([]byte{0x92, 0x01, 0xa1, 'x'})
		default:
			b.Write([]byte{0x82, 0x01, 0x61, 'x'})
		}
	case "bson":
		// each level is a length, one element header (type, one-letter key, NUL), the level
		// inside it and a terminator: 8 bytes more than the level inside, so every length is known
		// up front and the document is written outside in, in linear time
		var inner []byte
		if maps {
			inner = doc([]byte{0x10, 'b', 0}, le32(1))
		} else {
			inner = doc([]byte{0x10, '0', 0}, le32(1), []byte{0x02, '1', 0}, le32(2), []byte{'x', 0})
		}
		ty, key := byte(0x04), byte('0')
		if maps {
			ty, key = 0x03, 'a'
		}
		// the root {"a": level depth}, then levels depth..1, each holding the next under key
		b.Write(le32(int32(len(inner) + 8*(depth+1))))
		b.Write([]byte{ty, 'a', 0})
		for i := depth; i >= 1; i-- {
			b.Write(le32(int32(len(inner) + 8*i)))
			b.Write([]byte{ty, key, 0})
		}
		b.Write(inner)
		b.Write(make([]byte, depth+1))
	}
	return b.Bytes()
}

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }

func doc(parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	out := le32(int32(len(body) + 5))
	out = append(out, body...)
	return append(out, 0)
}
