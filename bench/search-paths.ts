import { ADJECTIVES, BRANDS, COLOURS, MATERIALS, NOUNS } from "./catalog-words.js";
import { seededRandom } from "./seeded-random.js";

/**
 * Searches as real users send them, mostly read-cache misses: every word of the catalog's
 * vocabulary, its 3- to 6-letter prefixes (what a user has typed so far), lower and title case,
 * two-word phrases, and SKU fragments, each on pages 1 to 3 (page 1 most often). Shuffled with a
 * fixed seed and taken in turn without repeating until the list is used up, so within a run
 * (and across rounds, for lists longer than a run) no (term, page) pair is asked twice: the only
 * cache a request can hit is one shared across pages of the same term.
 */
export function searchMissPaths(products: number, pageSize = 25): string[] {
  const random = seededRandom(7_331);
  const words = [...ADJECTIVES, ...MATERIALS, ...NOUNS, ...COLOURS, ...BRANDS];
  const terms = new Set<string>();
  for (const word of words) {
    terms.add(word);
    terms.add(word.toLowerCase());
    for (let n = 3; n <= Math.min(6, word.length - 1); n++)
      terms.add(word.slice(0, n).toLowerCase());
  }
  for (let i = 0; i < 2_000; i++) {
    const a = MATERIALS[Math.floor(random() * MATERIALS.length)] as string;
    const b = NOUNS[Math.floor(random() * NOUNS.length)] as string;
    terms.add(`${a} ${b}`.toLowerCase());
  }
  // SKU-000000 .. SKU-(products-1): fragments of 3 to 6 digits match many to one product.
  const digits = String(Math.max(1, products - 1)).length;
  for (let i = 0; i < 20_000; i++) {
    const sku = String(Math.floor(random() * products)).padStart(Math.max(6, digits), "0");
    const cut = 3 + Math.floor(random() * 4);
    terms.add(random() < 0.5 ? `SKU-${sku.slice(0, cut)}` : sku.slice(-cut));
  }
  const paths: string[] = [];
  for (const term of terms) {
    const q = encodeURIComponent(term);
    paths.push(`/api/products?q=${q}&pageSize=${pageSize}`);
    if (random() < 0.5) paths.push(`/api/products?q=${q}&page=2&pageSize=${pageSize}`);
    if (random() < 0.25) paths.push(`/api/products?q=${q}&page=3&pageSize=${pageSize}`);
  }
  for (let i = paths.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [paths[i], paths[j]] = [paths[j] as string, paths[i] as string];
  }
  return paths;
}

/**
 * Deep pages of the whole catalog: page `around` and its 200 neighbours each side, at page sizes
 * 20 to 30 (so about 4,400 distinct pages, each a read-cache miss the first time).
 */
export function deepPagePaths(around: number): string[] {
  const paths: string[] = [];
  for (let page = Math.max(1, around - 200); page <= around + 200; page++)
    for (let pageSize = 20; pageSize <= 30; pageSize++)
      paths.push(`/api/products?page=${page}&pageSize=${pageSize}`);
  const random = seededRandom(4_001);
  for (let i = paths.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [paths[i], paths[j]] = [paths[j] as string, paths[i] as string];
  }
  return paths;
}

/** Takes paths in turn, never the same one twice until all were taken. */
export function pathCycle(paths: string[]): () => string {
  let next = 0;
  return () => {
    const path = paths[next % paths.length] as string;
    next++;
    return path;
  };
}
