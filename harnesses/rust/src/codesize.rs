//! Code size per library (spec/fairness.md rule 9; docs/libraries.md, "Rust code size").
//!
//! Every crate is linked into the one harness executable, so its size says nothing per library.
//! Instead the orchestrator builds, on request, one small *probe* executable per library
//! (`src/probe.rs`, built with `SERBENCH_RUST_SIZE_PROBE=<crate>` so only that library's adapter is
//! registered) and one with no library, all with the release settings, stripped. A library's code
//! size is its probe's allocated ELF sections minus the empty probe's. The probes are kept under a
//! folder named by the source fingerprint, so `list` never reports sizes of other sources.

use std::path::{Path, PathBuf};

/// FNV-1a of the sources, Cargo files and compiler version (build.rs).
pub const FINGERPRINT: &str = env!("SERBENCH_SOURCE_FP");
/// The probe registering no library: what every probe has in common (loop, hash, std).
pub const BASELINE_PROBE: &str = "_baseline";

/// `<target>/size-probes/<fingerprint>` for an executable in `<target>/<profile>/`.
pub fn probe_dir(exe: &Path) -> Option<PathBuf> {
    Some(exe.parent()?.parent()?.join("size-probes").join(FINGERPRINT))
}

/// Bytes of the allocated ELF sections that have contents in the file (code, read-only data,
/// data, dynamic-linking tables; not `.bss`), as in the native harness: section sizes, not the
/// file size, which moves in page steps. Only 64-bit little-endian ELF (this harness's targets).
pub fn section_bytes(elf: &[u8]) -> Result<u64, String> {
    const SHF_ALLOC: u64 = 0x2;
    const SHT_NOBITS: u32 = 8;
    let u16_at = |o: usize| elf.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let u32_at = |o: usize| elf.get(o..o + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let u64_at = |o: usize| elf.get(o..o + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
    if elf.get(0..6) != Some(b"\x7fELF\x02\x01") {
        return Err("not a 64-bit little-endian ELF file".into());
    }
    let bad = || "truncated ELF section table".to_string();
    let shoff = u64_at(0x28).ok_or_else(bad)? as usize;
    let (entsize, count) = (u16_at(0x3a).ok_or_else(bad)?, u16_at(0x3c).ok_or_else(bad)?);
    let mut total = 0;
    for i in 0..count {
        let h = shoff + i * entsize;
        let (kind, flags, size) = (u32_at(h + 4), u64_at(h + 8), u64_at(h + 32));
        let (Some(kind), Some(flags), Some(size)) = (kind, flags, size) else { return Err(bad()) };
        if flags & SHF_ALLOC != 0 && kind != SHT_NOBITS {
            total += size;
        }
    }
    Ok(total)
}

/// Code size of `library` from the probes in `dir`: None when either probe is missing.
pub fn library_bytes(dir: &Path, library: &str) -> Option<Result<i64, String>> {
    let size = |name: &str| -> Option<Result<u64, String>> {
        let bytes = std::fs::read(dir.join(name)).ok()?;
        Some(section_bytes(&bytes).map_err(|e| format!("{name}: {e}")))
    };
    let (lib, base) = (size(library)?, size(BASELINE_PROBE)?);
    Some(lib.and_then(|l| base.map(|b| l as i64 - b as i64)))
}

pub fn method(library: &str, rows: usize) -> String {
    format!(
        "allocated ELF sections of a stripped probe executable registering only {library}'s {rows} benchmark(s), \
         minus those of the probe registering none (release profile, fat LTO); shared by all of {library}'s rows"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF64 header and section table: the sum keeps allocated sections with contents.
    fn elf(sections: &[(u32, u64, u64)]) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[..6].copy_from_slice(b"\x7fELF\x02\x01");
        b[0x28..0x30].copy_from_slice(&64u64.to_le_bytes());
        b[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        b[0x3c..0x3e].copy_from_slice(&(sections.len() as u16).to_le_bytes());
        for &(kind, flags, size) in sections {
            let mut h = vec![0u8; 64];
            h[4..8].copy_from_slice(&kind.to_le_bytes());
            h[8..16].copy_from_slice(&flags.to_le_bytes());
            h[32..40].copy_from_slice(&size.to_le_bytes());
            b.extend(h);
        }
        b
    }

    #[test]
    fn counts_allocated_sections_with_contents() {
        // .text (PROGBITS, alloc+exec), .bss (NOBITS, alloc), .symtab (not alloc)
        let e = elf(&[(1, 0x6, 1000), (8, 0x3, 500), (2, 0, 700), (1, 0x2, 24)]);
        assert_eq!(section_bytes(&e), Ok(1024));
    }

    #[test]
    fn rejects_what_is_not_elf64() {
        assert!(section_bytes(b"#!/bin/sh\n").is_err());
        let mut e = elf(&[(1, 0x6, 1000)]);
        e.truncate(100);
        assert_eq!(section_bytes(&e), Err("truncated ELF section table".into()));
    }

    #[test]
    fn a_size_is_the_difference_to_the_empty_probe() {
        let dir = std::env::temp_dir().join(format!("serbench-codesize-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(BASELINE_PROBE), elf(&[(1, 0x6, 1000)])).unwrap();
        std::fs::write(dir.join("lib"), elf(&[(1, 0x6, 4000), (1, 0x2, 96)])).unwrap();
        assert_eq!(library_bytes(&dir, "lib"), Some(Ok(3096)));
        assert_eq!(library_bytes(&dir, "other"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
