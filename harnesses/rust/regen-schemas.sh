#!/bin/sh
# Regenerates the committed FlatBuffers and Cap'n Proto code from spec/schemas/ (not part of the
# build: the generated files are committed). Needs the Debian packages flatbuffers-compiler
# (flatc 2.0.8) and capnproto (capnp 0.9.2), and the capnpc Rust plugin (crate capnpc =0.27.0):
#   apt-get install -y flatbuffers-compiler=2.0.8+dfsg1-2 capnproto=0.9.2-2
#   CAPNPGEN=<a cargo binary calling capnpc::CompilerCommand::new().src_prefix($1).file($2).output_path($3).run()>
set -eu
here=$(cd "$(dirname "$0")" && pwd)
schemas="$here/../../spec/schemas"
out="$here/src/generated"
mkdir -p "$out"
flatc --rust -o "$out" "$schemas/typed.fbs"
"${CAPNPGEN:?set CAPNPGEN to the capnpc driver (see above)}" "$schemas" "$schemas/typed.capnp" "$out"
