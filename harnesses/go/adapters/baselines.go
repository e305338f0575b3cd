package adapters

import "serbench/harnesses/go/internal/refdec"

// flatMeasures is what hash-object's loop times, for each of its tests.
const flatMeasures = "copy input + hash the harness's own object with its flat walk (hash.Flat, prebuilt outside the loop: pre-order nodes, scalars through a seed table, no type switch, no recursion): the hash's work (GC included)"

// The baselines (spec/fairness.md rule 5): what a row's loop costs without the library. Their
// operations are built in main.go, because they need the harness's own decoded object.
func init() {
	Register(
		Bench{ID: "hash-data", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"write"},
			Notes:       "write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)"},
		// the hash's work and the least walk any tree needs: what a tree row spends beyond that
		// reading its library's tree (a type switch per value) stays in its net time
		Bench{ID: "hash-object", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"tree", "incremental"},
			Notes:       "baseline for tree: copy input + hash the harness's object with its cheapest walk (flat pre-order, a seed table, no type switch)",
			// for incremental it stands for a row that walks a tree (mongo-bson-raw): the same walk
			Steps: map[string][]string{"incremental": ContractSteps("tree", true)},
			Measures: map[string]string{
				"tree":        flatMeasures,
				"incremental": flatMeasures,
			}},
		// never subtracted: no row names it (DefaultBaseline), so it runs only by name
		Bench{ID: "hash-walk", Library: "serbench-go", Module: HarnessModule, Formats: refdec.Formats,
			BaselineFor: []string{"tree"},
			Notes:       "reference, never subtracted: copy input + walk the harness's object with a type switch per value, as tree rows walk theirs",
			Measures:    map[string]string{"tree": "copy input + walk the harness's own object (map[string]any, []any, int64, uint64, float64, string, []byte) with hash.Any, a type switch per value, as tree rows walk theirs (GC included)"}},
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
