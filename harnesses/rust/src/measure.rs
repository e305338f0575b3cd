//! The timed loop (spec/protocol.md, `run` steps 3-4): wall time from Instant, thread CPU time
//! from clock_gettime(CLOCK_THREAD_CPUTIME_ID).

use std::hint::black_box;
use std::time::Instant;

pub const MIN_BATCH_NS: u64 = 1_000_000;

pub struct Sample {
    pub iterations: u64,
    pub wall_ns: u64,
    pub cpu_ns: Option<u64>,
}

pub fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

pub type Op<'a> = dyn FnMut() -> Result<u64, String> + 'a;

#[inline(never)]
fn batch(op: &mut Op, n: u64) -> Result<(), String> {
    for _ in 0..n {
        black_box(op()?);
    }
    Ok(())
}

/// Calibrates (doubling the batch from 1 until one lasts `max(1 ms, budget/50)`; this is the
/// warm-up), then samples until the budget has elapsed and `min_samples` exist.
/// Returns the samples, the batch size and the calibration time.
pub fn sample(op: &mut Op, budget_ns: u64, min_samples: usize) -> Result<(Vec<Sample>, u64, u64), String> {
    let target = MIN_BATCH_NS.max(budget_ns / 50);
    let start = Instant::now();
    let mut n = 1u64;
    loop {
        let t0 = Instant::now();
        batch(op, n)?;
        if t0.elapsed().as_nanos() as u64 >= target {
            break;
        }
        n *= 2;
    }
    let cal_ns = start.elapsed().as_nanos() as u64;
    let mut samples = Vec::new();
    let start = Instant::now();
    while (start.elapsed().as_nanos() as u64) < budget_ns || samples.len() < min_samples {
        let c0 = thread_cpu_ns();
        let t0 = Instant::now();
        batch(op, n)?;
        let wall = t0.elapsed().as_nanos() as u64;
        let c1 = thread_cpu_ns();
        let cpu = match (c0, c1) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        samples.push(Sample { iterations: n, wall_ns: wall, cpu_ns: cpu });
    }
    Ok((samples, n, cal_ns))
}
