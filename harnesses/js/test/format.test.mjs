// The harness's sources are formatted by the pinned prettier and pass the pinned ESLint's recommended
// rules (package.json, eslint.config.mjs), as `npm run lint` checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

test("every source file is as the pinned prettier formats it", () => {
  const r = spawnSync(
    process.execPath,
    [path.join(DIR, "node_modules", "prettier", "bin", "prettier.cjs"), "--check", "."],
    {
      cwd: DIR,
      encoding: "utf8",
    },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("every source file passes ESLint's recommended rules (unused names, undefined globals, ...)", () => {
  const r = spawnSync(process.execPath, [path.join(DIR, "node_modules", "eslint", "bin", "eslint.js"), "."], {
    cwd: DIR,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
