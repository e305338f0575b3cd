//go:build !goexperiment.jsonv2

package adapters

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"serbench/harnesses/go/internal/hash"
)

// github.com/tinylib/msgp: its schemaless runtime API (no generated code in these rows).
func init() {
	Register(
		Bench{ID: "msgp-intf", Library: "tinylib/msgp", Module: "github.com/tinylib/msgp", Formats: Msgpack,
			Notes: "schemaless runtime API, no codegen; tree: msgp.ReadIntfBytes into any (map[string]any), the rest must be empty; write: msgp.AppendIntf of the map[string]any tree into a fresh buffer",
			Tree: func(_ string, data []byte) (uint64, error) {
				v, rest, err := msgp.ReadIntfBytes(data)
				if err != nil {
					return 0, err
				}
				if len(rest) != 0 {
					return 0, errTrailing
				}
				return hash.Any(v)
			},
			Write: func(_ string, v any) (Encoder, error) {
				return func() ([]byte, error) { return msgp.AppendIntf(nil, v) }, nil
			},
		},
		Bench{ID: "msgp-tokens", Library: "tinylib/msgp", Module: "github.com/tinylib/msgp", Formats: Msgpack,
			Notes:       "raw token reader, no tree: msgp.NextType then Read*Bytes (strings and binary zero-copy, ReadStringZC / ReadBytesZC) into the streaming hash",
			Incremental: msgpTokens,
		},
	)
}

// msgpTokens pulls tokens with msgp's Read*Bytes functions into the streaming hash. Container
// counts come from the headers, kept on a stack of remaining counts (no recursion).
func msgpTokens(_ string, b []byte) (uint64, error) {
	var s hash.Stream
	var left []uint32 // per open container: items still to read (a map counts keys and values)
	for {
		// close every container whose items are all read
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
		var h uint64
		var err error
		t := msgp.NextType(b)
		if s.ExpectsKey() {
			if t != msgp.StrType {
				return 0, fmt.Errorf("map key of type %v is not a string", t)
			}
			var k []byte
			if k, b, err = msgp.ReadStringZC(b); err != nil {
				return 0, err
			}
			if err := s.Key(hash.StrBytes(k)); err != nil {
				return 0, err
			}
			continue
		}
		switch t {
		case msgp.MapType:
			var n uint32
			if n, b, err = msgp.ReadMapHeaderBytes(b); err != nil {
				return 0, err
			}
			s.StartMap()
			left = append(left, 2*n)
			continue
		case msgp.ArrayType:
			var n uint32
			if n, b, err = msgp.ReadArrayHeaderBytes(b); err != nil {
				return 0, err
			}
			s.StartArray()
			left = append(left, n)
			continue
		case msgp.StrType:
			var v []byte
			if v, b, err = msgp.ReadStringZC(b); err == nil {
				h = hash.StrBytes(v)
			}
		case msgp.BinType:
			var v []byte
			if v, b, err = msgp.ReadBytesZC(b); err == nil {
				h = hash.Bin(v)
			}
		case msgp.IntType:
			var v int64
			if v, b, err = msgp.ReadInt64Bytes(b); err == nil {
				h = hash.I64(v)
			}
		case msgp.UintType:
			var v uint64
			if v, b, err = msgp.ReadUint64Bytes(b); err == nil {
				h = hash.U64(v)
			}
		case msgp.Float64Type:
			var v float64
			if v, b, err = msgp.ReadFloat64Bytes(b); err == nil {
				h = hash.F64(v)
			}
		case msgp.Float32Type:
			var v float32
			if v, b, err = msgp.ReadFloat32Bytes(b); err == nil {
				h = hash.F64(float64(v))
			}
		case msgp.BoolType:
			var v bool
			if v, b, err = msgp.ReadBoolBytes(b); err == nil {
				h = hash.Bool(v)
			}
		case msgp.NilType:
			if b, err = msgp.ReadNilBytes(b); err == nil {
				h = hash.NullHash
			}
		case msgp.InvalidType:
			return 0, msgp.ErrShortBytes
		default:
			return 0, fmt.Errorf("MessagePack type %v is outside the data model", t)
		}
		if err != nil {
			return 0, err
		}
		if err := s.Emit(h); err != nil {
			return 0, err
		}
	}
	if len(b) != 0 {
		return 0, errTrailing
	}
	return s.Value()
}
