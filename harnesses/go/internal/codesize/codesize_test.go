package codesize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestATagIsTheLibraryNameInLowerCaseWithUnderscores(t *testing.T) {
	for lib, want := range map[string]string{
		"go-codec":                   "sizeprobe_go_codec",
		"encoding/json/v2":           "sizeprobe_encoding_json_v2",
		"google.golang.org/protobuf": "sizeprobe_google_golang_org_protobuf",
		"fastjson":                   "sizeprobe_fastjson",
	} {
		if got := Tag(lib); got != want {
			t.Errorf("Tag(%q) = %q, want %q", lib, got, want)
		}
	}
	if ProbeName("sizeprobe_x", "") != "sizeprobe_x" || ProbeName(BaselineProbe, "jsonv2") != "jsonv2-_baseline" {
		t.Error("probe names")
	}
}

// The test binary itself is an ELF executable: its allocated sections with contents are most of
// it, never more than the file.
func TestSectionBytesCountsTheAllocatedSectionsOfAnELFFile(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	st, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	n, err := SectionBytes(exe)
	if err != nil {
		t.Fatal(err)
	}
	if n < 100_000 || n > uint64(st.Size()) {
		t.Fatalf("%d bytes of sections in a file of %d", n, st.Size())
	}
}

func TestSectionBytesRejectsWhatIsNotELF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := SectionBytes(p); err == nil {
		t.Fatal("a shell script counted as ELF")
	}
}

func TestALibraryHasNoSizeUntilBothItsProbeAndTheBaselineExist(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	elf, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, ok, err := LibraryBytes(dir, "lib", BaselineProbe); ok || err != nil {
		t.Fatal("a size without probes")
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "lib"), elf, 0o755))
	if _, ok, _ := LibraryBytes(dir, "lib", BaselineProbe); ok {
		t.Fatal("a size without the baseline probe")
	}
	must(os.WriteFile(filepath.Join(dir, BaselineProbe), elf, 0o755))
	if n, ok, err := LibraryBytes(dir, "lib", BaselineProbe); !ok || err != nil || n != 0 {
		t.Fatalf("the same executable twice: %d, %v, %v", n, ok, err)
	}
	must(os.WriteFile(filepath.Join(dir, "broken"), []byte("not an executable"), 0o755))
	if _, ok, err := LibraryBytes(dir, "broken", BaselineProbe); !ok || err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("an unreadable probe must be an error naming it: %v, %v", ok, err)
	}
}
