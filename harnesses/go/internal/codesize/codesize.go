// Package codesize is the code size per library of the Go harness (spec/fairness.md rule 9;
// docs/libraries.md, "Go code size"), as the Rust harness measures it (harnesses/rust/src/codesize.rs).
//
// Every library is linked into the one harness executable, so its size says nothing per library.
// Instead the orchestrator builds, on request (`serbench run --code-size`, or full mode), one small
// stripped *probe* executable per library (cmd/sizeprobe, built with the tags `sizeprobe` and
// `sizeprobe_<library>`, so that only that library's adapter file is compiled in: every adapter
// file carries `!sizeprobe || sizeprobe_<library>`) and one with the tag `sizeprobe` alone, the
// baseline. A library's code size is its probe's allocated ELF sections minus the baseline
// probe's. The probes live under a folder named by the fingerprint of the sources this binary was
// built from (set at link time by the orchestrator), so `list` never reports the sizes of other
// sources.
package codesize

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// BaselineProbe names the probe with no library: what every probe has in common (the harness's
// hashes, typed records, reference decoder, the Go runtime).
const BaselineProbe = "_baseline"

// Tag is the build tag that compiles library's adapter file into a probe: "sizeprobe_" and the
// library's name in lower case with every character other than a letter or digit as '_'
// (go-codec: sizeprobe_go_codec). The harness's tests check every adapter file's constraint
// against the libraries it registers.
func Tag(library string) string {
	var b strings.Builder
	b.WriteString("sizeprobe_")
	for _, r := range strings.ToLower(library) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ProbeName is the file name of a probe: the tag (or BaselineProbe), prefixed with the
// GOEXPERIMENT it was built with, if any (the jsonv2 binary's libraries have their own probes and
// their own baseline, built with the same experiment).
func ProbeName(tagOrBaseline, goexperiment string) string {
	if goexperiment == "" {
		return tagOrBaseline
	}
	return goexperiment + "-" + tagOrBaseline
}

// Dir is the folder of the probes of the sources with this fingerprint: bin/size-probes/<fp>
// beside the harness executable exe ("" when exe or the fingerprint is unknown).
func Dir(exe, fingerprint string) string {
	if exe == "" || fingerprint == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(exe), "size-probes", fingerprint)
}

// SectionBytes is the sum of the sizes of the allocated ELF sections that have contents in the
// file (code, read-only data, the pc-line and type tables the Go runtime reads, data; not .bss /
// .noptrbss), as the native and Rust harnesses count: section sizes, not the file size, which
// moves in page steps.
func SectionBytes(path string) (uint64, error) {
	f, err := elf.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var total uint64
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Type != elf.SHT_NOBITS {
			total += s.Size
		}
	}
	return total, nil
}

// LibraryBytes is the code size of the probe named probe in dir: its section bytes minus the
// baseline's (named baseline). ok is false when either probe is missing (not built: no size, never
// a guess); err says why a probe that exists cannot be read.
func LibraryBytes(dir, probe, baseline string) (bytes int64, ok bool, err error) {
	lib, base := filepath.Join(dir, probe), filepath.Join(dir, baseline)
	for _, p := range []string{lib, base} {
		if _, err := os.Stat(p); err != nil {
			return 0, false, nil
		}
	}
	l, err := SectionBytes(lib)
	if err != nil {
		return 0, true, fmt.Errorf("%s: %w", probe, err)
	}
	b, err := SectionBytes(base)
	if err != nil {
		return 0, true, fmt.Errorf("%s: %w", baseline, err)
	}
	return int64(l) - int64(b), true, nil
}

// Method says how a library's figure was measured (code_size_method in `list`).
func Method(library string, rows int, goexperiment string) string {
	exp := ""
	if goexperiment != "" {
		exp = ", both with GOEXPERIMENT=" + goexperiment
	}
	return fmt.Sprintf("allocated ELF sections of a stripped probe executable (cmd/sizeprobe, go build -trimpath "+
		"-ldflags='-s -w' -tags sizeprobe,%s) compiled with only %s's adapter file and calling every operation "+
		"of its %d benchmark(s), minus those of the probe with no library (the harness's hashes, records and "+
		"reference decoder, the Go runtime)%s; shared by all of %s's rows", Tag(library), library, rows, exp, library)
}
