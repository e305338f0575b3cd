package adapters

import "serbench/harnesses/go/internal/refdec"

// The baselines (spec/fairness.md rule 5): what a row's loop costs without the library. Their
// operations are built in main.go, because they need the harness's own decoded object.
func init() {
	Register(
		Bench{ID: "hash-data", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"write"},
			Notes:       "write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)"},
		Bench{ID: "hash-object", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"tree", "incremental"},
			Notes:       "tree baseline (and of incremental rows that walk a lazily parsed tree): copies the input and walks the harness's own prebuilt tree (map[string]any, []any, int64, uint64, float64, string, []byte) with hash.Any, the walk the tree rows use over theirs"},
		Bench{ID: "hash-events", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"incremental"},
			Notes:       "incremental baseline: copies the input and replays a prebuilt list of the document's parse events through the streaming hash (hash.Stream), as token-reader rows feed theirs"},
		Bench{ID: "hash-data-typed", Library: "serbench-go", Module: HarnessModule, Formats: TypedFormats,
			BaselineFor: []string{"typed-encode"},
			Notes:       "typed-encode baseline: hashes the records' encoding in the format (the shortest any row of this harness makes, once), never more bytes than a row hashes"},
		Bench{ID: "hash-typed", Library: "serbench-go", Module: HarnessModule, Formats: TypedFormats,
			BaselineFor: []string{"typed-decode", "typed-access"},
			Notes:       "typed-decode and typed-access baseline: copies the records' encoding in the format (the shortest any row makes, into a 16-byte aligned buffer, as the rows do) and hashes the prebuilt native records with the typed hash the rows use"},
	)
}
