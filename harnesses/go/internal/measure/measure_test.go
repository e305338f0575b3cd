package measure

import "testing"

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
