// Package measure is the timed loop (spec/protocol.md, run steps 3, 4 and 9) and the allocation
// pass. Wall time comes from time.Now's monotonic clock. The garbage collector runs inside the
// timed batches at the process's settings (GOGC, GOMEMLIMIT; default unless the user set them):
// its cost is part of what a Go program pays for what it allocates (DESIGN §10).
package measure

import (
	"math"
	"math/bits"
	"runtime"
	"time"

	"serbench/harnesses/go/internal/canary"
)

// MinBatchNs is the shortest batch: a sample lasts at least max(MinBatchNs, budget/50). It is
// 10 ms here, not the protocol's 1 ms (spec/protocol.md run step 3 allows a collected runtime
// more): a collection runs every few MB allocated, so a 1 ms batch either holds one or not, and
// the median of such batches leaves out the collector the user pays for (fairness.md rule 6) while
// their spread is large (robust CV 23% over Go's cells in quick mode, docs/methodology.md). A
// 10 ms batch holds the collections its own work causes, so each sample carries their cost.
const MinBatchNs = 10_000_000

// Op is one timed operation; it returns a hash that goes to the sink.
type Op func() (uint64, error)

// Sink keeps every result alive: a package-level variable the compiler cannot prove unused, so
// no work is optimised away (spec/fairness.md rule 3).
var Sink uint64

// Sample is one batch: iterations and wall time, and the time of the canary run just before it
// (spec/protocol.md run step 4, package canary).
type Sample struct {
	Iterations uint64
	WallNs     uint64
	CanaryNs   uint64
}

//go:noinline
func batch(op Op, n uint64) error {
	var acc uint64
	for i := uint64(0); i < n; i++ {
		h, err := op()
		if err != nil {
			return err
		}
		acc += h
	}
	Sink += acc
	return nil
}

// NextBatch is the size of the next calibration batch after n iterations took elapsedNs, aiming at
// targetNs: the predicted count plus 20%, at most 100 times n and at least n+1. This is how Go's own
// `go test -bench` grows b.N (predictN in src/testing/benchmark.go). Doubling from 1 (spec/protocol.md
// run step 3) spends up to twice the target before sampling and lands between one and two targets;
// with Go's 10 ms minimum that was about 35 ms of every 115 ms process and longer samples after it
// (docs/methodology.md, "Where a quick run's time goes"). The steady-state rule of the orchestrator
// still drops the samples that a shorter warm-up leaves slow.
func NextBatch(targetNs, n, elapsedNs uint64) uint64 {
	elapsedNs = max(elapsedNs, 1)
	next := uint64(float64(targetNs) * float64(n) / float64(elapsedNs))
	next += next / 5
	return max(min(next, 100*n, 1_000_000_000), n+1)
}

// Run calibrates (from one iteration, growing the batch by NextBatch until one lasts
// max(MinBatchNs, budget/50); this is also the warm-up), then samples until the budget has elapsed
// and minSamples exist. Before the first sample the canary runs canary.Warmups times untimed; before
// each batch it runs once, timed alone by the same clock, outside the batch's time (spec/protocol.md
// run step 4). It returns the samples, the batch size and the calibration time.
func Run(op Op, budgetNs uint64, minSamples int) ([]Sample, uint64, uint64, error) {
	target := max(uint64(MinBatchNs), budgetNs/50)
	start := time.Now()
	n := uint64(1)
	cold := true
	for {
		t0 := time.Now()
		if err := batch(op, n); err != nil {
			return nil, 0, 0, err
		}
		took := uint64(time.Since(t0))
		if took >= target && cold {
			// A process's first operation is its coldest (the page faults of a fresh heap, the
			// collector's first cycle): one that reaches the target alone is timed again before it sets
			// the batch. Accepting it left batches of one 2 ms operation where the target is 10 ms
			// (sonic-typed typed-decode on product-large, 2026-12-04: its samples 2 or 6 ms as a
			// collection fell in them or not; docs/methodology.md, "A process's mean for a collected
			// runtime").
			cold = false
			continue
		}
		cold = false
		if took >= target {
			// the warm-up's iterations are slower than the steady state's (samples of 9.2 ms after
			// a 10 ms calibration batch of encoding-json tree on size-1), so the batch gets the
			// prediction's 20% headroom and the samples last at least the target
			n += n / 5
			break
		}
		n = NextBatch(target, n, took)
	}
	cal := uint64(time.Since(start))
	// Every process starts sampling from a collected heap, as `go test -bench` collects before each
	// timed run (runN in src/testing/benchmark.go): otherwise the garbage of loading and calibration
	// sets the pacer's first goals, differently in each process.
	runtime.GC()
	for i := 0; i < canary.Warmups; i++ {
		canary.Process.Run(canary.Rounds)
	}
	var samples []Sample
	start = time.Now()
	for uint64(time.Since(start)) < budgetNs || len(samples) < minSamples {
		c0 := time.Now()
		canary.Process.Run(canary.Rounds)
		t0 := time.Now() // the canary's end is the batch's start: one clock read, in neither's work
		if err := batch(op, n); err != nil {
			return nil, 0, 0, err
		}
		samples = append(samples, Sample{Iterations: n, WallNs: uint64(time.Since(t0)), CanaryNs: uint64(t0.Sub(c0))})
	}
	return samples, n, cal, nil
}

// Fixed is the fixed-count loop of the instruction-count mode (protocol step 9): one untimed
// warm-up iteration, then exactly n iterations as one batch; no clock is read.
func Fixed(op Op, n uint64) error {
	if err := batch(op, 1); err != nil {
		return err
	}
	return batch(op, n)
}

// AllocIterations is the most operations the allocation pass counts over, and AllocBudgetNs the
// time it may spend on them: a slow operation is counted over fewer (at least AllocMinIterations).
// Twenty 70 ms operations of a size-5 document made the allocation pass a second and a half of the
// cell's first process, longer than its samples, for a count that a few hundred thousand
// allocations per operation already make exact to a fraction of a percent.
const (
	AllocIterations    = 20
	AllocMinIterations = 2
	AllocBudgetNs      = 50_000_000
)

// AllocCount is how many operations the allocation pass counts for an operation of about opNs
// (from the samples): as many as fit AllocBudgetNs, within [AllocMinIterations, AllocIterations].
func AllocCount(opNs uint64) int {
	if opNs == 0 {
		return AllocIterations
	}
	return int(min(max(AllocBudgetNs/opNs, AllocMinIterations), AllocIterations))
}

// Allocs is the separate allocation pass: runtime.ReadMemStats around n operations, as `go test
// -benchmem` counts them. Go has a garbage-collected runtime with no allocator hook a program can
// install, so the counts are the runtime's own (Mallocs: heap objects allocated; TotalAlloc: bytes),
// whose deltas stay exact whatever the collector frees meanwhile; the mean over several operations
// hides the few allocations the runtime itself makes (ReadMemStats stops the world, so it is never
// inside a timed loop). One warm-up operation first, so one-time set-up (a library's cached codec
// for a type, a pool's first buffer) is not counted.
func Allocs(op Op, n int) (allocsPerOp, bytesPerOp float64, err error) {
	if _, err = op(); err != nil {
		return 0, 0, err
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	var acc uint64
	for i := 0; i < n; i++ {
		h, e := op()
		if e != nil {
			return 0, 0, e
		}
		acc += h
	}
	runtime.ReadMemStats(&m1)
	Sink += acc
	return float64(m1.Mallocs-m0.Mallocs) / float64(n), float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n), nil
}

// Histogram is the log-bucketed latency histogram of the --latency pass (spec/protocol.md step 7):
// 64 sub-buckets per power of two, so a bucket's highest value is within 1.6% of any value in it
// (exact below 64 ns), as the Rust harness's.
type Histogram struct {
	counts     [64 << histSub]uint64
	count, max uint64
}

const histSub = 6

func histIndex(v uint64) int {
	if v == 0 {
		return 0 // shares bucket 0 with 1 ns
	}
	k := uint(63 - bits.LeadingZeros64(v))
	var j uint64
	if k >= histSub {
		j = (v >> (k - histSub)) & 63
	} else {
		j = (v << (histSub - k)) & 63
	}
	return int(k)<<histSub | int(j)
}

// histHighest is the highest value that falls in bucket i.
func histHighest(i int) uint64 {
	k, j := uint(i>>histSub), uint64(i&63)
	if k >= histSub {
		return ((65 + j) << (k - histSub)) - 1
	}
	return ((64 + j) << k) >> histSub
}

// Record adds one operation's time.
func (h *Histogram) Record(ns uint64) {
	h.counts[histIndex(ns)]++
	h.count++
	h.max = max(h.max, ns)
}

// Count is the number of operations recorded.
func (h *Histogram) Count() uint64 { return h.count }

// Max is the slowest operation.
func (h *Histogram) Max() uint64 { return h.max }

// Buckets are the non-empty buckets as [highest value, count] pairs, in order: the latency row's
// `buckets`, which the orchestrator pools over a cell's forks (spec/protocol.md step 7).
func (h *Histogram) Buckets() [][2]uint64 {
	out := [][2]uint64{}
	for i, c := range h.counts {
		if c != 0 {
			out = append(out, [2]uint64{histHighest(i), c})
		}
	}
	return out
}

// Percentile is the value at quantile q (0 < q <= 1): the highest value of the bucket holding the
// ceil(q*count)-th smallest operation, capped at the maximum.
func (h *Histogram) Percentile(q float64) uint64 {
	rank := min(max(uint64(math.Ceil(q*float64(h.count))), 1), max(h.count, 1))
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(histHighest(i), h.max)
		}
	}
	return h.max
}

// Latency is the latency pass: one untimed warm-up pass over the n records, then passes over all
// of them, each operation timed alone, until minOps operations and budgetNs have passed.
func Latency(op func(i int) (uint64, error), n int, budgetNs, minOps uint64) (*Histogram, error) {
	var acc uint64
	for i := 0; i < n; i++ {
		h, err := op(i)
		if err != nil {
			return nil, err
		}
		acc += h
	}
	h := &Histogram{}
	start := time.Now()
	for {
		for i := 0; i < n; i++ {
			t0 := time.Now()
			r, err := op(i)
			dt := uint64(time.Since(t0))
			if err != nil {
				return nil, err
			}
			acc += r
			h.Record(dt)
		}
		if h.count >= minOps && uint64(time.Since(start)) >= budgetNs {
			Sink += acc
			return h, nil
		}
	}
}
