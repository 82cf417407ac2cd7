#!/usr/bin/env node
// Builds browser apps (apps/dashboard, apps/extension) only when their sources changed:
// `node scripts/build-if-changed.mjs dashboard extension [--force]`. A SHA-256 over every file
// of the app (paths and contents; not node_modules, not dist) is compared with the one the last
// build stored in the app's node_modules/.cache; the build is the app's own `build` script.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** What a finished build leaves, per app: without it the build runs whatever the hash says. */
const OUTPUT = { dashboard: "dist/index.html", extension: "dist/chrome/manifest.json" };
const SKIP = new Set(["node_modules", "dist"]);

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      if (SKIP.has(name)) return [];
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

function sourceHash(app) {
  const hash = createHash("sha256");
  for (const file of files(app))
    hash
      .update(relative(app, file).split(sep).join("/"))
      .update("\0")
      .update(readFileSync(file))
      .update("\0");
  return hash.digest("hex");
}

const force = process.argv.includes("--force");
const names = process.argv.slice(2).filter((arg) => arg !== "--force");
for (const name of names) {
  if (!(name in OUTPUT)) {
    console.error(`build-if-changed: no app "${name}" (known: ${Object.keys(OUTPUT).join(", ")})`);
    process.exit(2);
  }
  const app = join(root, "apps", name);
  const hashFile = join(app, "node_modules", ".cache", "build-source-hash");
  const hash = sourceHash(app);
  const stored = existsSync(hashFile) ? readFileSync(hashFile, "utf8").trim() : null;
  if (!force && stored === hash && existsSync(join(app, OUTPUT[name]))) {
    console.log(`${name}: sources unchanged (${hash.slice(0, 12)}), build skipped`);
    continue;
  }
  const started = Date.now();
  const result = spawnSync("pnpm", ["--silent", "--filter", `./apps/${name}`, "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error(`${name}: the build failed`);
    process.exit(result.status ?? 1);
  }
  mkdirSync(dirname(hashFile), { recursive: true });
  writeFileSync(hashFile, `${hash}\n`);
  console.log(
    `${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${hash.slice(0, 12)})`,
  );
}
