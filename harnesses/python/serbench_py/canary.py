"""The canary of protocol 1.9 (spec/protocol.md, `run` step 4; docs/methodology.md, "The canary").

A fixed loop over a 256-byte table with four 64-bit multiply-add chains, run and timed alone just
before every timed batch. It allocates nothing the collector tracks and touches only its table, so
its time moves only with how fast the core runs this process at that moment (other guests on the
host's sibling threads slow a core by up to half for seconds at a time). Its time goes in the batch's
`sample` row as `canary_ns`, and the orchestrator divides each process's times by its canary's median
relative to the harness's clean canary time, which takes out the host's slowdowns of a whole process.

The computation is the same in every harness; Python runs R = 1 round (about as long in the
interpreter as the compiled harnesses' 300). The orchestrator does not divide Python's times by it
(`PythonHarness.canary_unused`): through the interpreter it moves more than the C extensions it would
correct; the rows carry it so that a better canary can be judged against it.
"""

from __future__ import annotations

ROUNDS = 1  # spec/protocol.md step 4: Python uses R = 1
WARMUP = 20  # untimed runs before the first sample
_MASK = 0xFFFFFFFFFFFFFFFF

sink = 0  # every result is XORed in here, as the compiled harnesses keep theirs from the optimiser


class Canary:
    """R rounds of the canary over a table of its own: the harness uses one per process (CANARY), a
    test a fresh one. Each call starts its accumulators at 1, 2, 3, 4; the table carries over, since
    each round ends by changing one of its bytes."""

    def __init__(self, rounds: int = ROUNDS):
        self.rounds = rounds
        self.buf = bytearray((i * 37 + 1) & 0xFF for i in range(256))

    def __call__(self) -> int:
        global sink
        buf, m = self.buf, _MASK
        a, b, c, d = 1, 2, 3, 4
        for r in range(self.rounds):
            for i in range(0, 256, 4):
                a = (a * 31 + buf[i]) & m
                b = (b * 37 + buf[i + 1]) & m
                c = (c * 41 + buf[i + 2]) & m
                d = (d * 43 + buf[i + 3]) & m
            buf[r & 255] ^= a & 0xFF
        x = a ^ b ^ c ^ d
        sink ^= x
        return x


CANARY = Canary()  # the process's canary: its table is made once, at import, before anything is timed
