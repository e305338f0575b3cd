//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_sereal)

package adapters

import (
	"github.com/Sereal/Sereal/Go/sereal"

	"serbench/harnesses/go/internal/hash"
)

// github.com/Sereal/Sereal/Go/sereal: the Go implementation of Sereal, Booking.com's binary format
// (first made for Perl). No corpus file is written in Sereal, so its rows read the document from
// the MessagePack file, as go-codec's Binc and Simple rows do (OwnFormat). The module has no
// tagged release; the pinned pseudo-version is its last commit (2023-10-09), and the issue asks
// for it as an unmaintained library measured where it builds.
func init() {
	decode := func(data []byte) (uint64, error) {
		var v any
		if err := sereal.Unmarshal(data, &v); err != nil {
			return 0, err
		}
		return hash.Any(v)
	}
	Register(Bench{ID: "sereal", Library: "sereal", Module: "github.com/Sereal/Sereal/Go/sereal", Formats: Msgpack,
		Notes: "unmaintained (no tagged release, last commit 2023-10-09); reflection: sereal.Marshal (the default encoder: protocol v3, no compression) of the map[string]any tree and sereal.Unmarshal into any (maps as map[string]any); Sereal, a format only Sereal's own libraries have, so no corpus file exists in it: the document is read from the MessagePack corpus file (`reads`, spec/protocol.md) and its cells are reported under `sereal`; write encodes it (checked by decoding the output with sereal.Unmarshal and hashing it), tree decodes Sereal's own encoding of it (made outside the loop; the hash-object baseline copies the MessagePack file's bytes instead); output sizes are Sereal's",
		Own:   &OwnFormat{Name: "sereal", Encode: sereal.Marshal, Decode: decode},
		Tree:  func(_ string, data []byte) (uint64, error) { return decode(data) },
		Write: func(_ string, v any) (Encoder, error) {
			return func() ([]byte, error) { return sereal.Marshal(v) }, nil
		},
	})
}
