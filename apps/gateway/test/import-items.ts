// The items of a one-shot import's answer (POST /api/import/url, /api/import/document), narrowed to
// an imported or a failed one: a test reads `.product` or `.error` only after the item is that kind.
import type { DocumentImportResult, UrlImportResult } from "../src/api-types.js";

type Item = (UrlImportResult | DocumentImportResult)["items"][number];
export type Imported<I extends Item> = Extract<I, { ok: true }>;
export type Failed<I extends Item> = Extract<I, { ok: false }>;

export const isImported = <I extends Item>(item: I): item is Imported<I> => item.ok;
export const isFailed = <I extends Item>(item: I): item is Failed<I> => !item.ok;

/** The item, which must have been imported (ok: true); anything else fails the test. */
export function imported<I extends Item>(item: I | undefined): Imported<I> {
  if (!item || !isImported(item)) throw new Error(`not an imported item: ${JSON.stringify(item)}`);
  return item;
}

/** The item, which must have failed (ok: false); anything else fails the test. */
export function failed<I extends Item>(item: I | undefined): Failed<I> {
  if (!item || !isFailed(item)) throw new Error(`not a failed item: ${JSON.stringify(item)}`);
  return item;
}
