//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_vmihailenco_msgpack)

package adapters

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"serbench/harnesses/go/internal/hash"
)

// github.com/vmihailenco/msgpack/v5.
func init() {
	Register(Bench{ID: "vmihailenco-msgpack-pull", Library: "vmihailenco/msgpack", Module: "github.com/vmihailenco/msgpack/v5",
		Formats:     Msgpack,
		Notes:       "pull API, no tree: Decoder.PeekCode, then DecodeMapLen / DecodeArrayLen / DecodeString / DecodeBytes / DecodeInt64 / DecodeUint64 / DecodeFloat64 ... into the streaming hash; a fresh NewDecoder over a bytes.Reader per operation",
		Incremental: vmihailencoPull,
	})
	Register(Bench{ID: "vmihailenco-msgpack", Library: "vmihailenco/msgpack", Module: "github.com/vmihailenco/msgpack/v5",
		Formats: Msgpack,
		Notes:   "reflection; tree: msgpack.Unmarshal into any (maps as map[string]any, integers in the width they were written); write: msgpack.Marshal of the map[string]any tree",
		Tree:    UnmarshalTree(msgpack.Unmarshal),
		Write: func(_ string, v any) (Encoder, error) {
			return func() ([]byte, error) { return msgpack.Marshal(v) }, nil
		},
	})
	Register(Bench{ID: "vmihailenco-msgpack-typed", Library: "vmihailenco/msgpack", Module: "github.com/vmihailenco/msgpack/v5",
		Formats: Msgpack,
		Notes:   "reflection over the native structs with msgpack tags: msgpack.Marshal / msgpack.Unmarshal of the record slice; structs as maps (the library's default), Side as its name (TextMarshaler), u8s ([]uint8) as bin",
		Typed:   ReflectTyped(msgpack.Marshal, msgpack.Unmarshal),
	})
}

// vmihailencoPull reads the document token by token with the Decoder's typed Decode* methods,
// chosen by the next code; container counts come from the headers, kept on a stack (no recursion).
func vmihailencoPull(_ string, data []byte) (uint64, error) {
	d := msgpack.NewDecoder(bytes.NewReader(data))
	var s hash.Stream
	var left []int // per open container: items still to read (a map counts keys and values)
	for {
		for len(left) > 0 && left[len(left)-1] == 0 {
			left = left[:len(left)-1]
			if err := s.End(); err != nil {
				return 0, err
			}
		}
		if len(left) == 0 && s.Depth() == 0 {
			if _, err := s.Value(); err == nil {
				break
			}
		}
		if len(left) > 0 {
			left[len(left)-1]--
		}
		c, err := d.PeekCode()
		if err != nil {
			return 0, err
		}
		if s.ExpectsKey() {
			if !msgpcode.IsString(c) {
				return 0, fmt.Errorf("map key with code 0x%02x is not a string", c)
			}
			k, err := d.DecodeString()
			if err != nil {
				return 0, err
			}
			if err := s.Key(hash.Str(k)); err != nil {
				return 0, err
			}
			continue
		}
		var h uint64
		switch {
		case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
			n, err := d.DecodeMapLen()
			if err != nil {
				return 0, err
			}
			s.StartMap()
			left = append(left, 2*n)
			continue
		case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
			n, err := d.DecodeArrayLen()
			if err != nil {
				return 0, err
			}
			s.StartArray()
			left = append(left, n)
			continue
		case msgpcode.IsString(c):
			var v string
			if v, err = d.DecodeString(); err == nil {
				h = hash.Str(v)
			}
		case msgpcode.IsBin(c):
			var v []byte
			if v, err = d.DecodeBytes(); err == nil {
				h = hash.Bin(v)
			}
		case c == msgpcode.Uint64:
			var v uint64
			if v, err = d.DecodeUint64(); err == nil {
				h = hash.U64(v)
			}
		case msgpcode.IsFixedNum(c) || (c >= msgpcode.Uint8 && c <= msgpcode.Uint32) || (c >= msgpcode.Int8 && c <= msgpcode.Int64):
			var v int64
			if v, err = d.DecodeInt64(); err == nil {
				h = hash.I64(v)
			}
		case c == msgpcode.Double || c == msgpcode.Float:
			var v float64
			if v, err = d.DecodeFloat64(); err == nil {
				h = hash.F64(v)
			}
		case c == msgpcode.True || c == msgpcode.False:
			var v bool
			if v, err = d.DecodeBool(); err == nil {
				h = hash.Bool(v)
			}
		case c == msgpcode.Nil:
			if err = d.DecodeNil(); err == nil {
				h = hash.NullHash
			}
		default:
			return 0, fmt.Errorf("MessagePack code 0x%02x is outside the data model", c)
		}
		if err != nil {
			return 0, err
		}
		if err := s.Emit(h); err != nil {
			return 0, err
		}
	}
	if _, err := d.PeekCode(); err == nil {
		return 0, errTrailing
	}
	return s.Value()
}
