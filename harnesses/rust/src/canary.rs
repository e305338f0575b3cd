//! The canary (spec/protocol.md, `run` step 4, protocol 1.9; docs/methodology.md, "The canary").
//!
//! Why: a host slows a whole process down at times (another tenant on the core's sibling, a
//! frequency drop, an interrupt storm), and that slowdown lands in every sample of the process
//! alike, so no statistic over the samples can see it. The canary is a fixed computation that
//! allocates nothing and stays in registers and L1, so its time moves only with how fast the core
//! runs this process at that moment. It is timed alone just before every timed batch (outside the
//! batch's timing) and its time goes in the batch's `sample` row as `canary_ns`; the orchestrator
//! divides each process's times by its canary's median relative to the harness's clean canary
//! time in the run, which takes the host's slowdowns of a whole process out.
//!
//! It is the same computation in every harness: a 256-byte table `buf[i] = (i * 37 + 1) & 0xff`
//! that lives as long as the process, four wrapping u64 accumulators starting at 1, 2, 3, 4 on
//! every run, and `R` rounds of `a = a*31 + buf[i]; b = b*37 + buf[i+1]; c = c*41 + buf[i+2];
//! d = d*43 + buf[i+3]` for i in 0, 4, .., 252, round `r` ending with `buf[r & 255] ^= a & 0xff`.
//! It returns `a ^ b ^ c ^ d`, which is XORed into a process-wide sink so the compiler cannot drop
//! the work. Compiled harnesses use R = 300 (about 20 µs on a clean core).

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// Rounds per run: the compiled harnesses' R (spec/protocol.md step 4).
pub const ROUNDS: u32 = 300;

/// Untimed runs before the first sample (caches and predictors warm).
pub const WARMUP_RUNS: u32 = 20;

/// Where every result goes, so that no run is dead code.
static SINK: AtomicU64 = AtomicU64::new(0);

/// The process's table, initialised once (at compile time) and kept for the process's life.
static PROCESS: Mutex<Canary> = Mutex::new(Canary::new());

/// The canary's 256-byte table; each run changes it (round `r` XORs one byte), so consecutive runs
/// differ. Tests use a fresh one; the harness uses the process's (`process()`).
pub struct Canary {
    buf: [u8; 256],
}

impl Default for Canary {
    fn default() -> Self {
        Self::new()
    }
}

impl Canary {
    /// A fresh table: `buf[i] = (i * 37 + 1) & 0xff`.
    pub const fn new() -> Self {
        let mut buf = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            buf[i] = ((i * 37 + 1) & 0xff) as u8;
            i += 1;
        }
        Canary { buf }
    }

    /// One run of `rounds` rounds; returns `a ^ b ^ c ^ d`.
    #[inline(never)]
    pub fn run(&mut self, rounds: u32) -> u64 {
        let (mut a, mut b, mut c, mut d) = (1u64, 2u64, 3u64, 4u64);
        for r in 0..rounds {
            for q in self.buf.chunks_exact(4) {
                a = a.wrapping_mul(31).wrapping_add(q[0] as u64);
                b = b.wrapping_mul(37).wrapping_add(q[1] as u64);
                c = c.wrapping_mul(41).wrapping_add(q[2] as u64);
                d = d.wrapping_mul(43).wrapping_add(q[3] as u64);
            }
            self.buf[(r & 255) as usize] ^= (a & 0xff) as u8;
        }
        a ^ b ^ c ^ d
    }

    /// The `WARMUP_RUNS` untimed runs before the first sample.
    pub fn warm(&mut self) {
        for _ in 0..WARMUP_RUNS {
            sink(self.run(ROUNDS));
        }
    }

    /// One run of `ROUNDS` rounds timed alone with the monotonic clock (`Instant`, as the
    /// samples' `wall_ns`): the sample row's `canary_ns`.
    pub fn timed(&mut self) -> u64 {
        let t0 = Instant::now();
        // black_box: the result exists before the clock is read again
        let x = black_box(self.run(ROUNDS));
        let ns = t0.elapsed().as_nanos() as u64;
        sink(x);
        ns
    }
}

/// XORs `x` into the process-wide sink (a plain load and store: no locked instruction).
fn sink(x: u64) {
    SINK.store(SINK.load(Ordering::Relaxed) ^ x, Ordering::Relaxed);
}

/// The process's canary table. The guard is held by the sampling loop alone; a panic caught
/// around it (typed rows) only poisons the lock, which does not matter to the table.
pub fn process() -> MutexGuard<'static, Canary> {
    PROCESS.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::Canary;

    #[test]
    fn reference_values_on_a_fresh_table() {
        let mut c = Canary::new();
        assert_eq!(c.run(1), 0x10bb_dc97_09c2_1044);
        assert_eq!(c.run(1), 0x90a4_39f3_bbe3_04e7);
        let mut c = Canary::new();
        assert_eq!(c.run(300), 0x722b_95da_6743_ec00);
        assert_eq!(c.run(300), 0x2e4d_829e_d157_3db4);
        assert_eq!(super::ROUNDS, 300);
    }

    #[test]
    fn timed_runs_take_time() {
        let mut c = Canary::new();
        c.warm();
        assert!(c.timed() > 0);
    }
}
