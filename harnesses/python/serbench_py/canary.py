"""The canary of protocol 1.10 (spec/protocol.md, `run` step 4; docs/methodology.md, "The canary", "A
canary in C for Python").

Run and timed alone just before every timed batch; its time goes in the batch's `sample` row as
`canary_ns`, and the orchestrator divides each process's times by its canary's median relative to the
harness's clean canary time, which takes out the host's slowdowns of a whole process.

The compiled harnesses run four multiply-add chains over a 256-byte table. Python's canary is a loop in
C instead: `zlib.crc32` over a 16 KiB table (the compiled canary's 256 bytes, 64 times), four passes
chained, about 12 µs. Most Python rows are C extensions (orjson, msgpack, the json module's scanner),
and a loop through the interpreter moved more than they do when the host slowed: divided by it,
orjson's processes five minutes apart agreed less often, not more (43.1% → 22.9%). Divided by this one,
every Python cell studied agreed more often, the C extensions' and a pure-Python codec's alike. It
allocates nothing the collector tracks (one small int for the result) and reads only its table, which
fits the L1 cache; the harness runs it once untimed just before the timed run so that the batch before
has not evicted it.
"""

from __future__ import annotations

import zlib

PASSES = 4  # spec/protocol.md step 4: Python's canary is zlib.crc32 over the table, 4 passes chained
WARMUP = 20  # untimed runs before the first sample
TABLE = bytes((i * 37 + 1) & 0xFF for i in range(256)) * 64  # 16 KiB: the compiled canary's table 64 times

sink = 0  # every result is XORed in here, as the compiled harnesses keep theirs from the optimiser
_crc32 = zlib.crc32  # looked up once: the canary's time is the loop's, not a module attribute's


class Canary:
    """`passes` chained CRC-32s of TABLE (each pass continues from the last one's value, starting at 0):
    1 pass returns 0x9EBF7845, 4 return 0xFC750C26 (spec/protocol.md step 4), on every call."""

    def __init__(self, passes: int = PASSES):
        self.passes = passes

    def __call__(self) -> int:
        global sink
        c = 0
        for _ in range(self.passes):
            c = _crc32(TABLE, c)
        sink ^= c
        return c


CANARY = Canary()  # the process's canary
