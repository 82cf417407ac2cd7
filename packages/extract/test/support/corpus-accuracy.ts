import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { sharedPath } from "@catalog/test-support/shared-inputs";
import type { ProductCandidate } from "../../src/product-candidate.js";
import { squash } from "../../src/html/text.js";

/**
 * Scoring extraction against the shared corpus (`corpus/expected-pages.jsonl`), as its README reads
 * the expectations. Used by the corpus test and by bench/extract-accuracy.ts, so both count the
 * same way; not part of the extraction itself, so it lives with the tests and is not built.
 *
 * Per field and page: an expectation of null is no expectation, unless the field is listed in
 * `absent_in_source_gt` (the page's ground truth is empty, so any value is a false positive).
 *   correct  expected, predicted, matches          wrong    expected, predicted, does not match
 *   missed   expected, nothing predicted           spurious expected absent, something predicted
 * precision = correct / (correct + wrong + spurious): of the values given where they can be judged,
 * how many are right. recall = correct / (correct + wrong + missed): of the values expected, how
 * many were given right.
 */
export const SCORED_FIELDS = [
  "title",
  "sku",
  "price",
  "brand",
  "gtin",
  "image",
  "availability",
] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];
export type Verdict = "correct" | "wrong" | "missed" | "spurious" | "ignored";

export interface ExpectedPage {
  file: string;
  url: string | null;
  title: string | null;
  page_title?: string | null;
  sku: string | string[] | null;
  price: string | string[] | null;
  currency: string | null;
  brand: string | string[] | null;
  gtin: string | string[] | null;
  image: string | string[] | null;
  availability: string | null;
  absent_in_source_gt?: string[];
}

export interface Corpus {
  pages: { expected: ExpectedPage; html: string }[];
}

/** ../shared/corpus beside the repository. */
export function corpusDir(): URL {
  return pathToFileURL(sharedPath("corpus/"));
}

export function corpusAvailable(dir: URL = corpusDir()): boolean {
  try {
    return statSync(new URL("expected-pages.jsonl", dir)).isFile();
  } catch {
    return false;
  }
}

export function loadCorpus(dir: URL = corpusDir()): Corpus {
  const lines = readFileSync(new URL("expected-pages.jsonl", dir), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const pages = lines.map((line) => {
    const expected = JSON.parse(line) as ExpectedPage;
    const html = gunzipSync(readFileSync(new URL(expected.file, dir))).toString("utf8");
    return { expected, html };
  });
  return { pages };
}

/** Page files on disk, to notice a page added to the corpus without an expectation line. */
export function listPageFiles(dir: URL = corpusDir()): string[] {
  const root = new URL("pages/", dir).pathname;
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".html.gz"))
    .map((name) => join("pages", name));
}

function list(value: string | string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function normaliseTitle(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, " ")
    .replace(/[’`]/g, "'")
    .trim();
}

/**
 * Scheme, query, fragment, the site's own subdomain (a CDN host beside "www"), and size
 * suffixes ("_SX300_", "-300x300", "@2x", "/w/560/", eBay's "s-l400.jpg") do not make a
 * different image.
 */
export function normaliseImage(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/^\/\//, "")
    .replace(/^([^/]+):(443|80)\//, "$1/")
    .replace(/^[^/]*?([^./]+\.(?:co\.|com\.)?[^./]+)\//, "$1/")
    .replace(/[?#].*$/, "")
    .replace(/\._[a-z0-9_,.-]+_(?=\.[a-z]+$)/, "")
    .replace(/[-_]\d{2,4}x\d{0,4}(?=\.[a-z]+$)/, "")
    .replace(/@\d+x(?=\.[a-z]+$)/, "")
    .replace(/\/[wh]\/\d{2,4}\//, "/")
    .replace(/\/s-l\d+\.[a-z]+$/, "/s-l");
}

function sameDecimal(a: string, b: string): boolean {
  const x = Number(a.replace(/,/g, ""));
  const y = Number(b.replace(/,/g, ""));
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) < 0.005;
}

interface Judged {
  verdict: Verdict;
  expected: string;
  predicted: string;
}

export function judge(
  field: ScoredField,
  page: ExpectedPage,
  candidate: ProductCandidate | null,
): Judged {
  const absent = (page.absent_in_source_gt ?? []).includes(field);
  const predicted = predictedText(field, candidate);
  const expectedValues =
    field === "title" ? list(page.title ?? page.page_title ?? null) : list(page[field]);
  const expected =
    field === "price" && page.currency
      ? expectedValues.map((v) => `${v} ${page.currency}`)
      : expectedValues;
  const shown = { expected: expected.join(" | "), predicted: predicted ?? "" };
  if (expectedValues.length === 0) {
    if (absent && predicted !== null) return { verdict: "spurious", ...shown };
    return { verdict: "ignored", ...shown };
  }
  if (predicted === null) return { verdict: "missed", ...shown };
  return {
    verdict: matches(field, page, candidate, expectedValues) ? "correct" : "wrong",
    ...shown,
  };
}

function predictedText(field: ScoredField, c: ProductCandidate | null): string | null {
  if (!c) return null;
  switch (field) {
    case "price": {
      if (c.price) return `${c.price.amount} ${c.price.currency}`;
      const loose = c.attributes["priceAmountWithoutCurrency"];
      return typeof loose === "string" ? `${loose} (no currency)` : null;
    }
    case "image":
      return c.images[0] ?? null;
    default:
      return c[field];
  }
}

function matches(
  field: ScoredField,
  page: ExpectedPage,
  c: ProductCandidate | null,
  expected: string[],
): boolean {
  if (!c) return false;
  switch (field) {
    case "title": {
      const got = normaliseTitle(c.title ?? "");
      if (page.title) return expected.some((e) => normaliseTitle(e) === got);
      return got.length >= 3 && expected.some((e) => normaliseTitle(e).includes(got));
    }
    case "price": {
      const amount =
        c.price?.amount ?? (c.attributes["priceAmountWithoutCurrency"] as string | undefined);
      if (!amount || !expected.some((e) => sameDecimal(e, amount))) return false;
      return page.currency === null || c.price?.currency === page.currency;
    }
    case "image": {
      const got = c.images[0];
      return got !== undefined && expected.some((e) => normaliseImage(e) === normaliseImage(got));
    }
    case "gtin":
      return expected.some((e) => e.replace(/^0+/, "") === (c.gtin ?? "").replace(/^0+/, ""));
    // One brand however it is punctuated or spaced: "De’Longhi" is "DeLonghi", "TP Link" is
    // "TP-Link".
    case "brand":
      return expected.some((e) => squash(e) === squash(c.brand ?? ""));
    default: {
      const got = (c[field] ?? "").trim().toLowerCase();
      return expected.some((e) => e.trim().toLowerCase() === got);
    }
  }
}

export interface FieldScore {
  correct: number;
  wrong: number;
  missed: number;
  spurious: number;
  precision: number;
  recall: number;
}

export function score(verdicts: Verdict[]): FieldScore {
  const count = (v: Verdict): number => verdicts.filter((x) => x === v).length;
  const correct = count("correct");
  const wrong = count("wrong");
  const missed = count("missed");
  const spurious = count("spurious");
  const given = correct + wrong + spurious;
  const expected = correct + wrong + missed;
  return {
    correct,
    wrong,
    missed,
    spurious,
    precision: given === 0 ? 1 : correct / given,
    recall: expected === 0 ? 1 : correct / expected,
  };
}
