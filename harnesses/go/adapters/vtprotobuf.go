//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_vtprotobuf)

package adapters

import (
	"fmt"

	"google.golang.org/protobuf/proto"
)

// github.com/planetscale/vtprotobuf: protoc-gen-go-vtproto generates MarshalVT / UnmarshalVT /
// SizeVT on the protoc-gen-go messages (internal/gen/pb, regen-schemas.sh): the same messages and
// wire bytes as protobuf-go, encoded and decoded by generated code instead of the reflection-driven
// runtime.
func init() {
	Register(Bench{ID: "vtprotobuf", Library: "vtprotobuf", Module: "github.com/planetscale/vtprotobuf", Formats: []string{"protobuf"},
		Notes: "codegen (protoc-gen-go-vtproto, features marshal+unmarshal+size, on protoc-gen-go's messages): MarshalVT / UnmarshalVT of the ...List message built outside the loop; the typed hash walks the messages (as protobuf-go)",
		Typed: pbTyped(false, vtMarshal, vtUnmarshal),
	})
}

type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
}

func vtMarshal(m proto.Message) ([]byte, error) {
	v, ok := m.(vtMessage)
	if !ok {
		return nil, fmt.Errorf("%T has no vtprotobuf methods (run regen-schemas.sh)", m)
	}
	return v.MarshalVT()
}

func vtUnmarshal(data []byte, m proto.Message) error {
	v, ok := m.(vtMessage)
	if !ok {
		return fmt.Errorf("%T has no vtprotobuf methods (run regen-schemas.sh)", m)
	}
	return v.UnmarshalVT(data)
}
