//go:build goexperiment.jsonv2

package adapters

// JSONv2: see build_default.go.
const JSONv2 = true

// Binary names the binary in row notes.
const Binary = "serbench-go-jsonv2 (GOEXPERIMENT=jsonv2)"
