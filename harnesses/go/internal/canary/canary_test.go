package canary

import "testing"

// The protocol's reference values (spec/protocol.md run step 4): two runs in a row on a fresh table,
// the second seeing the table the first changed.
func TestCanaryGivesTheProtocolsReferenceValuesOnAFreshTable(t *testing.T) {
	for _, c := range []struct {
		rounds        int
		first, second uint64
	}{
		{1, 0x10bbdc9709c21044, 0x90a439f3bbe304e7},
		{300, 0x722b95da6743ec00, 0x2e4d829ed1573db4},
	} {
		tab := New()
		sink := Sink
		first, second := tab.Run(c.rounds), tab.Run(c.rounds)
		if first != c.first || second != c.second {
			t.Errorf("R=%d: %#x then %#x, want %#x then %#x", c.rounds, first, second, c.first, c.second)
		}
		if Sink != sink^first^second {
			t.Errorf("R=%d: the sink did not get both results", c.rounds)
		}
	}
	if Rounds != 300 {
		t.Errorf("Rounds = %d, want 300 (a compiled harness)", Rounds)
	}
}

func TestCanaryAllocatesNothing(t *testing.T) {
	tab := New()
	if n := testing.AllocsPerRun(10, func() { tab.Run(Rounds) }); n != 0 {
		t.Fatalf("%.1f allocations per run", n)
	}
}
