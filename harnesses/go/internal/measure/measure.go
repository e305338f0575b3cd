// Package measure is the timed loop (spec/protocol.md, run steps 3, 4 and 9) and the allocation
// pass. Wall time comes from time.Now's monotonic clock. The garbage collector runs inside the
// timed batches at the process's settings (GOGC, GOMEMLIMIT; default unless the user set them):
// its cost is part of what a Go program pays for what it allocates (DESIGN §10).
package measure

import (
	"runtime"
	"time"
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

// Sample is one batch: iterations and wall time.
type Sample struct {
	Iterations uint64
	WallNs     uint64
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

// Run calibrates (doubling the batch from 1 until one lasts max(MinBatchNs, budget/50); this is also
// the warm-up), then samples until the budget has elapsed and minSamples exist. It returns the
// samples, the batch size and the calibration time.
func Run(op Op, budgetNs uint64, minSamples int) ([]Sample, uint64, uint64, error) {
	target := max(uint64(MinBatchNs), budgetNs/50)
	start := time.Now()
	n := uint64(1)
	for {
		t0 := time.Now()
		if err := batch(op, n); err != nil {
			return nil, 0, 0, err
		}
		if uint64(time.Since(t0)) >= target {
			break
		}
		n *= 2
	}
	cal := uint64(time.Since(start))
	var samples []Sample
	start = time.Now()
	for uint64(time.Since(start)) < budgetNs || len(samples) < minSamples {
		t0 := time.Now()
		if err := batch(op, n); err != nil {
			return nil, 0, 0, err
		}
		samples = append(samples, Sample{Iterations: n, WallNs: uint64(time.Since(t0))})
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

// AllocIterations is how many operations the allocation pass counts over.
const AllocIterations = 20

// Allocs is the separate allocation pass: runtime.ReadMemStats around AllocIterations operations,
// as `go test -benchmem` counts them. Go has a garbage-collected runtime with no allocator hook a
// program can install, so the counts are the runtime's own (Mallocs: heap objects allocated;
// TotalAlloc: bytes), whose deltas stay exact whatever the collector frees meanwhile; the mean over
// many operations hides the few allocations the runtime itself makes (ReadMemStats stops the world,
// so it is never inside a timed loop). One warm-up operation first, so one-time set-up (a
// library's cached codec for a type, a pool's first buffer) is not counted.
func Allocs(op Op) (allocsPerOp, bytesPerOp float64, err error) {
	if _, err = op(); err != nil {
		return 0, 0, err
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	var acc uint64
	for i := 0; i < AllocIterations; i++ {
		h, e := op()
		if e != nil {
			return 0, 0, e
		}
		acc += h
	}
	runtime.ReadMemStats(&m1)
	Sink += acc
	n := float64(AllocIterations)
	return float64(m1.Mallocs-m0.Mallocs) / n, float64(m1.TotalAlloc-m0.TotalAlloc) / n, nil
}
