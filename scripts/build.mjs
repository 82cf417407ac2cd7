#!/usr/bin/env node
// The production build: `node scripts/build.mjs [--out DIR]`.
//
// Compiles every server-side app and package from src/*.ts to dist/*.js (esbuild, one file for
// one file, so paths that code finds from its own location stay right), generates the Prisma
// client first and builds the dashboard the gateway serves. Node picks dist/ over src/ under
// the export condition "built": the processes start with `node --conditions=built <app>/dist/...`.
//
// With --out, it also lays out a runnable tree in DIR: the compiled files, the dashboard, the
// migrations and only the production dependencies (pnpm, from the lockfile). The Dockerfile runs
// exactly this, and so does the test that starts the built processes (apps/cli/test/built-stack).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
/**
 * Compiled to dist/. The dashboard and the extension are browser builds of their own; testing is
 * for tests.
 */
const SERVER_PACKAGES = [
  "apps/gateway",
  "apps/publish-worker",
  "apps/import-worker",
  "apps/cli",
  "packages/channels",
  "packages/config",
  "packages/db",
  "packages/extract",
  "packages/fetch",
  "packages/queue",
  "packages/tracing",
  "packages/values",
];
/** The apps a deployment runs; --out installs their production dependencies and nothing else. */
const DEPLOYED_APPS = [
  "@catalog/gateway",
  "@catalog/publish-worker",
  "@catalog/import-worker",
  "@catalog/cli",
];

const { values } = parseArgs({ options: { out: { type: "string" } } });

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`build: ${command} ${args.join(" ")} failed`);
    process.exit(result.status ?? 1);
  }
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function compile(pkg) {
  const src = join(root, pkg, "src");
  const dist = join(root, pkg, "dist");
  rmSync(dist, { recursive: true, force: true });
  const files = filesUnder(src);
  await build({
    entryPoints: files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    outbase: src,
    outdir: dist,
    format: "esm",
    platform: "node",
    target: "node26",
    sourcemap: "linked",
    logLevel: "warning",
  });
  // Files Node loads as they are (a worker thread's entry module).
  for (const file of files.filter((f) => f.endsWith(".mjs")))
    cpSync(file, join(dist, relative(src, file)));
}

const started = Date.now();
run("node", ["scripts/prisma-generate.mjs"], { stdio: ["ignore", "ignore", "inherit"] });
for (const pkg of SERVER_PACKAGES) await compile(pkg);
run("node", ["scripts/build-if-changed.mjs", "dashboard"]);
console.log(
  `build: ${SERVER_PACKAGES.length} packages compiled to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);

if (values.out) {
  const out = values.out.startsWith("/") ? values.out : join(process.cwd(), values.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const copy = (path) => cpSync(join(root, path), join(out, path), { recursive: true });
  for (const file of [
    "package.json",
    "pnpm-lock.yaml",
    "pnpm-workspace.yaml",
    ".npmrc",
    ".pnpmfile.cjs",
    "prisma",
  ])
    copy(file);
  // Every workspace manifest, so that the lockfile matches the workspace it was written for.
  for (const dir of ["apps", "packages"]) {
    for (const name of readdirSync(join(root, dir))) {
      if (existsSync(join(root, dir, name, "package.json"))) copy(`${dir}/${name}/package.json`);
    }
  }
  for (const dir of ["bench", "e2e", "deploy"]) copy(`${dir}/package.json`);
  for (const pkg of SERVER_PACKAGES) copy(`${pkg}/dist`);
  // Files the gateway reads as they are: the legal documents' texts.
  copy("apps/gateway/legal");
  copy("apps/dashboard/dist");
  run(
    "pnpm",
    [
      "install",
      "--prod",
      "--frozen-lockfile",
      "--prefer-offline",
      "--reporter=silent",
      ...DEPLOYED_APPS.flatMap((name) => ["--filter", `${name}...`]),
    ],
    { cwd: out },
  );
  console.log(
    `build: runnable tree in ${out} (start a process with: node --conditions=built apps/gateway/dist/server.js)`,
  );
}
