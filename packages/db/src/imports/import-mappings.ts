import type { Db } from "../client.js";
import type { ImportMapping, Prisma } from "../generated/client.js";
import { isUuid } from "../ids.js";
import { invalid, notFound } from "../service-error.js";

// An org's saved column mappings (issue 31): an upload whose header set is a template's is read
// with that template's mapping unless it brings its own.

/** One column as a template reads it (the shape @catalog/extract's ColumnMapping takes). */
export interface SavedMappingColumn {
  column: string;
  field: string;
  name?: string;
}

export interface SavedMapping {
  columns: SavedMappingColumn[];
}

export interface ImportMappingView {
  id: string;
  name: string;
  headers: string[];
  mapping: SavedMapping;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
}

/** How an import's columns were read, on the import view; null for the automatic reading. */
export interface ImportMappingUse {
  source: "given" | "template";
  templateId: string | null;
  templateName: string | null;
}

const SEPARATOR = "\u001f";

/** How headers are compared: each trimmed and lower-cased. */
const headerOf = (header: string) => header.trim().toLowerCase();

/**
 * The set of a file's headers as templates are found by: each trimmed and lower-cased, blanks and
 * repeats dropped, sorted, joined by U+001F (no header holds it: it is a control character).
 */
export function mappingHeaderKey(headers: readonly string[]): string {
  const set = [...new Set(headers.map(headerOf).filter((h) => h !== ""))];
  return set.sort().join(SEPARATOR);
}

export const toImportMappingView = (row: ImportMapping): ImportMappingView => ({
  id: row.id,
  name: row.name,
  headers: row.headers,
  mapping: row.mapping as unknown as SavedMapping,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listImportMappings(db: Db, orgId: string): Promise<ImportMappingView[]> {
  const rows = await db.importMapping.findMany({
    where: { orgId },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return rows.map(toImportMappingView);
}

export interface NewImportMapping {
  name: string;
  headers: string[];
  mapping: SavedMapping;
  createdBy: string | null;
}

/**
 * Saves a template; one for the same header set already saved in the org is replaced (`replaced`
 * true). A mapping naming a column its headers do not have is a 422 naming it.
 */
export async function saveImportMapping(
  db: Db,
  orgId: string,
  fields: NewImportMapping,
): Promise<{ view: ImportMappingView; replaced: boolean }> {
  const name = fields.name.trim();
  if (name === "") throw invalid("name: give the template a name (1 to 80 characters)");
  const known = new Set(fields.headers.map(headerOf));
  for (const entry of fields.mapping.columns) {
    if (!known.has(headerOf(entry.column)))
      throw invalid(
        `mapping: column "${entry.column.slice(0, 80)}" is not one of the template's headers; map only columns the file has`,
      );
  }
  const headerKey = mappingHeaderKey(fields.headers);
  if (headerKey === "") throw invalid("headers: name at least one column");
  const mapping = fields.mapping as unknown as Prisma.InputJsonValue;
  const before = await db.importMapping.findUnique({
    where: { orgId_headerKey: { orgId, headerKey } },
    select: { id: true },
  });
  const row = await db.importMapping.upsert({
    where: { orgId_headerKey: { orgId, headerKey } },
    create: {
      orgId,
      name,
      headers: fields.headers,
      headerKey,
      mapping,
      createdBy: fields.createdBy,
    },
    update: { name, headers: fields.headers, mapping, createdBy: fields.createdBy },
  });
  return { view: toImportMappingView(row), replaced: before !== null };
}

export async function deleteImportMapping(db: Db, orgId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(`import mapping ${id}`);
  const { count } = await db.importMapping.deleteMany({ where: { id, orgId } });
  if (count === 0) throw notFound(`import mapping ${id}`);
}

/** The org's template for this header set, if it has one. */
export async function findImportMappingFor(
  db: Db,
  orgId: string,
  headers: readonly string[],
): Promise<ImportMappingView | null> {
  const headerKey = mappingHeaderKey(headers);
  if (headerKey === "") return null;
  const row = await db.importMapping.findUnique({
    where: { orgId_headerKey: { orgId, headerKey } },
  });
  return row ? toImportMappingView(row) : null;
}

/** Records that an upload was read with the template. */
export async function markImportMappingUsed(db: Db, orgId: string, id: string): Promise<void> {
  await db.importMapping.updateMany({ where: { id, orgId }, data: { lastUsedAt: new Date() } });
}
