//go:build !race

package hash

// raceBuild is false in the harness's builds (race.go says why it exists).
const raceBuild = false
