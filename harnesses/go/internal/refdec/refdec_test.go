package refdec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/hostile"
)

const vectors = "../../../../vectors"

type index struct {
	Vectors []struct {
		Name  string            `json:"name"`
		Hash  string            `json:"hash"`
		Files map[string]string `json:"files"`
	} `json:"vectors"`
}

func loadIndex(t *testing.T) index {
	raw, err := os.ReadFile(filepath.Join(vectors, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ix index
	if err := json.Unmarshal(raw, &ix); err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestEveryVectorDecodesToItsHashInEveryFormat(t *testing.T) {
	n := 0
	for _, v := range loadIndex(t).Vectors {
		for f, file := range v.Files {
			if !strings.Contains(strings.Join(Formats, " "), f) || strings.HasPrefix(f, "ubjson") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(vectors, file))
			if err != nil {
				t.Fatal(err)
			}
			tree, err := Decode(f, data)
			if err != nil {
				t.Errorf("%s %s: %v", v.Name, f, err)
				continue
			}
			if h, err := hash.Any(tree); err != nil || hash.Hex64(h) != v.Hash {
				t.Errorf("%s %s: %s %v, want %s", v.Name, f, hash.Hex64(h), err, v.Hash)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d vector files checked", n)
	}
}

func TestTheFlatWalkHashesEveryVectorAsTheTreeWalk(t *testing.T) {
	n := 0
	for _, v := range loadIndex(t).Vectors {
		for _, f := range Formats {
			file, ok := v.Files[f]
			if !ok {
				continue
			}
			data, err := os.ReadFile(filepath.Join(vectors, file))
			if err != nil {
				t.Fatal(err)
			}
			tree, err := Decode(f, data)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, f, err)
			}
			want, err := hash.Any(tree)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, f, err)
			}
			flat, err := hash.Flatten(tree)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, f, err)
			}
			var st []hash.FlatFrame
			if got := flat.Hash(&st); got != want || hash.Hex64(got) != v.Hash {
				t.Errorf("%s %s: flat %s, tree %s, vector %s", v.Name, f, hash.Hex64(got), hash.Hex64(want), v.Hash)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d vector files checked", n)
	}
}

func TestEveryTruncationOfAVectorIsRejected(t *testing.T) {
	for _, v := range loadIndex(t).Vectors {
		for _, f := range Formats {
			file, ok := v.Files[f]
			if !ok {
				continue
			}
			data, _ := os.ReadFile(filepath.Join(vectors, file))
			// every cut of a small file; about 64 evenly spaced cuts of a larger one
			step := max(1, len(data)/64)
			for n := 0; n < len(data); n += step {
				if strings.HasPrefix(f, "json") && strings.TrimSpace(string(data[n:])) == "" {
					continue // a JSON document followed by white space only is the same document
				}
				if _, err := Decode(f, data[:n]); err == nil {
					t.Errorf("%s %s truncated to %d bytes was accepted", v.Name, f, n)
				}
			}
		}
	}
}

func TestADocumentNested100000DeepDecodesWithoutRecursion(t *testing.T) {
	for _, f := range []string{"json", "msgpack", "cbor", "bson"} {
		for _, maps := range []bool{false, true} {
			tree, err := Decode(f, hostile.Deep(f, 100_000, maps))
			if err != nil {
				t.Fatalf("%s maps=%v: %v", f, maps, err)
			}
			h1, err := hash.Any(tree)
			if err != nil {
				t.Fatal(err)
			}
			if f != "json" {
				jt, _ := Decode("json", hostile.Deep("json", 100_000, maps))
				if h0, _ := hash.Any(jt); h0 != h1 {
					t.Fatalf("%s maps=%v: hash differs from the JSON document's", f, maps)
				}
			}
		}
	}
}

func TestDecodeWithinRefusesDeeperThanItsBoundAsTheHarnesssLimit(t *testing.T) {
	for _, f := range []string{"json", "msgpack", "cbor", "bson"} {
		if _, err := DecodeWithin(f, hostile.Deep(f, 1_000, true), 1_000); !hash.IsLimit(err) {
			t.Fatalf("%s: want the harness's LimitError (exit 6), got %v", f, err)
		}
		if _, err := DecodeWithin(f, hostile.Deep(f, 998, true), 1_000); err != nil {
			t.Fatalf("%s: within the bound: %v", f, err)
		}
	}
}

func TestInputOutsideTheDataModelIsRejected(t *testing.T) {
	bad := map[string][]string{
		"json": {`{"a":1,"a":2}`, `{"a":NaN}`, `{"a":1e400}`, `{"a":"\ud800"}`, `{"a":18446744073709551616}`, `{"a":1} x`, `{"a":"\u0000"}`,
			`[1,2,3]`, `[]`, `1`, `"a"`, `null`, "{}\f"},
		"msgpack": {"\x81\xa1a\xc1", "\x81\x01\x01", "\x81\xa1a\xd4\x01\x00", "\xdf\xff\xff\xff\xff", "\x93\x01\x02\x03", "\x90", "\x01"},
		"cbor":    {"\xa1\x61a\xc1\x00", "\xa1\x01\x01", "\xa1\x61a\xf7", "\xbb\xff\xff\xff\xff\xff\xff\xff\xff", "\x83\x01\x02\x03", "\x9f\xff", "\x61a"},
		"bson":    {"\x05\x00\x00\x00", "\x0c\x00\x00\x00\x07a\x00\x00\x00\x00\x00\x00"},
	}
	for f, docs := range bad {
		for _, d := range docs {
			if _, err := Decode(f, []byte(d)); err == nil {
				t.Errorf("%s %q accepted", f, d)
			}
		}
	}
}

func TestEveryBSONBinarySubtypeIsItsBytesAndTheOldBinaryIsUnwrapped(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"\x11\x00\x00\x00\x05b\x00\x04\x00\x00\x00\x00abcd\x00", "abcd"},                 // generic
		{"\x11\x00\x00\x00\x05b\x00\x04\x00\x00\x00\x80abcd\x00", "abcd"},                 // user defined
		{"\x15\x00\x00\x00\x05b\x00\x08\x00\x00\x00\x02\x04\x00\x00\x00abcd\x00", "abcd"}, // old: inside its inner length
	} {
		v, err := Decode("bson", []byte(c.doc))
		if err != nil {
			t.Fatalf("%q: %v", c.doc, err)
		}
		if got := string(v.(map[string]any)["b"].([]byte)); got != c.want {
			t.Errorf("%q: %q, want %q", c.doc, got, c.want)
		}
	}
	// the old binary whose inner length is not its length minus 4, or which is too short for one
	for _, doc := range []string{
		"\x15\x00\x00\x00\x05b\x00\x08\x00\x00\x00\x02\x05\x00\x00\x00abcd\x00",
		"\x15\x00\x00\x00\x05b\x00\x08\x00\x00\x00\x02\x03\x00\x00\x00abcd\x00",
		"\x10\x00\x00\x00\x05b\x00\x03\x00\x00\x00\x02\x03\x00\x00\x00",
	} {
		if _, err := Decode("bson", []byte(doc)); err == nil || !strings.Contains(err.Error(), "old binary") {
			t.Errorf("%q: %v, want the old binary's rejection", doc, err)
		}
	}
}
