//go:build !goexperiment.jsonv2

package adapters

// JSONv2 tells whether this binary was built with GOEXPERIMENT=jsonv2. The default binary
// (serbench-go) has every library except encoding/json/v2; the jsonv2 binary
// (serbench-go-jsonv2) has only the v2 rows and encoding/json's v1 API as the experiment
// reimplements it on v2, because the experiment changes v1 too (issue 14).
const JSONv2 = false

// Binary names the binary in row notes.
const Binary = "serbench-go (default build)"
