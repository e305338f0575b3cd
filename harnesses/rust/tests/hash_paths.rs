//! The hash's fast paths (`hash::hash_bytes_seeded`: a short string read as two masked words, up to
//! 15 bytes past its end within its page; a long one's tail without a branch) against spec/hash.md's
//! byte-by-byte definition (`hash::spec_bytes`, pinned to the spec's worked example below), for
//! every length and placement, including strings that end exactly at a page followed by an
//! inaccessible one (a read past that page would crash the test).

use serbench_rust::hash::{self, spec_bytes};

/// Two pages, the second inaccessible, the first filled with pseudo-random bytes.
struct Guarded {
    base: *mut u8,
    page: usize,
}

impl Guarded {
    fn new() -> Guarded {
        // SAFETY: a fresh private anonymous mapping, then protecting its second page
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE) as usize;
            let base = libc::mmap(
                std::ptr::null_mut(),
                2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(base, libc::MAP_FAILED);
            assert_eq!(libc::mprotect((base as *mut u8).add(page) as *mut libc::c_void, page, libc::PROT_NONE), 0);
            let base = base as *mut u8;
            let mut x = 0x2545_f491_4f6c_dd1du64;
            for i in 0..page {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *base.add(i) = x as u8;
            }
            Guarded { base, page }
        }
    }

    /// The `n` bytes at `at` of the accessible page.
    fn bytes(&self, at: usize, n: usize) -> &[u8] {
        assert!(at + n <= self.page);
        // SAFETY: inside the accessible page, which lives as long as self
        unsafe { std::slice::from_raw_parts(self.base.add(at), n) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in new
        unsafe { libc::munmap(self.base as *mut libc::c_void, 2 * self.page) };
    }
}

#[test]
fn every_length_and_placement_hashes_as_the_spec_defines() {
    let g = Guarded::new();
    let seed = hash::seed(hash::STRING);
    let mut checked = 0;
    for n in 0..=300usize {
        // every start within 40 bytes of the page's end (ending at it, and crossing the 16-byte
        // check's boundary from both sides), then starts across the page
        let near_end = (0..=40).filter(|gap| n + gap <= g.page).map(|gap| g.page - n - gap);
        let across = (0..).map(|k| k * 61).take_while(|at| at + n <= g.page);
        for at in near_end.chain(across) {
            let b = g.bytes(at, n);
            assert_eq!(hash::hash_bytes_seeded(seed, b), spec_bytes(seed, b), "length {n} at offset {at}");
            checked += 1;
        }
    }
    assert!(checked > 30_000, "only {checked} placements");
    // an empty slice's pointer dangles: it must never be read
    assert_eq!(hash::hash_bytes_seeded(seed, &[]), seed);
    // the spec's worked example, so that the transcription above is pinned too
    assert_eq!(spec_bytes(seed, b"abc"), 0xfffe_6639_1ebe_87c4);
}
