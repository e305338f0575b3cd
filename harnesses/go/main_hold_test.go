package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"serbench/harnesses/go/adapters"
	"serbench/harnesses/go/internal/hash"
	"serbench/harnesses/go/internal/refdec"
)

// `run --hold` (spec/protocol.md run step 10) reads the process's own standard input, so these
// tests run the harness as a process of its own, as the orchestrator does: the test binary,
// started with asHarness set, is serbench-go (TestMain).

const asHarness = "SERBENCH_GO_TEST_AS_HARNESS"

func TestMain(m *testing.M) {
	if os.Getenv(asHarness) == "1" {
		main() // exits with the harness's code
	}
	os.Exit(m.Run())
}

// held is a harness process started with a pipe on its standard input.
type held struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	results string
	stderr  bytes.Buffer
	done    chan struct{}
}

func startHarness(t *testing.T, args ...string) *held {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &held{results: filepath.Join(t.TempDir(), "r.jsonl"), done: make(chan struct{})}
	h.cmd = exec.Command(exe, append(append([]string{"run"}, args...), "--results", h.results)...)
	h.cmd.Env = append(os.Environ(), asHarness+"=1")
	h.cmd.Stderr = &h.stderr
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = h.cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() {
		_ = h.cmd.Process.Kill()
		<-h.done
	})
	return h
}

func (h *held) exited() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// exitCode waits for the process to exit (at most a minute) and returns its exit code.
func (h *held) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-h.done:
		return h.cmd.ProcessState.ExitCode()
	case <-time.After(time.Minute):
		t.Fatalf("still running after a minute; kinds %v, stderr %s", h.kinds(t), h.stderr.String())
		return -1
	}
}

// kinds are the kinds of the complete rows written so far.
func (h *held) kinds(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(h.results)
	if err != nil {
		return nil
	}
	var kinds []string
	lines := strings.Split(string(data), "\n")
	for _, line := range lines[:len(lines)-1] { // the last is empty, or a row still being written
		var r struct{ Kind string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		kinds = append(kinds, r.Kind)
	}
	return kinds
}

// holdCell is one run path: the arguments of a small cell and the row its timed part writes.
type holdCell struct {
	name string
	args []string
	row  string
}

// holdCells are a cell of every path that times: a schemaless decode and write, a typed decode
// and encode, and the latency pass.
func holdCells(t *testing.T) []holdCell {
	// small vectors, and the schemaless hash of each: a schemaless cell is a row whose check passes
	// on one of them (a row may deviate on some, known-deviations.json; jsonv2 writes all-types'
	// integral floats as integers)
	var files, hashes []string
	for _, name := range []string{"all-types", "array-mixed", "bools"} {
		file := filepath.Join(vectors, name+".json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := refdec.Decode("json", data)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hash.Any(tree)
		if err != nil {
			t.Fatal(err)
		}
		files, hashes = append(files, file), append(hashes, hash.Hex64(h))
	}
	dir, want := writeDatasets(t)
	trade := filepath.Join(dir, "trade.json")
	quick := []string{"--budget-ms", "1", "--min-samples", "1"}
	var cells []holdCell
	found := map[string]bool{}
	for _, b := range adapters.All() {
		if b.IsBaseline() || b.Own != nil {
			continue
		}
		for _, test := range []string{"tree", "write"} {
			for i, file := range files {
				if found[test] || !b.Supports(test, "json") {
					break
				}
				data, _ := os.ReadFile(file)
				if got, fail := verify(&b, test, "json", data); fail == nil && hash.Hex64(got) == hashes[i] {
					found[test] = true
					cells = append(cells, holdCell{b.ID + " " + test, append([]string{"--bench", b.ID, "--test", test,
						"--format", "json", "--file", file, "--expect-hash", hashes[i]}, quick...), "sample"})
				}
			}
		}
		for _, test := range []string{"typed-decode", "typed-encode"} {
			for _, latency := range []bool{false, true} {
				key, row := test, "sample"
				if latency {
					key, row = test+" --latency", "latency"
				}
				if found[key] || !slices.Contains(b.Tests(), test) || (latency && (b.Typed == nil || b.Typed.One == nil)) {
					continue
				}
				found[key] = true
				args := append([]string{"--bench", b.ID, "--test", test, "--format", b.Formats[0], "--file", trade,
					"--expect-hash", want["trade"]}, quick...)
				if latency {
					args = append(args, "--latency")
				}
				cells = append(cells, holdCell{b.ID + " " + key, args, row})
			}
		}
	}
	if len(cells) != 6 {
		t.Fatalf("found a cell for %v only", found)
	}
	return cells
}

func TestRunHoldTimesNothingUntilOneByteArrivesOnStdin(t *testing.T) {
	for _, c := range holdCells(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := startHarness(t, append(c.args, "--hold")...)
			deadline := time.Now().Add(time.Minute)
			for !slices.Contains(h.kinds(t), "check") {
				if h.exited() || time.Now().After(deadline) {
					t.Fatalf("no check row (exited: %v); kinds %v, stderr %s", h.exited(), h.kinds(t), h.stderr.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			if k := h.kinds(t); h.exited() || slices.Contains(k, c.row) {
				t.Fatalf("did not hold: exited %v, kinds %v", h.exited(), k)
			}
			if _, err := h.stdin.Write([]byte{'g'}); err != nil {
				t.Fatal(err)
			}
			if code := h.exitCode(t); code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, h.stderr.String())
			}
			if k := h.kinds(t); !slices.Contains(k, c.row) {
				t.Fatalf("no %s row after the byte: kinds %v", c.row, k)
			}
		})
	}
}

func TestRunHoldGoesOnWhenStdinIsAtItsEnd(t *testing.T) {
	for _, c := range holdCells(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := startHarness(t, append(c.args, "--hold")...)
			if err := h.stdin.Close(); err != nil {
				t.Fatal(err)
			}
			if code := h.exitCode(t); code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, h.stderr.String())
			}
			if k := h.kinds(t); !slices.Contains(k, "check") || !slices.Contains(k, c.row) {
				t.Fatalf("kinds %v", k)
			}
		})
	}
}

// Neither a failed check nor --iterations reads stdin: the pipe stays open and silent, and the
// process exits all the same.
func TestRunHoldReadsNothingAfterAFailedCheckNorUnderIterations(t *testing.T) {
	c := holdCells(t)[0]
	wrong := slices.Clone(c.args)
	wrong[slices.Index(wrong, "--expect-hash")+1] = "0123456789abcdef"
	for _, tc := range []struct {
		name string
		args []string
		code int
		row  string
	}{
		{"failed check", wrong, exitMismatch, "check"},
		{"iterations", append(slices.Clone(c.args), "--iterations", "3"), exitOK, "sample"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startHarness(t, append(tc.args, "--hold")...)
			if code := h.exitCode(t); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, h.stderr.String())
			}
			if k := h.kinds(t); !slices.Contains(k, tc.row) {
				t.Fatalf("kinds %v", k)
			}
		})
	}
}
