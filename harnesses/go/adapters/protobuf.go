//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_google_golang_org_protobuf)

package adapters

import (
	"google.golang.org/protobuf/proto"
)

// google.golang.org/protobuf with the messages protoc-gen-go generates from spec/schemas/typed.proto
// (internal/gen/pb, regen-schemas.sh). Two rows, as prost and prost-convert in Rust: `protobuf-go`
// encodes messages built outside the loop and decodes into them (the typed hash walks the
// messages); `protobuf-go-convert` also converts from the native records to the messages (encode)
// and back (decode) inside the loop, what an application with its own structs pays.
func init() {
	Register(
		Bench{ID: "protobuf-go", Library: "google.golang.org/protobuf", Module: "google.golang.org/protobuf", Formats: []string{"protobuf"},
			Notes: "codegen (protoc 3.21.12 + protoc-gen-go, spec/schemas/typed.proto): proto.Marshal / proto.Unmarshal of the ProductList / TradeList / NestedList message built outside the loop; the typed hash walks the generated messages",
			Typed: pbTyped(false, proto.Marshal, proto.Unmarshal)},
		Bench{ID: "protobuf-go-convert", Library: "google.golang.org/protobuf", Module: "google.golang.org/protobuf", Formats: []string{"protobuf"},
			Notes: "as protobuf-go, plus the conversion from the native records to the messages (encode) and back to native records, range-checking u8/u16/i8/i16 (decode), inside the loop",
			// the conversions are inside the loop: more work than the contract, a labelled variant
			Steps: map[string][]string{"typed-encode": {"convert", "encode", "hash-output"},
				"typed-decode": {"copy-input", "decode", "convert", "visit-all"}},
			Typed: pbTyped(true, proto.Marshal, proto.Unmarshal)},
	)
}
