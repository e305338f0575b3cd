package measure

import (
	"runtime"
	"testing"
	"time"
)

func TestHistogramBucketsAndPercentiles(t *testing.T) {
	for _, v := range []uint64{1, 2, 63, 64, 65, 127, 128, 1000, 123_456, 1 << 40} {
		i := histIndex(v)
		if hi := histHighest(i); hi < v || float64(hi) > float64(v)*1.016+1 {
			t.Errorf("%d: bucket %d's highest value is %d", v, i, hi)
		}
		if v < 64 && histHighest(i) != v {
			t.Errorf("%d: not exact below 64 ns (%d)", v, histHighest(i))
		}
	}
	var h Histogram
	for v := uint64(1); v <= 10_000; v++ {
		h.Record(v)
	}
	if h.Count() != 10_000 || h.Max() != 10_000 {
		t.Fatalf("count %d, max %d", h.Count(), h.Max())
	}
	if p50 := h.Percentile(0.5); p50 < 5000 || p50 > 5080 {
		t.Errorf("p50 %d", p50)
	}
	if p := h.Percentile(1); p != 10_000 {
		t.Errorf("p100 %d", p)
	}
	if p := h.Percentile(0.999); p < 9990 {
		t.Errorf("p99.9 %d", p)
	}
}

func TestNextBatchPredictsTheTargetWithHeadroomAndBoundedGrowth(t *testing.T) {
	const ms = 1_000_000
	for _, c := range []struct{ target, n, took, want uint64 }{
		{10 * ms, 100, 1 * ms, 1200},             // 10x the iterations for 10x the time, plus 20%
		{10 * ms, 1, 1_000, 100},                 // a fast first iteration: at most 100 times n
		{10 * ms, 4, 0, 400},                     // a clock that read zero still grows, at most 100 times
		{10 * ms, 50, 9_999_999, 60},             // just short of the target: the prediction plus 20%
		{10 * ms, 7, 100 * ms, 8},                // an overestimate never shrinks the batch
		{10 * ms, 900_000_000, 1, 1_000_000_000}, // capped at 1e9 iterations, as go test caps b.N
	} {
		if got := NextBatch(c.target, c.n, c.took); got != c.want {
			t.Errorf("NextBatch(%d, %d, %d) = %d, want %d", c.target, c.n, c.took, got, c.want)
		}
	}
}

func TestRunCalibratesToTheTargetAndTakesTheMinimumSamples(t *testing.T) {
	calls := 0
	op := func() (uint64, error) { calls++; return uint64(calls), nil }
	samples, n, _, err := Run(op, 1, 3)
	if err != nil || len(samples) < 3 {
		t.Fatalf("samples %d, err %v", len(samples), err)
	}
	// every sample is one calibrated batch, and a batch of one call cannot last 10 ms; each has the
	// time of its canary, which is not part of the batch's
	for _, s := range samples {
		if s.Iterations != n || n < 1000 {
			t.Errorf("sample %+v: calibrated batch %d", s, n)
		}
		if s.CanaryNs == 0 {
			t.Errorf("sample %+v: no canary time", s)
		}
	}
}

func TestACold20msFirstOperationDoesNotSetABatchOfOneWhenWarmOnesTake1ms(t *testing.T) {
	calls := 0
	op := func() (uint64, error) {
		calls++
		if calls == 1 {
			time.Sleep(20 * time.Millisecond) // the cold first operation, past the 10 ms target
		} else {
			time.Sleep(time.Millisecond)
		}
		return uint64(calls), nil
	}
	samples, n, _, err := Run(op, 1, 3)
	if err != nil || len(samples) < 3 {
		t.Fatalf("samples %d, err %v", len(samples), err)
	}
	// warm operations of 1 ms (at least; sleeping may take longer) fill the 10 ms target with several
	if n < 2 {
		t.Fatalf("calibrated batch %d: the cold first operation set it", n)
	}
	for _, s := range samples {
		if s.WallNs < MinBatchNs*8/10 {
			t.Errorf("sample %+v shorter than the 10 ms target", s)
		}
	}
}

func TestASlowOperationStillMakesABatchOfOne(t *testing.T) {
	op := func() (uint64, error) { time.Sleep(12 * time.Millisecond); return 1, nil }
	_, n, _, err := Run(op, 1, 2)
	if err != nil || n != 1 {
		t.Fatalf("batch %d, err %v: an operation past the target alone is a batch of one", n, err)
	}
}

func TestAllocCountFitsTheBudgetWithinItsBounds(t *testing.T) {
	cases := []struct {
		opNs uint64
		want int
	}{
		{0, AllocIterations},                     // unknown cost: the full count
		{1_000, AllocIterations},                 // fast: capped at the full count
		{AllocBudgetNs / 5, 5},                   // five fit the budget
		{70_000_000, AllocMinIterations},         // a size-5 decode: the minimum, not 20
		{AllocBudgetNs * 10, AllocMinIterations}, // slower still: never below the minimum
	}
	for _, c := range cases {
		if got := AllocCount(c.opNs); got != c.want {
			t.Errorf("AllocCount(%d) = %d, want %d", c.opNs, got, c.want)
		}
	}
}

func TestAllocsRunsOneWarmUpAndNOperations(t *testing.T) {
	calls := 0
	var keep [][]byte
	op := func() (uint64, error) {
		calls++
		keep = append(keep[:0], make([]byte, 4096))
		return uint64(len(keep)), nil
	}
	allocs, bytes, err := Allocs(op, 3)
	if err != nil || calls != 4 {
		t.Fatalf("calls %d (want 1 warm-up + 3), err %v", calls, err)
	}
	if allocs < 1 || bytes < 4096 {
		t.Errorf("allocs %.1f, bytes %.0f per op: the 4 KiB buffer of each op is not counted", allocs, bytes)
	}
}

func TestRunSamplesFromACollectedHeap(t *testing.T) {
	// A forced collection can only come from Run itself (as go test -bench collects before each timed
	// run): the operation allocates nothing.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	calls := 0
	if _, _, _, err := Run(func() (uint64, error) { calls++; return uint64(calls), nil }, 1_000_000, 3); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if after.NumForcedGC <= before.NumForcedGC {
		t.Fatalf("no forced collection before sampling: NumForcedGC %d -> %d", before.NumForcedGC, after.NumForcedGC)
	}
}
