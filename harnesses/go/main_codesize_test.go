package main

import (
	"bufio"
	"go/build/constraint"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/codesize"
)

// buildLine is a file's //go:build expression (nil if it has none).
func buildLine(t *testing.T, path string) constraint.Expr {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if constraint.IsGoBuild(line) {
			e, err := constraint.Parse(line)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return e
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return nil
}

// Each adapter file is compiled into exactly one library's code-size probe: its own (every build
// tag set that probe uses), never the baseline's or another library's (internal/codesize).
func TestEveryAdapterFileIsCompiledIntoItsOwnLibrarysProbeOnly(t *testing.T) {
	files, _ := filepath.Glob("adapters/*.go")
	registers := regexp.MustCompile(`Library: "([^"]+)"`)
	fileLibs := map[string]string{}
	var libs []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, m := range registers.FindAllStringSubmatch(string(src), -1) {
			if m[1] != "serbench-go" {
				found[m[1]] = true
			}
		}
		if len(found) > 1 {
			t.Errorf("%s registers %d libraries: one library, one file", f, len(found))
		}
		for lib := range found {
			fileLibs[f] = lib
			libs = append(libs, lib)
		}
	}
	for _, b := range adapters.All() {
		if !b.IsBaseline() && !slices.Contains(libs, b.Library) {
			t.Errorf("%s: no adapter file registers library %q", b.ID, b.Library)
		}
	}
	for f, lib := range fileLibs {
		e := buildLine(t, f)
		if e == nil {
			t.Errorf("%s has no //go:build line with %s", f, codesize.Tag(lib))
			continue
		}
		in := func(tags ...string) bool {
			for _, exp := range []bool{false, true} {
				if e.Eval(func(tag string) bool { return slices.Contains(tags, tag) || (tag == "goexperiment.jsonv2" && exp) }) {
					return true
				}
			}
			return false
		}
		if !in() {
			t.Errorf("%s is not compiled into the harness", f)
		}
		if !in("sizeprobe", codesize.Tag(lib)) {
			t.Errorf("%s is not compiled into the probe of %s (tag %s)", f, lib, codesize.Tag(lib))
		}
		if in("sizeprobe") {
			t.Errorf("%s is compiled into the baseline probe", f)
		}
		for _, other := range libs {
			if other != lib && codesize.Tag(other) == codesize.Tag(lib) {
				t.Errorf("%s and %s have the same tag", lib, other)
			} else if other != lib && in("sizeprobe", codesize.Tag(other)) {
				t.Errorf("%s is compiled into the probe of %s", f, other)
			}
		}
	}
}

// Builds every probe of this build (go build, as the orchestrator does; about a second each with
// a warm build cache), checks that each has exactly its library, runs it, and that `list` then
// gives every row its library's size.
func TestEveryLibrarysProbeBuildsRunsAndGivesListItsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a probe per library")
	}
	gobin, err := exec.LookPath("go")
	if err != nil { // `go test` puts GOROOT in its tests' environment; the tarball's go is there
		gobin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
		if _, err := os.Stat(gobin); err != nil {
			t.Skip("no go command on PATH or in GOROOT")
		}
	}
	dir := t.TempDir()
	exp := goexperiment()
	build := func(tags, lib string) string {
		out := filepath.Join(dir, codesize.ProbeName(tags, exp))
		cmd := exec.Command(gobin, "build", "-trimpath", "-tags", "sizeprobe,"+tags, "-ldflags=-s -w", "-o", out, "./cmd/sizeprobe")
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("probe of %s: %v\n%s", lib, err, msg)
		}
		got, err := exec.Command(out, "libraries").Output()
		if err != nil {
			t.Fatalf("probe of %s: %v", lib, err)
		}
		if want := strings.TrimSpace(lib); strings.TrimSpace(string(got)) != want {
			t.Fatalf("probe of %q registers %q", lib, got)
		}
		run := exec.Command(out, filepath.Join(vectors, "all-types.json"), "json", "product")
		if msg, err := run.CombinedOutput(); err != nil {
			t.Fatalf("probe of %s on a vector: %v\n%s", lib, err, msg)
		}
		return out
	}
	base := build("sizeprobe", "")
	if err := os.Rename(base, filepath.Join(dir, codesize.ProbeName(codesize.BaselineProbe, exp))); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range adapters.All() {
		if b.IsBaseline() || seen[b.Library] {
			continue
		}
		seen[b.Library] = true
		build(codesize.Tag(b.Library), b.Library)
	}
	for _, b := range adapters.All() {
		if b.IsBaseline() {
			continue
		}
		row := map[string]any{}
		addCodeSize(row, b.Library, dir)
		size, _ := row["code_size_bytes"].(int64)
		method, _ := row["code_size_method"].(string)
		if size <= 0 || !strings.Contains(method, b.Library+"'s adapter file") {
			t.Errorf("%s: code size %v (%q)", b.ID, row["code_size_bytes"], method)
		}
	}
}
