"""The object hash and the reference codecs come from the orchestrator's sources (one implementation
in this language, not two): this module puts orchestrator/src on the path and re-exports them."""

import sys
from pathlib import Path

_SRC = Path(__file__).resolve().parents[3] / "orchestrator" / "src"
if str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

from serbench.corpus.formats import DECODERS, FormatError  # noqa: E402
from serbench.objhash import StreamHasher, hash_value, hex64  # noqa: E402

__all__ = ["DECODERS", "FormatError", "StreamHasher", "hash_value", "hex64"]
