// @streamparser/json's Tokenizer: a streaming JSON tokenizer (bytes in, tokens out), the
// incremental row: its tokens feed the streaming hash, no tree is built. Its documented override
// point parseNumber turns a number's text into the value: an integer beyond 2^53 becomes a BigInt,
// a float whose value is integral an F64 (the harness's exact float), so the row is exact.

import { F64 } from "../lib/hash.mjs";

function parseNumber(s) {
  if (/[.eE]/.test(s)) {
    const f = Number(s);
    return Number.isSafeInteger(f) && !Object.is(f, -0) ? new F64(f) : f;
  }
  const v = Number(s);
  if (Number.isSafeInteger(v)) return v === 0 ? 0 : v;
  return BigInt(s);
}

export const rows = [
  {
    id: "streamparser-json",
    library: "@streamparser/json",
    pkg: "@streamparser/json",
    bundle: ["@streamparser/json"],
    formats: ["json", "json-pretty"],
    tests: ["incremental"],
    notes:
      "Tokenizer (pure JS, streaming): each token into the streaming hash; parseNumber overridden (its documented hook) to keep int64 exact; stringBufferSize 64 KB (the default, unbuffered, mis-decodes a string of size-4); a new Tokenizer per document",
    load: async () => {
      const { Tokenizer, TokenType } = await import("@streamparser/json");
      const T = TokenType;
      return {
        incremental: () => (bytes, s) => {
          // the open containers' kinds, and whether a map's next string is a key
          // stringBufferSize: with the default (0, no buffer) it mis-decodes a long string with escapes
          // and 4-byte characters on size-4 (docs/libraries.md); a 64 KB buffer decodes it right
          const tok = new Tokenizer({ stringBufferSize: 65536 });
          tok.parseNumber = parseNumber;
          let keyNext = false;
          const maps = [];
          let closed = false;
          tok.onToken = ({ token, value }) => {
            if (closed) throw new Error("a second JSON value after the document");
            switch (token) {
              case T.LEFT_BRACE:
                s.startMap();
                maps.push(true);
                keyNext = true;
                return;
              case T.LEFT_BRACKET:
                s.startArray();
                maps.push(false);
                return;
              case T.RIGHT_BRACE:
              case T.RIGHT_BRACKET:
                s.end();
                maps.pop();
                keyNext = false;
                if (maps.length === 0) closed = true;
                return;
              case T.COMMA:
                keyNext = maps.length > 0 && maps[maps.length - 1];
                return;
              case T.COLON:
                return;
              case T.STRING:
                if (keyNext) {
                  s.key(value);
                  keyNext = false;
                } else s.string(value);
                break;
              case T.NUMBER:
                s.value(value);
                break;
              case T.TRUE:
                s.bool(true);
                break;
              case T.FALSE:
                s.bool(false);
                break;
              case T.NULL:
                s.null();
                break;
            }
            if (maps.length === 0) closed = true;
          };
          tok.write(bytes);
          tok.end();
        },
      };
    },
  },
];
