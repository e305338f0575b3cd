// The harness's sources are formatted by the pinned prettier (package.json), as `npm run lint` checks.
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
