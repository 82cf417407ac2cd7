import type { Db } from "../client.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";
import type { Import, Prisma } from "../generated/client.js";
import type { ImportKind, ImportStatus, WatchSchedule } from "../generated/enums.js";
import { isUuid } from "../ids.js";
import type { ImportMappingUse } from "./import-mappings.js";
import type { Page } from "../products.js";
import { conflict, notFound } from "../service-error.js";

/** How long a preview is kept: long enough to come back to it, short enough not to hoard rows. */
export const IMPORT_TTL_MS = 7 * 24 * 3600_000;
/**
 * How long an import stays owned by the gateway working on it without a heartbeat. The owner
 * renews it several times within this; past it, the import is reported interrupted.
 */
export const IMPORT_LEASE_MS = 60_000;

const INTERRUPTED = "interrupted: start the import again";
const INTERRUPTED_STORING =
  "interrupted while storing (nothing was stored): start the import again";

export interface ImportView {
  id: string;
  kind: ImportKind;
  name: string;
  status: ImportStatus;
  error: string | null;
  currency: string | null;
  /** A CSV/TSV document's text encoding and how it was chosen; null for URLs, XLSX and JSON. */
  encoding: ImportEncoding | null;
  progress: { done: number; total: number | null; etaSeconds: number | null };
  counts: {
    create: number;
    update: number;
    unchanged: number;
    error: number;
    skipped: number;
    noCurrency: number;
  };
  result: { created: number; updated: number; unchanged: number; skipped: number } | null;
  /** URL imports: the schedule the products it stores are watched on (null: not watched). */
  watch: WatchSchedule | null;
  /** A document's columns read with a mapping: one sent with it, or an org template. */
  mapping: ImportMappingUse | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** When retention removed the rows of this finished import (its counts stay). */
  rowsRemovedAt: string | null;
}

export interface ImportEncoding {
  name: string;
  source: "named" | "detected";
}

/** Thrown by a background step that finds its import no longer in the status it works on. */
export class ImportStopped extends Error {
  override name = "ImportStopped";
}

const leaseFromNow = () => new Date(Date.now() + IMPORT_LEASE_MS);

function etaOf(row: Import, now: number): number | null {
  if (
    (row.status !== "previewing" && row.status !== "storing") ||
    !row.phaseStartedAt ||
    !row.total ||
    row.done <= 0
  )
    return null;
  const perRow = (now - row.phaseStartedAt.getTime()) / 1000 / row.done;
  return Math.max(0, Math.round(perRow * Math.max(0, row.total - row.done)));
}

export function toImportView(row: Import, now = Date.now()): ImportView {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    status: row.status,
    error: row.error,
    currency: row.currency,
    encoding: row.encoding
      ? { name: row.encoding, source: row.encodingSource === "named" ? "named" : "detected" }
      : null,
    progress: { done: row.done, total: row.total, etaSeconds: etaOf(row, now) },
    counts: {
      create: row.countCreate,
      update: row.countUpdate,
      unchanged: row.countUnchanged,
      error: row.countError,
      skipped: row.countSkipped,
      noCurrency: row.countNoCurrency,
    },
    result: row.result as ImportView["result"],
    watch: row.watchSchedule,
    mapping:
      row.mappingSource === "given" || row.mappingSource === "template"
        ? {
            source: row.mappingSource,
            templateId: row.mappingTemplateId,
            templateName: row.mappingTemplateName,
          }
        : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    rowsRemovedAt: row.rowsRemovedAt?.toISOString() ?? null,
  };
}

/**
 * Lazily tidies the org's imports before they are read: one past its lease while previewing or
 * storing lost its gateway (a storing one's transaction died with it), so it is failed; one past
 * its expiry is deleted with its rows.
 */
async function tidy(db: Db, orgId: string): Promise<void> {
  const failed = await db.$queryRaw<
    { id: string; name: string; kind: string; error: string }[]
  >`UPDATE imports SET status = 'failed', lease_until = NULL, updated_at = now(),
    error = CASE WHEN status = 'storing' THEN ${INTERRUPTED_STORING} ELSE ${INTERRUPTED} END
    WHERE org_id = ${orgId}::uuid AND status IN ('previewing', 'storing') AND lease_until < now()
    RETURNING id, name, kind::text, error`;
  for (const row of failed) await importFailedEvent(db, orgId, row);
  await db.$executeRaw`DELETE FROM imports
    WHERE org_id = ${orgId}::uuid AND expires_at < now() AND status NOT IN ('previewing', 'storing')`;
}

export interface NewImport {
  kind: ImportKind;
  name: string;
  currency: string | null;
  /** A CSV/TSV document's, as it was read when checked. */
  encoding?: ImportEncoding | null;
  total: number | null;
  createdBy: string | null;
  /** URL imports: the products it stores are watched on this schedule (source watch). */
  watchSchedule?: WatchSchedule | null;
  /** Documents: how its columns were read, when not automatically. */
  mapping?: ImportMappingUse | null;
}

export async function createImport(db: Db, orgId: string, fields: NewImport): Promise<ImportView> {
  await tidy(db, orgId);
  const { encoding, mapping, ...rest } = fields;
  const row = await db.import.create({
    data: {
      orgId,
      ...rest,
      encoding: encoding?.name ?? null,
      encodingSource: encoding?.source ?? null,
      mappingSource: mapping?.source ?? null,
      mappingTemplateId: mapping?.templateId ?? null,
      mappingTemplateName: mapping?.templateName ?? null,
      leaseUntil: leaseFromNow(),
      expiresAt: new Date(Date.now() + IMPORT_TTL_MS),
    },
  });
  return toImportView(row);
}

/** Imports the org has in progress on a live gateway (per-org concurrency). */
export function activeImportCount(db: Db, orgId: string): Promise<number> {
  return db.import.count({
    where: { orgId, status: { in: ["previewing", "storing"] }, leaseUntil: { gt: new Date() } },
  });
}

async function findImport(db: Db, orgId: string, id: string): Promise<Import> {
  if (!isUuid(id)) throw notFound(`import ${id}`);
  await tidy(db, orgId);
  const row = await db.import.findFirst({ where: { id, orgId, expiresAt: { gt: new Date() } } });
  if (!row) throw notFound(`import ${id}`);
  return row;
}

export async function getImport(db: Db, orgId: string, id: string): Promise<ImportView> {
  return toImportView(await findImport(db, orgId, id));
}

/** Checks that the org can see the import (else 404) and returns its status. */
export async function importStatus(db: Db, orgId: string, id: string): Promise<ImportStatus> {
  return (await findImport(db, orgId, id)).status;
}

export async function listImports(
  db: Db,
  orgId: string,
  query: { page: number; pageSize: number },
): Promise<Page<ImportView>> {
  await tidy(db, orgId);
  const where = { orgId };
  const [rows, total] = await Promise.all([
    db.import.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.import.count({ where }),
  ]);
  const now = Date.now();
  return { items: rows.map((row) => toImportView(row, now)), total };
}

/**
 * Updates an import the caller is working on, only while it is still in `status` (the user may
 * have discarded it, or a reader found its lease expired) and matches `where`: false means not.
 */
export async function updateOwnedImport(
  db: Db | Prisma.TransactionClient,
  id: string,
  status: ImportStatus,
  data: Prisma.ImportUpdateManyMutationInput,
  where: Prisma.ImportWhereInput = {},
): Promise<boolean> {
  const { count } = await db.import.updateMany({
    where: { ...where, id, status },
    data: { leaseUntil: leaseFromNow(), ...data },
  });
  return count === 1;
}

/** Starts a phase's clock (for the ETA); its total when known. */
export async function startPhase(
  db: Db,
  id: string,
  status: ImportStatus,
  total: number | null,
): Promise<void> {
  if (!(await updateOwnedImport(db, id, status, { phaseStartedAt: new Date(), done: 0, total })))
    throw new ImportStopped();
}

export async function finishPreview(db: Db, id: string): Promise<void> {
  const [row] = await db.$queryRaw<
    { done: number }[]
  >`UPDATE imports SET status = 'ready', total = done, lease_until = NULL, updated_at = now()
    WHERE id = ${id}::uuid AND status = 'previewing' RETURNING done`;
  if (!row) throw new ImportStopped();
}

/** Fails an import that is still previewing or storing; nothing else is touched. */
export async function failImport(db: Db, id: string, message: string): Promise<void> {
  const failed = await db.import.updateManyAndReturn({
    where: { id, status: { in: ["previewing", "storing"] } },
    data: { status: "failed", error: message, leaseUntil: null },
    select: { id: true, orgId: true, name: true, kind: true, error: true },
  });
  for (const row of failed) await importFailedEvent(db, row.orgId, row);
}

/** Webhooks out: `import.failed`, with the reason the import shows. */
const importFailedEvent = (
  db: Db,
  orgId: string,
  row: { id: string; name: string; kind: string; error: string | null },
) =>
  recordWebhookEvent(db, {
    orgId,
    type: "import.failed",
    data: { importId: row.id, name: row.name, kind: row.kind, error: row.error },
  });

/**
 * Drops a preview: its rows go, the import stays listed as discarded until it expires. A storing
 * import cannot be discarded (its transaction decides), nor a stored one (its products exist).
 */
export async function discardImport(db: Db, orgId: string, id: string): Promise<void> {
  const status = await importStatus(db, orgId, id);
  if (status === "storing")
    throw conflict("the import is being stored; it cannot be discarded now");
  if (status === "stored") throw conflict("the import is stored; there is no preview to discard");
  if (status === "discarded") return;
  await db.$transaction(async (tx) => {
    const { count } = await tx.import.updateMany({
      where: { id, orgId, status: { in: ["previewing", "ready", "failed"] } },
      data: { status: "discarded", leaseUntil: null },
    });
    if (count === 0) throw conflict("the import changed meanwhile; look at it again");
    await tx.importRow.deleteMany({ where: { importId: id } });
  });
}
