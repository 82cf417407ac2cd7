#!/usr/bin/env node
// Builds the dashboard (apps/dashboard -> apps/dashboard/dist) only when its sources changed:
// a SHA-256 over apps/dashboard/{src,index.html,package.json,vite.config.ts} (paths and contents)
// is compared with the one stored in dist/.source-hash by the last build. `--force` always builds.
// Each script and stylesheet of dist/assets gets a brotli (.br) and a gzip (.gz) copy, which the
// gateway sends to browsers that accept them (apps/gateway/src/plugins/dashboard.ts).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { spawnSync } from "node:child_process";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const app = join(root, "apps", "dashboard");
const dist = join(app, "dist");
const hashFile = join(dist, ".source-hash");
const inputs = ["src", "index.html", "package.json", "vite.config.ts"];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap((input) => files(join(app, input)))) {
    hash.update(relative(app, file).split(sep).join("/"));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const force = process.argv.includes("--force");
const hash = sourceHash();
const stored = existsSync(hashFile) ? readFileSync(hashFile, "utf8").trim() : null;
if (!force && stored === hash && existsSync(join(dist, "index.html"))) {
  console.log(`dashboard: sources unchanged (${hash.slice(0, 12)}), build skipped`);
  process.exit(0);
}

const started = Date.now();
const result = spawnSync("pnpm", ["--filter", "@catalog/dashboard", "build"], { cwd: root, stdio: "inherit" });
if (result.status !== 0) {
  console.error("dashboard: the build failed");
  process.exit(result.status ?? 1);
}
// Smaller files gain nothing worth a second request path; these are the ones a browser loads.
const COMPRESS = /\.(js|css|svg|json)$/;
const MIN_BYTES = 1024;
let raw = 0;
let brotli = 0;
for (const file of files(join(dist, "assets")).filter((f) => COMPRESS.test(f))) {
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  brotli += br.length;
}
writeFileSync(hashFile, `${hash}\n`);
console.log(
  `dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${hash.slice(0, 12)}); ` +
  `scripts and styles ${(raw / 1000).toFixed(1)} kB, ${(brotli / 1000).toFixed(1)} kB as brotli`,
);
