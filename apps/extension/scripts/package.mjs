#!/usr/bin/env node
// After `vite build` (dist/chrome: the popup, background.js and public/): writes each browser's
// manifest, a Firefox copy of the folder, and one zip per browser for its store. The unpacked
// folders load as they are (chrome://extensions → Load unpacked → dist/chrome).
import { cpSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import { manifest } from "../manifest.config.mjs";

const app = fileURLToPath(new URL("..", import.meta.url));
const dist = join(app, "dist");
const { version } = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

async function zipFolder(dir, target) {
  const zip = new JSZip();
  // Fixed dates, so the same build gives the same zip.
  const date = new Date("2026-01-01T00:00:00Z");
  for (const file of files(dir))
    zip.file(relative(dir, file).split(sep).join("/"), readFileSync(file), { date });
  const data = await zip.generateAsync({
    type: "nodebuffer",
    compression: "DEFLATE",
    compressionOptions: { level: 9 },
  });
  writeFileSync(target, data);
  return data.length;
}

for (const name of readdirSync(dist))
  if (name !== "chrome") rmSync(join(dist, name), { recursive: true, force: true });
const chrome = join(dist, "chrome");
const firefox = join(dist, "firefox");
cpSync(chrome, firefox, { recursive: true });
for (const [browser, dir] of [
  ["chrome", chrome],
  ["firefox", firefox],
]) {
  writeFileSync(
    join(dir, "manifest.json"),
    `${JSON.stringify(manifest(browser, version), null, 2)}\n`,
  );
  const zip = join(dist, `catalog-extension-${browser}-${version}.zip`);
  const bytes = await zipFolder(dir, zip);
  console.log(
    `extension: ${relative(app, dir)}/ (load unpacked) and ${relative(app, zip)} (${(bytes / 1000).toFixed(1)} kB, for the store)`,
  );
}
