//go:build !goexperiment.jsonv2 && (!sizeprobe || sizeprobe_mongo_driver_bson)

package adapters

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"serbench/harnesses/go/internal/hash"
)

// go.mongodb.org/mongo-driver/v2/bson.
func init() {
	// typed: BSON's root is a document, so the record slice is its field "records"
	typedRow := ReflectTyped(func(v any) ([]byte, error) { return bson.Marshal(bson.D{{Key: "records", Value: v}}) },
		func(d []byte, v any) error {
			var doc struct {
				Records bson.RawValue `bson:"records"`
			}
			if err := bson.Unmarshal(d, &doc); err != nil {
				return err
			}
			return doc.Records.Unmarshal(v)
		})
	Register(
		Bench{ID: "mongo-bson-typed", Library: "mongo-driver/bson", Module: "go.mongodb.org/mongo-driver/v2", Formats: BSON,
			Notes: "reflection over the native structs (bson's default field names: lowercased Go names), the record slice as the field \"records\" of a root document: bson.Marshal / bson.Unmarshal + RawValue.Unmarshal; BSON has no uint64, so a uint64 above INT64_MAX is bson's error (product, product-large and nested fail with it, as spec/typed.md says); Side as its number, u8s as binary",
			Typed: typedRow},
		Bench{ID: "mongo-bson", Library: "mongo-driver/bson", Module: "go.mongodb.org/mongo-driver/v2", Formats: BSON,
			Notes: "reflection; tree: bson.Unmarshal into bson.D (ordered documents, bson.A arrays, int32/int64 as written); write: bson.Marshal of the map[string]any tree",
			Tree: func(_ string, data []byte) (uint64, error) {
				var d bson.D
				if err := bson.Unmarshal(data, &d); err != nil {
					return 0, err
				}
				return bsonHash(d, 0)
			},
			Write: func(_ string, v any) (Encoder, error) {
				if _, ok := v.(map[string]any); !ok {
					return nil, fmt.Errorf("BSON needs a map at the root")
				}
				return func() ([]byte, error) { return bson.Marshal(v) }, nil
			},
		},
		Bench{ID: "mongo-bson-raw", Library: "mongo-driver/bson", Module: "go.mongodb.org/mongo-driver/v2", Formats: BSON,
			Notes:            "in place, no tree: bson.Raw.Validate, then every element read through Raw.Elements and RawValue accessors (like libbson-iter); it walks the document as a tree, so it subtracts hash-object",
			BaselineOverride: map[string]string{"incremental": "hash-object"},
			// a validated in-place walk of the whole document, as a tree row's: a tree row's steps,
			// as the baseline it subtracts is the tree row's
			Steps: map[string][]string{"incremental": ContractSteps("tree", false)},
			Incremental: func(_ string, data []byte) (uint64, error) {
				r := bson.Raw(data)
				if err := r.Validate(); err != nil {
					return 0, err
				}
				return bsonRawDoc(r, false, 0)
			},
		},
	)
}

// bsonHash walks a decoded bson.D tree (recursive, bounded by hash.MaxDepth).
func bsonHash(v any, depth int) (uint64, error) {
	switch x := v.(type) {
	case bson.D:
		if depth >= hash.MaxDepth {
			return 0, &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
		}
		var s uint64
		for _, e := range x {
			h, err := bsonHash(e.Value, depth+1)
			if err != nil {
				return 0, err
			}
			s += hash.MapTerm(hash.Str(e.Key), h)
		}
		return hash.MapEnd(s, uint64(len(x))), nil
	case bson.A:
		if depth >= hash.MaxDepth {
			return 0, &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
		}
		var a uint64
		for i, e := range x {
			h, err := bsonHash(e, depth+1)
			if err != nil {
				return 0, err
			}
			a += hash.ArrayTerm(uint64(i), h)
		}
		return hash.ArrayEnd(a, uint64(len(x))), nil
	case bson.Binary:
		// every subtype is binary in the data model (spec/data-model.md, R7)
		return hash.Bin(x.Data), nil
	case int32:
		return hash.I64(int64(x)), nil
	}
	return hash.Any(v)
}

// bsonRawDoc hashes a raw document or array in place.
func bsonRawDoc(r bson.Raw, isArray bool, depth int) (uint64, error) {
	if depth >= hash.MaxDepth {
		return 0, &hash.LimitError{Msg: "nested deeper than the harness's walk limit"}
	}
	els, err := r.Elements()
	if err != nil {
		return 0, err
	}
	var s uint64
	for i, e := range els {
		h, err := bsonRawValue(e.Value(), depth)
		if err != nil {
			return 0, err
		}
		if isArray {
			s += hash.ArrayTerm(uint64(i), h)
		} else {
			s += hash.MapTerm(hash.Str(e.Key()), h)
		}
	}
	if isArray {
		return hash.ArrayEnd(s, uint64(len(els))), nil
	}
	return hash.MapEnd(s, uint64(len(els))), nil
}

func bsonRawValue(v bson.RawValue, depth int) (uint64, error) {
	switch v.Type {
	case bson.TypeDouble:
		return hash.F64(v.Double()), nil
	case bson.TypeString:
		return hash.Str(v.StringValue()), nil
	case bson.TypeEmbeddedDocument:
		return bsonRawDoc(v.Document(), false, depth+1)
	case bson.TypeArray:
		return bsonRawDoc(bson.Raw(v.Array()), true, depth+1)
	case bson.TypeBinary:
		// every subtype is binary in the data model (spec/data-model.md, R7)
		_, data := v.Binary()
		return hash.Bin(data), nil
	case bson.TypeBoolean:
		return hash.Bool(v.Boolean()), nil
	case bson.TypeNull:
		return hash.NullHash, nil
	case bson.TypeInt32:
		return hash.I64(int64(v.Int32())), nil
	case bson.TypeInt64:
		return hash.I64(v.Int64()), nil
	}
	return 0, fmt.Errorf("BSON type %v is outside the data model", v.Type)
}
