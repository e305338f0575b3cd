"""`serbench corpus` (the data files and their manifest) and `serbench vectors` (the golden files)."""

from __future__ import annotations

from ..corpus.generator import DEFAULT_SEED
from .common import EXIT_OK, ROOT, SEED, _corpus, _writable_folder, say


def cmd_corpus(args) -> int:
    m, _ = _corpus(_writable_folder(args.out, "--out"), args.seed, args.data)
    w = max(14, *(len(d["dataset"]) for d in m["datasets"]))
    print(
        f"{'dataset':<{w}} {'hash':<16} " + " ".join(f"{f:>12}" for f in ("json", "msgpack", "cbor", "bson", "ubjson"))
    )
    for d in m["datasets"]:
        sizes = " ".join(
            f"{d['files'][f]['bytes'] if f in d['files'] else '-':>12}"
            for f in ("json", "msgpack", "cbor", "bson", "ubjson")
        )
        print(f"{d['dataset']:<{w}} {d['hash']:<16} {sizes}")
    say(f"{sum(len(d['files']) for d in m['datasets'])} files and manifest.json in {args.out}")
    return EXIT_OK


def cmd_vectors(args) -> int:
    from ..corpus.conformance import write_conformance
    from ..corpus.vectors import write_vectors

    n = write_vectors(ROOT / "vectors")
    say(f"wrote {n} vectors to {ROOT / 'vectors'}")
    n = write_conformance(ROOT / "vectors" / "conformance")
    say(f"wrote {n} reference-decoder conformance cases to {ROOT / 'vectors' / 'conformance'}")
    return EXIT_OK


def add_parser(command) -> None:
    s = command("corpus", help="write the data files and manifest.json")
    s.add_argument("--out", default=str(ROOT / "corpus"), help="folder to write (default: corpus/ of the checkout)")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help="generator seed (0 to 2^64-1)")
    s.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="FILE",
        help="also your own .json/.msgpack/.cbor document, as `run --data` writes it (repeatable)",
    )
    s.set_defaults(fn=cmd_corpus)


def add_vectors_parser(command) -> None:
    s = command("vectors", help="rewrite vectors/ from the golden documents (maintainers)")
    s.set_defaults(fn=cmd_vectors)
