//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_encoding_gob)

package adapters

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"sync"
)

// encoding/gob, the standard library's self-describing binary format (wire format id "gob", typed
// rows only). A gob stream sends each type's description once, before its first value, so there
// are two rows, each labelled (issue 14: the classic fairness trap of Go benchmarks):
//   - gob-typed: a fresh Encoder and Decoder per operation, so every message carries and reads the
//     type descriptions, as a program writing self-contained messages does;
//   - gob-stream-typed: one long-lived Encoder and one Decoder per record type, primed outside the
//     loop with a message of that type, so each operation writes or reads a value message without
//     type descriptions, as two processes talking over one connection do.
func init() {
	Register(
		Bench{ID: "gob-typed", Library: "encoding/gob", Formats: []string{"gob"},
			Notes: "standard library, reflection: a fresh gob.NewEncoder / gob.NewDecoder per operation (each message carries its type descriptions), the record slice as one value, trailing bytes rejected; Side as its name (TextMarshaler), a nil note omitted",
			Typed: ReflectTyped(func(v any) ([]byte, error) {
				var b bytes.Buffer
				err := gob.NewEncoder(&b).Encode(v)
				return b.Bytes(), err
			}, func(d []byte, v any) error {
				r := bytes.NewReader(d)
				if err := gob.NewDecoder(r).Decode(v); err != nil {
					return err
				}
				if r.Len() != 0 {
					return errTrailing
				}
				return nil
			})},
		Bench{ID: "gob-stream-typed", Library: "encoding/gob", Formats: []string{"gob"},
			Notes: "standard library, reflection, a reused stream: one Encoder (per prepared cell) and one Decoder (per record type) primed outside the loop, so the type descriptions are sent once per stream and each operation's message holds the value only (output_bytes are that message's; encode returns a copy of it, as Marshal functions return fresh bytes); compare gob-typed, which pays for them every time",
			Typed: ReflectTyped(gobStreamMarshal, gobStreamUnmarshal)},
	)
}

// gobEncoders are the reused Encoders, one per top-level type (the record slice, or one record for
// the latency pass), each primed: gob's type ids are the process's, so any primed Decoder reads
// what any primed Encoder writes.
var (
	gobMu       sync.Mutex
	gobEncoders = map[reflect.Type]*gobEncoder{}
	gobDecoders = map[reflect.Type]*gobDecoder{}
)

type gobEncoder struct {
	out bytes.Buffer
	enc *gob.Encoder
}

// gobDecoder reads from a bytes.Reader that each operation points at its fresh copy; a
// bytes.Reader is an io.ByteReader, so the Decoder reads it directly, with no buffer that could
// hold bytes of an earlier operation.
type gobDecoder struct {
	in  *bytes.Reader
	dec *gob.Decoder
}

// gobPrime is a message of type t with its type descriptions: one zero value of it (a pointer to
// one for a pointer type: gob cannot encode a nil pointer).
func gobPrime(enc *gob.Encoder, t reflect.Type) error {
	if t.Kind() == reflect.Pointer {
		return enc.EncodeValue(reflect.New(t.Elem()))
	}
	return enc.EncodeValue(reflect.New(t).Elem())
}

// gobEncoderFor is the primed Encoder of type t (made on first use, outside the timed loop: the
// check and the warm-up run first). The lock is released by defer, so a panic in gob cannot leave
// it held.
func gobEncoderFor(t reflect.Type) (*gobEncoder, error) {
	gobMu.Lock()
	defer gobMu.Unlock()
	if e := gobEncoders[t]; e != nil {
		return e, nil
	}
	e := &gobEncoder{}
	e.enc = gob.NewEncoder(&e.out)
	if err := gobPrime(e.enc, t); err != nil {
		return nil, err
	}
	gobEncoders[t] = e
	return e, nil
}

// gobDecoderFor is the Decoder of type t, primed with a message of it.
func gobDecoderFor(t reflect.Type) (*gobDecoder, error) {
	gobMu.Lock()
	defer gobMu.Unlock()
	if d := gobDecoders[t]; d != nil {
		return d, nil
	}
	var prime bytes.Buffer
	if err := gobPrime(gob.NewEncoder(&prime), t); err != nil {
		return nil, err
	}
	d := &gobDecoder{in: bytes.NewReader(prime.Bytes())}
	d.dec = gob.NewDecoder(d.in)
	if err := d.dec.DecodeValue(reflect.New(t)); err != nil {
		return nil, err
	}
	gobDecoders[t] = d
	return d, nil
}

func gobStreamMarshal(v any) ([]byte, error) {
	e, err := gobEncoderFor(reflect.TypeOf(v))
	if err != nil {
		return nil, err
	}
	e.out.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	// a fresh slice, as the other rows' Marshal functions return (the latency pass keeps every
	// record's message, and the buffer is the next operation's)
	return bytes.Clone(e.out.Bytes()), nil
}

func gobStreamUnmarshal(data []byte, v any) error {
	t := reflect.TypeOf(v).Elem()
	d, err := gobDecoderFor(t)
	if err != nil {
		return err
	}
	d.in.Reset(data)
	err = d.dec.Decode(v)
	if err == nil && d.in.Len() != 0 {
		err = errTrailing
	}
	if err != nil {
		// a Decoder's error is sticky: the next operation starts a new stream
		gobMu.Lock()
		delete(gobDecoders, t)
		gobMu.Unlock()
	}
	return err
}
