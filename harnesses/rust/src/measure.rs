//! The timed loop (spec/protocol.md, `run` steps 3-4): wall time from Instant, thread CPU time
//! from clock_gettime(CLOCK_THREAD_CPUTIME_ID). The fixed-count loop of step 9
//! (`fixed`) reads no clock.

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

#[cfg(test)]
mod tests {
    use super::Histogram;

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
