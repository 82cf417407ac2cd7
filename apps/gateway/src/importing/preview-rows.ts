import {
  errorRow,
  importProducts,
  previewRowOf,
  type Actor,
  type Db,
  type ImportItem,
  type PreviewRow,
} from "@catalog/db";
import { importRows } from "../metrics.js";
import type { DroppedImage, ImageScreen } from "./image-screen.js";

type At = { row: number; url: string | null };

/** One row of a batch before it is previewed: an item to import, or why there is none. */
export type PreviewEntry = { at: At; item: ImportItem } | { at: At; error: string };

/** A batch's entries, their items' images screened: `dropped` per importable entry. */
export interface ScreenedEntries {
  entries: PreviewEntry[];
  importable: Extract<PreviewEntry, { item: ImportItem }>[];
  dropped: DroppedImage[][];
}

/** Leaves out of each item of the batch the images the URL policy refuses (image-screen.ts). */
export async function screenEntries(
  entries: PreviewEntry[],
  screenImages: ImageScreen,
): Promise<ScreenedEntries> {
  const importable = entries.filter(
    (entry): entry is Extract<PreviewEntry, { item: ImportItem }> => "item" in entry,
  );
  const dropped = await Promise.all(importable.map((entry) => screenImages(entry.item)));
  return { entries, importable, dropped };
}

interface PreviewOptions {
  actor: Actor;
  source: "scrape" | "document" | "extension";
  /** The items' descriptions are cleaned already (the document parser thread does it). */
  descriptionsStored?: boolean;
}

/**
 * A batch previewed against the catalog, nothing written: each item's images screened, the
 * catalog matched and diffed as an import plans it, and a row per entry in the batch's order
 * (the entries without an item as error rows).
 */
export async function previewEntries(
  db: Db,
  orgId: string,
  options: PreviewOptions,
  screenImages: ImageScreen,
  entries: PreviewEntry[],
): Promise<PreviewRow[]> {
  return previewScreened(db, orgId, options, await screenEntries(entries, screenImages));
}

/** previewEntries of a batch screened already (screenEntries). */
export async function previewScreened(
  db: Db,
  orgId: string,
  options: PreviewOptions,
  { entries, importable, dropped }: ScreenedEntries,
): Promise<PreviewRow[]> {
  const outcomes =
    importable.length === 0
      ? []
      : await importProducts(
          db,
          orgId,
          importable.map((entry) => entry.item),
          { ...options, persist: false },
        );
  const previewed = new Map<PreviewEntry, PreviewRow>(
    importable.map((entry, i) => [
      entry,
      previewRowOf(entry.at, outcomes[i]!, entry.item, dropped[i]),
    ]),
  );
  const rows = entries.map(
    (entry) =>
      previewed.get(entry) ?? errorRow(entry.at, "error" in entry ? entry.error : "not importable"),
  );
  for (const row of rows) importRows.inc({ source: options.source, outcome: row.outcome });
  return rows;
}
