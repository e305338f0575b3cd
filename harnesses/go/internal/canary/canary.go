// Package canary is the canary of spec/protocol.md run step 4 (protocol 1.9): a fixed loop that
// allocates nothing and stays in registers and L1, run and timed alone just before each timed batch
// of the samples. Its time moves only with the speed the core gives this process at that moment, so
// the orchestrator can divide each process's times by its canary's median, relative to the harness's
// clean canary time in the run, and take out the host's slowdowns that hit a whole process
// (docs/methodology.md, "The canary"). It is the same computation in every harness; the reference
// values below (canary_test.go) are the protocol's.
package canary

// Rounds is R for a compiled harness: 300 rounds, about 20 µs on a clean core (spec/protocol.md run
// step 4; Python uses 1).
const Rounds = 300

// Warmups is how many untimed runs come before the first sample (caches and predictors warm).
const Warmups = 20

// Sink keeps every result alive: each run XORs its result into it, so the compiler cannot drop the
// loop (spec/fairness.md rule 3).
var Sink uint64

// Table is the canary's 256-byte table, buf[i] = (i*37 + 1) & 0xff when new. Each run changes it (a
// round ends with buf[r & 255] ^= a & 0xff), so a run's result depends on the runs before it: the
// process keeps one table for its whole life (Process); a test takes a fresh one (New).
type Table struct {
	buf [256]byte
}

// New is a fresh table.
func New() *Table {
	t := &Table{}
	for i := range t.buf {
		t.buf[i] = byte(i*37 + 1)
	}
	return t
}

// Process is the process-wide table that the sampling loop runs (measure.Run).
var Process = New()

// Run is one run of the canary: accumulators a, b, c, d = 1, 2, 3, 4 (wrapping uint64), then rounds
// rounds of a = a*31 + buf[i]; b = b*37 + buf[i+1]; c = c*41 + buf[i+2]; d = d*43 + buf[i+3] for
// i = 0, 4, .., 252, round r ending with buf[r & 255] ^= a & 0xff. It returns a ^ b ^ c ^ d, also
// XORed into Sink. Not inlined, so it is the same call wherever it is run from.
//
//go:noinline
func (t *Table) Run(rounds int) uint64 {
	a, b, c, d := uint64(1), uint64(2), uint64(3), uint64(4)
	buf := &t.buf
	for r := 0; r < rounds; r++ {
		for i := 0; i <= 252; i += 4 {
			a = a*31 + uint64(buf[i])
			b = b*37 + uint64(buf[i+1])
			c = c*41 + uint64(buf[i+2])
			d = d*43 + uint64(buf[i+3])
		}
		buf[byte(r)] ^= byte(a)
	}
	x := a ^ b ^ c ^ d
	Sink ^= x
	return x
}
