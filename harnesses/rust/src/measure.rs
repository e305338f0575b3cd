//! The timed loop (spec/protocol.md, `run` steps 3-4): wall time from Instant, thread CPU time
//! from clock_gettime(CLOCK_THREAD_CPUTIME_ID); before each timed batch, the canary (step 4,
//! `crate::canary`) timed alone. The fixed-count loop of step 9 (`fixed`) reads no clock and runs
//! no canary, nor does the latency pass (step 7).

use std::hint::black_box;
use std::time::Instant;

use crate::canary;

pub const MIN_BATCH_NS: u64 = 1_000_000;

pub struct Sample {
    pub iterations: u64,
    pub wall_ns: u64,
    pub cpu_ns: Option<u64>,
    /// The canary's time, run alone just before this batch (spec/protocol.md step 4).
    pub canary_ns: u64,
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
/// warm-up), warms the canary (`canary::WARMUP_RUNS` untimed runs), then samples until the budget
/// has elapsed and `min_samples` exist, timing the canary alone just before each batch.
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
    let mut canary = canary::process();
    canary.warm();
    let mut samples = Vec::new();
    let start = Instant::now();
    while (start.elapsed().as_nanos() as u64) < budget_ns || samples.len() < min_samples {
        // outside the batch's timing: the batch's clocks are read after it
        let canary_ns = canary.timed();
        let c0 = thread_cpu_ns();
        let t0 = Instant::now();
        batch(op, n)?;
        let wall = t0.elapsed().as_nanos() as u64;
        let c1 = thread_cpu_ns();
        let cpu = match (c0, c1) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        samples.push(Sample { iterations: n, wall_ns: wall, cpu_ns: cpu, canary_ns });
    }
    Ok((samples, n, cal_ns))
}

/// The fixed-count loop of the instruction-count mode (spec/protocol.md, `run` step 9): one
/// untimed warm-up iteration, then exactly `n` iterations as one batch; returns `n`. No clock is
/// read, so the instructions executed depend only on the build, the input and `n` (even the
/// digits of a measured time, formatted into the results row, would vary them).
pub fn fixed(op: &mut Op, n: u64) -> Result<u64, String> {
    batch(op, 1)?;
    batch(op, n)?;
    Ok(n)
}

/// A log-bucketed latency histogram (spec/protocol.md `--latency`): bucket (k, j) holds values in
/// [2^k (1 + j/64), 2^k (1 + (j+1)/64)), under 1.6% relative error, as HdrHistogram with 2
/// significant digits. Values under 64 ns are exact.
pub struct Histogram {
    counts: Vec<u64>,
    count: u64,
    max: u64,
}

const SUB: u32 = 6; // 64 sub-buckets per power of two

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

impl Histogram {
    pub fn new() -> Self {
        Histogram { counts: vec![0; 64 << SUB], count: 0, max: 0 }
    }
    #[inline]
    fn index(v: u64) -> usize {
        if v == 0 {
            return 0; // shares bucket 0 with 1 ns
        }
        let k = 63 - v.leading_zeros();
        let j = if k >= SUB { (v >> (k - SUB)) & 63 } else { (v << (SUB - k)) & 63 };
        ((k as usize) << SUB) | j as usize
    }
    /// The highest value that falls in bucket `i`.
    fn highest(i: usize) -> u64 {
        let (k, j) = ((i >> SUB) as u32, (i & 63) as u64);
        if k >= SUB {
            ((65 + j) << (k - SUB)) - 1
        } else {
            ((64 + j) << k) >> SUB // exact below 64 ns
        }
    }
    #[inline]
    pub fn record(&mut self, v: u64) {
        self.counts[Self::index(v)] += 1;
        self.count += 1;
        self.max = self.max.max(v);
    }
    pub fn count(&self) -> u64 {
        self.count
    }
    pub fn max(&self) -> u64 {
        self.max
    }
    /// The non-empty buckets as (highest value, count), in order: the latency row's `buckets`, which
    /// the orchestrator pools over a cell's forks (spec/protocol.md step 7).
    pub fn buckets(&self) -> Vec<(u64, u64)> {
        self.counts.iter().enumerate().filter(|&(_, &c)| c != 0).map(|(i, &c)| (Self::highest(i), c)).collect()
    }
    /// The value at quantile `q` (0 < q <= 1): the bucket holding the ceil(q * count)-th smallest.
    pub fn percentile(&self, q: f64) -> u64 {
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count.max(1));
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Self::highest(i).min(self.max);
            }
        }
        self.max
    }
}

/// The latency pass: one untimed warm-up pass over the `n` records, then passes over all of them,
/// each operation timed alone, until `min_ops` operations and `budget_ns` have passed.
pub fn latency(
    op: &mut dyn FnMut(usize) -> Result<u64, String>,
    n: usize,
    budget_ns: u64,
    min_ops: u64,
) -> Result<Histogram, String> {
    for i in 0..n {
        black_box(op(i)?);
    }
    let mut h = Histogram::new();
    let start = Instant::now();
    loop {
        for i in 0..n {
            let t0 = Instant::now();
            let r = op(i);
            let dt = t0.elapsed().as_nanos() as u64;
            black_box(r?);
            h.record(dt);
        }
        if h.count() >= min_ops && start.elapsed().as_nanos() as u64 >= budget_ns {
            return Ok(h);
        }
    }
}

/// The input buffer of a cell: spec/fairness.md rule 1's fresh copy of the input for every
/// iteration goes into this one buffer, allocated once per cell, as the native harness's memcpy into
/// its reused buffer and Go's and Java's `fresh`. A new `Vec` per operation (as before) put a
/// `malloc` and a `free` in every timed operation (about 400 instructions at size 2, the same in the
/// rows and their baselines) and one allocation of the input's size in every Rust row's allocation
/// count, which no other harness's rows carry (docs/studies/rust-input-copy.md, "Rust's input copy"). 16-byte
/// aligned: rkyv and other zero-copy readers need aligned input.
#[derive(Default)]
pub struct AlignedBuf {
    buf: Vec<u128>,
}

impl AlignedBuf {
    /// A buffer for inputs of up to `cap` bytes, its pages touched now, so that no timed operation
    /// takes their first faults.
    pub fn with_capacity(cap: usize) -> Self {
        let mut buf = vec![0u128; cap.div_ceil(16)];
        // calloc's pages may be mapped on first write; the black_box keeps this write
        black_box(&mut buf[..]).fill(0);
        AlignedBuf { buf }
    }

    /// Copies `b` to the front of the buffer (growing it if `b` is longer than any before: the
    /// checks outside the timed loop fill an empty one once) and
    /// returns exactly those bytes, for the library to read or overwrite in place.
    pub fn fresh(&mut self, b: &[u8]) -> &mut [u8] {
        if b.len() > self.buf.len() * 16 {
            self.buf.resize(b.len().div_ceil(16), 0);
        }
        // SAFETY: the buffer's 16 * buf.len() >= b.len() bytes are initialised (zeroed, then
        // written), and u8 has no alignment or validity requirement
        let dst = unsafe { std::slice::from_raw_parts_mut(self.buf.as_mut_ptr() as *mut u8, b.len()) };
        dst.copy_from_slice(b);
        dst
    }

    /// Where the buffer starts (tests: it is reused, never reallocated, once large enough).
    pub fn as_ptr(&self) -> *const u8 {
        self.buf.as_ptr() as *const u8
    }
}

#[cfg(test)]
mod tests {
    use super::{AlignedBuf, Histogram};

    #[test]
    fn aligned_buf_is_reused_aligned_and_fresh_each_time() {
        let long: Vec<u8> = (0..100u8).collect();
        let mut b = AlignedBuf::with_capacity(long.len());
        let at = b.as_ptr();
        assert_eq!(at as usize % 16, 0);
        let got = b.fresh(&long);
        assert_eq!(got, &long[..]);
        // an in-place parser overwrites its input; the next operation gets the input again
        got.fill(0xff);
        assert_eq!(b.fresh(&long), &long[..]);
        // a shorter input: exactly its bytes, in the same buffer
        assert_eq!(b.fresh(&long[..7]), &long[..7]);
        assert_eq!(b.fresh(&[]), &[] as &[u8]);
        assert_eq!(b.as_ptr(), at);
        // a longer input than the capacity grows it (outside a timed loop: callers size it first)
        let longer: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        assert_eq!(b.fresh(&longer), &longer[..]);
        assert_eq!(b.as_ptr() as usize % 16, 0);
        assert_eq!(AlignedBuf::default().fresh(&long[3..9]), &long[3..9]);
    }

    #[test]
    fn histogram_buckets_and_percentiles() {
        for v in [1u64, 2, 63, 64, 65, 127, 128, 1000, 123_456, 1 << 40] {
            let i = Histogram::index(v);
            assert!(Histogram::highest(i) >= v, "{v}");
            assert!(Histogram::highest(i) as f64 <= v as f64 * 1.016 + 1.0, "{v}");
            if v < 64 {
                assert_eq!(Histogram::highest(i), v);
            }
        }
        let mut h = Histogram::new();
        for v in 1..=10_000u64 {
            h.record(v);
        }
        assert_eq!(h.count(), 10_000);
        assert_eq!(h.max(), 10_000);
        let p50 = h.percentile(0.5);
        assert!((5000..=5080).contains(&p50), "{p50}");
        assert_eq!(h.percentile(1.0), 10_000);
        assert!(h.percentile(0.999) >= 9990);
    }
}
