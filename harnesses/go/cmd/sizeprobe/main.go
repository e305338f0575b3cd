// Command sizeprobe is the code-size probe of the Go harness (internal/codesize): never run for
// timing, and not part of the harness's protocol. Built with the tags `sizeprobe
// sizeprobe_<library>`, only that library's adapter file is compiled into package adapters, and
// this program calls every operation of every row it registers (tree, incremental, write, its own
// format's encode and decode, typed encode / decode / access, the one-record codecs) on inputs
// read at run time, so the linker keeps exactly the code those rows reach and nothing of the
// protocol command line (JSON output, measurement loops, selftest). It also runs what the
// baselines run (the tree, byte, event-stream and typed hashes, the aligned copy, the reference
// decoder and the typed loader that make its inputs), so the probe built with the tag `sizeprobe`
// alone, which registers no library, has all of that too and the difference is the library's.
package main

import (
	"fmt"
	"os"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/refdec"
	"serbench/harnesses/go/internal/typed"
)

// sink keeps every result alive, as measure.Sink does in the harness.
var sink uint64

func take(h uint64, err error) {
	sink ^= h
	if err != nil {
		sink++
	}
}

func takeBytes(out []byte, err error) { take(hash.Bin(out), err) }

func main() {
	// `sizeprobe libraries`: the libraries compiled in, one a line (the harness's tests check that
	// a probe has exactly its library, and the baseline none).
	if len(os.Args) == 2 && os.Args[1] == "libraries" {
		seen := map[string]bool{}
		for _, b := range adapters.All() {
			if !b.IsBaseline() && !seen[b.Library] {
				seen[b.Library] = true
				fmt.Println(b.Library)
			}
		}
		return
	}
	// Inputs named on the command line: nothing about them is known at compile time.
	var data []byte
	format, schema := "json", typed.Schema("product")
	if len(os.Args) == 4 { // FILE FORMAT SCHEMA
		data, _ = os.ReadFile(os.Args[1])
		format, schema = os.Args[2], typed.Schema(os.Args[3])
	}
	records, _ := typed.Load(data)
	if records == nil {
		records = &typed.Records{Schema: schema}
	}
	tree, _ := refdec.Decode(format, data)
	// What the baselines run: hash-object, hash-walk, hash-data, hash-events, hash-typed, hash-data-typed.
	if flat, err := hash.Flatten(tree); err == nil {
		var parents []hash.FlatFrame
		take(flat.Hash(&parents), nil)
		var s hash.Stream
		var frames []hash.EventFrame
		take(flat.HashEvents(&s, &frames))
	}
	take(hash.Any(tree))
	take(hash.Bin(adapters.AlignedCopy(data)), nil)
	take(records.Hash(), nil)
	for _, b := range adapters.All() {
		if b.IsBaseline() {
			continue
		}
		for _, f := range []adapters.DecodeFn{b.Tree, b.Incremental} {
			if f != nil {
				take(adapters.Lib(func() (uint64, error) { return f(format, append([]byte(nil), data...)) }))
			}
		}
		if b.Write != nil {
			if enc, err := adapters.Lib(func() (adapters.Encoder, error) { return b.Write(format, tree) }); err == nil {
				takeBytes(adapters.Lib(enc))
			}
		}
		if o := b.Own; o != nil {
			takeBytes(adapters.Lib(func() ([]byte, error) { return o.Encode(tree) }))
			take(adapters.Lib(func() (uint64, error) { return o.Decode(data) }))
		}
		t := b.Typed
		if t == nil {
			continue
		}
		if enc, err := adapters.Lib(func() (adapters.Encoder, error) { return t.Encoder(format, records) }); err == nil {
			takeBytes(adapters.Lib(enc))
		}
		for _, f := range []adapters.TypedDecodeFn{t.Decode, t.Access} {
			if f != nil {
				take(adapters.Lib(func() (uint64, error) { return f(format, schema, adapters.AlignedCopy(data)) }))
			}
		}
		if t.One != nil {
			if one, err := adapters.Lib(func() (*adapters.OneCodec, error) { return t.One(format, records) }); err == nil {
				takeBytes(adapters.Lib(func() ([]byte, error) { return one.Encode(0) }))
				take(adapters.Lib(func() (uint64, error) { return one.Decode(data) }))
			}
		}
	}
	fmt.Println(sink)
}
