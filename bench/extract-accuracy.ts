/**
 * Extraction accuracy on the shared page corpus: per-field precision and recall, and pages/s.
 *   pnpm exec tsx bench/extract-accuracy.ts              table and targets
 *   pnpm exec tsx bench/extract-accuracy.ts --failures   also every wrong, missed or spurious value
 *   pnpm exec tsx bench/extract-accuracy.ts --field sku  failures of one field only
 * Definitions are in packages/extract/src/html/corpus-accuracy.ts.
 */
import { performance } from "node:perf_hooks";
import {
  corpusAvailable, corpusDir, judge, loadCorpus, score, SCORED_FIELDS, type ScoredField, type Verdict,
} from "../packages/extract/src/html/corpus-accuracy.js";
import { extractProduct } from "../packages/extract/src/html/index.js";
import type { ProductCandidate } from "../packages/extract/src/product-candidate.js";

const TARGETS: Partial<Record<ScoredField, number>> = { title: 0.9, price: 0.9, sku: 0.9 };
const LABELS: Record<ScoredField, string> = {
  title: "title", sku: "sku", price: "price+currency", brand: "brand", gtin: "gtin", image: "image (first)",
  availability: "availability",
};

const args = process.argv.slice(2);
const showFailures = args.includes("--failures");
const onlyField = args.includes("--field") ? args[args.indexOf("--field") + 1] : undefined;

if (!corpusAvailable()) {
  console.error(`No corpus at ${corpusDir().pathname}: nothing to measure.`);
  process.exit(1);
}

const { pages } = loadCorpus();
const results: (ProductCandidate | null)[] = pages.map((p) => extractProduct(p.html, p.expected.url ?? ""));

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

const pad = (text: string, width: number): string => text.padEnd(width);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(7);
console.log(`Extraction accuracy: ${pages.length} pages from ${corpusDir().pathname}`);
console.log(`${pad("field", 16)}${"expected".padStart(9)}${"correct".padStart(8)}${"wrong".padStart(7)}${"missed".padStart(7)}${"spurious".padStart(9)}${"precision".padStart(10)}${"recall".padStart(8)}  target`);
let allPass = true;
const failures: string[] = [];
for (const field of SCORED_FIELDS) {
  const verdicts: Verdict[] = pages.map((page, i) => {
    const judged = judge(field, page.expected, results[i] ?? null);
    if (judged.verdict !== "correct" && judged.verdict !== "ignored" && (!onlyField || onlyField === field)) {
      failures.push(`${field.padEnd(12)} ${judged.verdict.padEnd(8)} ${page.expected.file.replace(/^pages\//, "").slice(0, 50)}\n    expected: ${judged.expected}\n    got:      ${judged.predicted}`);
    }
    return judged.verdict;
  });
  const s = score(verdicts);
  const target = TARGETS[field];
  const verdict = target === undefined ? "" : s.recall >= target ? `PASS (recall >= ${target * 100}%)` : `FAIL (recall < ${target * 100}%)`;
  if (target !== undefined && s.recall < target) allPass = false;
  console.log(`${pad(LABELS[field], 16)}${String(s.correct + s.wrong + s.missed).padStart(9)}${String(s.correct).padStart(8)}${String(s.wrong).padStart(7)}${String(s.missed).padStart(7)}${String(s.spurious).padStart(9)}${pct(s.precision).padStart(10)}${pct(s.recall).padStart(8)}  ${verdict}`);
}
const productPages = results.filter((r) => r !== null).length;
console.log(`\npages recognised as products: ${productPages}/${pages.length}`);
console.log(`speed: ${(pages.length / (medianMs / 1000)).toFixed(1)} pages/s (${(megabytes / (medianMs / 1000)).toFixed(1)} MB/s of HTML), median of ${rounds.length} passes, ${medianMs.toFixed(0)} ms per pass, one process`);
console.log(`targets (title, price+currency, sku recall >= 90% where expected): ${allPass ? "PASS" : "FAIL"}`);
if (showFailures || onlyField) console.log(`\n${failures.join("\n")}`);
