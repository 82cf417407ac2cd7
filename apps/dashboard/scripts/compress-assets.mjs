#!/usr/bin/env node
// After `vite build`: a brotli (.br) and a gzip (.gz) copy of each script and stylesheet in
// dist/assets, which the gateway sends to browsers that accept them
// (apps/gateway/src/plugins/dashboard.ts).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const assets = fileURLToPath(new URL("../dist/assets", import.meta.url));
// Smaller files gain nothing worth a second copy; these are the ones a browser loads.
const COMPRESS = /\.(js|css|svg|json)$/;
const MIN_BYTES = 1024;

let raw = 0;
let brotli = 0;
for (const name of readdirSync(assets).filter((n) => COMPRESS.test(n))) {
  const file = join(assets, name);
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  brotli += br.length;
}
console.log(
  `dashboard: scripts and styles ${(raw / 1000).toFixed(1)} kB, ${(brotli / 1000).toFixed(1)} kB as brotli`,
);
