/**
 * Extraction accuracy on the shared page corpus: per-field precision and recall against the
 * targets, the same per half of a split of the corpus by shop (a rule that helps only the shop it
 * was written for shows up as a gap between the halves), and pages/s.
 *   pnpm exec tsx bench/extract-accuracy.ts              tables and targets
 *   pnpm exec tsx bench/extract-accuracy.ts --shops      also each shop's results
 *   pnpm exec tsx bench/extract-accuracy.ts --failures   also every wrong, missed or spurious value
 *   pnpm exec tsx bench/extract-accuracy.ts --field sku  failures of one field only
 *   pnpm exec tsx bench/extract-accuracy.ts --without-markup   the pages with their structured data removed
 * Definitions are in packages/extract/test/support/corpus-accuracy.ts.
 */
import { performance } from "node:perf_hooks";
import {
  corpusAvailable,
  corpusDir,
  judge,
  loadCorpus,
  score,
  SCORED_FIELDS,
  type ScoredField,
  type Verdict,
} from "../packages/extract/test/support/corpus-accuracy.js";
import { extractProduct } from "../packages/extract/src/html/index.js";
import { shopOf, splitShops } from "./shop-split.js";
import { stripMarkup } from "./strip-markup.js";

/** Floors from issue 16: recall where a value is expected; precision for every field. */
const RECALL_TARGETS: Record<ScoredField, number> = {
  title: 0.98,
  price: 0.97,
  sku: 0.96,
  availability: 0.95,
  image: 0.95,
  brand: 0.9,
  gtin: 0.9,
};
const PRECISION_TARGET = 0.95;
/** Most the two halves' recalls may differ, in points. */
const HALF_GAP_POINTS = 3;
const LABELS: Record<ScoredField, string> = {
  title: "title",
  sku: "sku",
  price: "price+currency",
  brand: "brand",
  gtin: "gtin",
  image: "image (first)",
  availability: "availability",
};

const args = process.argv.slice(2);
const showFailures = args.includes("--failures");
const showShops = args.includes("--shops");
const onlyField = args.includes("--field") ? args[args.indexOf("--field") + 1] : undefined;
const withoutMarkup = args.includes("--without-markup");

if (!corpusAvailable()) {
  console.error(`No corpus at ${corpusDir().pathname}: nothing to measure.`);
  process.exit(1);
}

const corpus = loadCorpus().pages;
const pages = withoutMarkup
  ? corpus.map((page) => ({ ...page, html: stripMarkup(page.html) }))
  : corpus;
const results = pages.map((p) => extractProduct(p.html, p.expected.url ?? ""));

// Speed: a warm-up pass above, then whole passes over the corpus, the median pass counted.
const rounds: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  for (const page of pages) extractProduct(page.html, page.expected.url ?? "");
  rounds.push(performance.now() - started);
}
rounds.sort((a, b) => a - b);
const medianMs = rounds[Math.floor(rounds.length / 2)] ?? 0;
const megabytes = pages.reduce((sum, p) => sum + p.html.length, 0) / 1e6;

const failures: string[] = [];
const verdicts = new Map<ScoredField, Verdict[]>(
  SCORED_FIELDS.map((field) => [
    field,
    pages.map((page, i) => {
      const judged = judge(field, page.expected, results[i] ?? null);
      if (
        judged.verdict !== "correct" &&
        judged.verdict !== "ignored" &&
        (!onlyField || onlyField === field)
      ) {
        failures.push(
          `${field.padEnd(12)} ${judged.verdict.padEnd(8)} ${page.expected.file.replace(/^pages\//, "").slice(0, 50)}\n    expected: ${judged.expected}\n    got:      ${judged.predicted}`,
        );
      }
      return judged.verdict;
    }),
  ]),
);
const scoreOf = (field: ScoredField, keep: (i: number) => boolean) =>
  score(verdicts.get(field)!.filter((_, i) => keep(i)));

const pad = (text: string, width: number): string => text.padEnd(width);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
let allPass = true;
console.log(`Extraction accuracy: ${pages.length} pages from ${corpusDir().pathname}`);
if (withoutMarkup)
  console.log(
    "(structured data removed: JSON-LD, microdata, RDFa, OpenGraph and product meta tags; the targets are for pages as they are)",
  );
console.log(
  `${pad("field", 16)}${"expected".padStart(9)}${"correct".padStart(8)}${"wrong".padStart(7)}${"missed".padStart(7)}${"spurious".padStart(9)}${"precision".padStart(10)}${"recall".padStart(8)}  targets`,
);
for (const field of SCORED_FIELDS) {
  const s = scoreOf(field, () => true);
  const recallOk = s.recall >= RECALL_TARGETS[field];
  const precisionOk = s.precision >= PRECISION_TARGET;
  allPass &&= recallOk && precisionOk;
  const targets = `${recallOk ? "ok  " : "FAIL"} recall >= ${pct(RECALL_TARGETS[field])}, ${precisionOk ? "ok  " : "FAIL"} precision >= ${pct(PRECISION_TARGET)}`;
  console.log(
    `${pad(LABELS[field], 16)}${String(s.correct + s.wrong + s.missed).padStart(9)}${String(s.correct).padStart(8)}${String(s.wrong).padStart(7)}${String(s.missed).padStart(7)}${String(s.spurious).padStart(9)}${pct(s.precision).padStart(10)}${pct(s.recall).padStart(8)}  ${targets}`,
  );
}

// The generalisation check: the corpus split by shop into two halves, scored apart.
const shops = pages.map((page) =>
  shopOf(page.expected.url, page.expected.file.split("/")[1] ?? "corpus"),
);
const pagesPerShop = new Map<string, number>();
for (const shop of shops) pagesPerShop.set(shop, (pagesPerShop.get(shop) ?? 0) + 1);
const halves = splitShops(pagesPerShop);
const inHalf = (h: 0 | 1) => (i: number) => halves[h].has(shops[i]!);
const halfPages = ([0, 1] as const).map((h) => pages.filter((_, i) => inHalf(h)(i)).length);
console.log(
  `\nBy shop: ${pagesPerShop.size} shops in two halves, A ${halves[0].size} shops / ${halfPages[0]} pages, B ${halves[1].size} shops / ${halfPages[1]} pages`,
);
console.log(
  `${pad("field", 16)}${"A recall".padStart(10)}${"B recall".padStart(10)}${"gap".padStart(8)}${"A prec.".padStart(9)}${"B prec.".padStart(9)}  within ${HALF_GAP_POINTS} points`,
);
for (const field of SCORED_FIELDS) {
  const [a, b] = [scoreOf(field, inHalf(0)), scoreOf(field, inHalf(1))];
  const gap = Math.abs(a.recall - b.recall) * 100;
  allPass &&= gap <= HALF_GAP_POINTS;
  console.log(
    `${pad(LABELS[field], 16)}${pct(a.recall).padStart(10)}${pct(b.recall).padStart(10)}${gap.toFixed(1).padStart(8)}${pct(a.precision).padStart(9)}${pct(b.precision).padStart(9)}  ${gap <= HALF_GAP_POINTS ? "ok" : "FAIL"}`,
  );
}

if (showShops) {
  console.log(`\nPer shop (correct/expected; - where nothing is expected):`);
  console.log(
    `${pad("shop", 26)}${"half".padStart(5)}${"pages".padStart(6)}${SCORED_FIELDS.map((f) => f.padStart(13)).join("")}`,
  );
  for (const [shop, n] of [...pagesPerShop].sort(
    (x, y) => y[1] - x[1] || x[0].localeCompare(y[0]),
  )) {
    const cells = SCORED_FIELDS.map((field) => {
      const s = scoreOf(field, (i) => shops[i] === shop);
      const expected = s.correct + s.wrong + s.missed;
      return (expected === 0 ? "-" : `${s.correct}/${expected}`).padStart(13);
    });
    console.log(
      `${pad(shop.slice(0, 25), 26)}${(halves[0].has(shop) ? "A" : "B").padStart(5)}${String(n).padStart(6)}${cells.join("")}`,
    );
  }
}

const productPages = results.filter((r) => r !== null).length;
console.log(`\npages recognised as products: ${productPages}/${pages.length}`);
console.log(
  `speed: ${(pages.length / (medianMs / 1000)).toFixed(1)} pages/s (${(megabytes / (medianMs / 1000)).toFixed(1)} MB/s of HTML), median of ${rounds.length} passes, ${medianMs.toFixed(0)} ms per pass, one process`,
);
console.log(
  `targets (recall and precision floors per field, halves within ${HALF_GAP_POINTS} points): ${allPass ? "PASS" : "FAIL"}`,
);
if (showFailures || onlyField) console.log(`\n${failures.join("\n")}`);
