#!/bin/sh
# Regenerates the committed Protocol Buffers and FlatBuffers code of the Python harness's typed rows
# from spec/schemas/ (not part of the build: the generated files are committed, as in the Rust
# harness). Needs Debian's generators, the same the native harness pins:
#   apt-get install -y protobuf-compiler=3.21.12-3+deb12u1 flatbuffers-compiler=2.0.8+dfsg1-2
# protoc 3.21.12's Python output runs on the pinned upb-backed protobuf runtime (requirements.lock;
# checked by tests/test_typed.py). Cap'n Proto needs no generated code: pycapnp loads
# spec/schemas/typed.capnp at run time.
#
# flatc writes its Python modules as the package of the schema's namespace, `serbench.typed`, which
# would clash with the orchestrator's `serbench` package on the harness's path; the modules are moved
# to serbench_py/generated/typed_fbs and their own imports of each other renamed to match (the wire
# format does not depend on the namespace).
#
# Usage: regen-schemas.sh [OUT_DIR]   (default serbench_py/generated; tests/test_typed.py writes to a
# temporary directory and compares it with the committed code)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
schemas="$here/../../spec/schemas"
out="${1:-$here/serbench_py/generated}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
protoc -I"$schemas" --python_out="$out" "$schemas/typed.proto"
flatc --python -o "$tmp" "$schemas/typed.fbs"
rm -rf "$out/typed_fbs"
mv "$tmp/serbench/typed" "$out/typed_fbs"
sed -i 's/from serbench\.typed\./from serbench_py.generated.typed_fbs./' "$out"/typed_fbs/*.py
