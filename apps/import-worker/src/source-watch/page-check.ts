import { FetchFailedError } from "@catalog/fetch";
import type { SourceCheckOutcome } from "@catalog/db/source-watch";
import { readProductPage, type PageReaderDeps } from "../page-reader.js";

const GONE = new Set([404, 410]);

/** A quantity the page states, when its reading carries one (a whole number from 0). */
function statedQuantity(candidate: object): number | undefined {
  const value = (candidate as { quantity?: unknown }).quantity;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Reads a watched product's page again, as an import reads it: a 404 or 410 is a page gone, a
 * page without a product says so, any other failure (5xx, a timeout, a refused address) is a
 * failed check that changes nothing.
 */
export async function checkSourcePage(
  url: string,
  deps: PageReaderDeps,
): Promise<SourceCheckOutcome> {
  try {
    const page = await readProductPage(url, deps);
    if (!page.found) return { kind: "gone", result: "product no longer on the page" };
    const quantity = statedQuantity(page.candidate);
    return {
      kind: "found",
      price: page.candidate.price,
      availability: page.candidate.availability,
      ...(quantity !== undefined ? { quantity } : {}),
    };
  } catch (error) {
    if (error instanceof FetchFailedError && error.status !== undefined && GONE.has(error.status))
      return { kind: "gone", result: `page gone (${error.status})` };
    return { kind: "failed", result: `the page could not be read: ${(error as Error).message}` };
  }
}
