/**
 * Extraction speed, the working tree against a git ref, in one process: `extractProduct` over
 * every page of the shared corpus (decompressed in memory once), old and new interleaved page by
 * page, which goes first alternating, so both see the same machine load.
 *   pnpm exec tsx bench/extract-speed.ts                   base: merge-base of HEAD and origin/main
 *   pnpm exec tsx bench/extract-speed.ts --base HEAD~3     any ref
 *   pnpm exec tsx bench/extract-speed.ts --rounds 11
 * The base's packages/extract/src and packages/values/src are unpacked (git archive) into a
 * gitignored folder inside packages/extract, so its bare imports (cheerio, ...) resolve through
 * the workspace's node_modules; its imports of @catalog/values are rewritten to its own copy. The
 * folder is removed as soon as the old code is loaded (or when the run ends before that); one a
 * killed run left is removed by the next. Exit code 0: it reports, it does not gate.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  corpusAvailable,
  corpusDir,
  loadCorpus,
} from "../packages/extract/test/support/corpus-accuracy.js";
import { extractProduct } from "../packages/extract/src/html/index.js";

type Extract = typeof extractProduct;

/** The new side may be this much slower before it is called slower: the noise of a shared machine. */
const NOISE_MARGIN = 0.95;

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const rounds = Number(option("--rounds") ?? 7);
const repo = fileURLToPath(new URL("..", import.meta.url));
const git = (...argv: string[]) =>
  execFileSync("git", argv, { cwd: repo, encoding: "utf8" }).trim();

function baseRef(): string {
  const given = option("--base");
  if (given) return given;
  for (const main of ["origin/main", "main"]) {
    try {
      return git("merge-base", "HEAD", main);
    } catch {
      // no such branch here: try the next
    }
  }
  throw new Error("no origin/main or main to take the merge-base with: pass --base <ref>");
}

const listTs = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));

/** Unpacks the ref's extractor and values into `dir`, its values imports pointing at its own copy. */
function unpackBase(ref: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["archive", ref, "packages/extract/src", "packages/values/src"], {
    cwd: repo,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  const values = join(dir, "packages/values/src/index.js");
  for (const file of listTs(join(dir, "packages/extract/src"))) {
    const text = readFileSync(file, "utf8");
    let to = relative(dirname(file), values);
    if (!to.startsWith(".")) to = `./${to}`;
    const rewritten = text.replace(/(["'])@catalog\/values\1/g, `"${to}"`);
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}

if (!corpusAvailable()) {
  console.error(`No corpus at ${corpusDir().pathname}: nothing to measure.`);
  process.exit(1);
}

/** Folders a run killed outright (no handler runs then) left behind: their process is gone. */
function removeStaleBases(): void {
  const root = join(repo, "packages/extract");
  for (const name of readdirSync(root)) {
    const pid = /^\.speed-base-(\d+)$/.exec(name)?.[1];
    if (pid === undefined) continue;
    try {
      process.kill(Number(pid), 0);
    } catch {
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

removeStaleBases();
const ref = baseRef();
const commit = git("rev-parse", "--short", ref);
const baseDir = join(repo, "packages/extract", `.speed-base-${process.pid}`);
const removeBase = () => rmSync(baseDir, { recursive: true, force: true });
process.on("exit", removeBase);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    removeBase();
    process.exit(130);
  });

unpackBase(ref, baseDir);
const old = (await import(
  pathToFileURL(join(baseDir, "packages/extract/src/html/index.ts")).href
)) as { extractProduct: Extract };
// Loaded: the extractor reads no file of its own after its imports, so the copy can go now. (A
// run killed outright before this, as tsx's SIGKILL of a busy child, leaves it for the next run.)
removeBase();

const pages = loadCorpus().pages.map((p) => ({ html: p.html, url: p.expected.url ?? "" }));
const timed = (extract: Extract, page: (typeof pages)[number]) => {
  const started = performance.now();
  extract(page.html, page.url);
  return performance.now() - started;
};

// Warm-up: one pass each, untimed (the JIT, the lazily built tables).
for (const page of pages) {
  old.extractProduct(page.html, page.url);
  extractProduct(page.html, page.url);
  await new Promise(setImmediate);
}

// A round is a pass over the corpus in which each page is read by both, one right after the
// other, the first of the two alternating by page and by round: a burst of load elsewhere on
// the machine falls on both sides alike, rather than on one side's whole pass.
const perSecond = (ms: number) => pages.length / (ms / 1000);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const oldRates: number[] = [];
const newRates: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  let oldMs = 0;
  let newMs = 0;
  for (const [i, page] of pages.entries()) {
    if ((i + round) % 2 === 0) {
      oldMs += timed(old.extractProduct, page);
      newMs += timed(extractProduct, page);
    } else {
      newMs += timed(extractProduct, page);
      oldMs += timed(old.extractProduct, page);
    }
    await new Promise(setImmediate); // untimed: lets a Ctrl-C end the run between pages
  }
  oldRates.push(perSecond(oldMs));
  newRates.push(perSecond(newMs));
  ratios.push(oldMs / newMs);
  console.log(
    `round ${round + 1}: old ${perSecond(oldMs).toFixed(1)} pages/s, new ${perSecond(newMs).toFixed(1)} pages/s, new/old ${(oldMs / newMs).toFixed(3)}`,
  );
}

const ratio = median(ratios);
console.log(
  `\n${pages.length} pages, ${rounds} rounds, base ${ref} (${commit}) against the working tree`,
);
console.log(`old: ${median(oldRates).toFixed(1)} pages/s (median)`);
console.log(`new: ${median(newRates).toFixed(1)} pages/s (median)`);
console.log(
  `new/old: ${ratio.toFixed(3)} (median of the rounds' ratios; min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})`,
);
console.log(
  `${ratio >= NOISE_MARGIN ? "PASS" : "FAIL"}: new >= ${NOISE_MARGIN} x old (the 5% is a noise margin for a shared machine, not an allowance)`,
);
