import type { MultipartFile } from "@fastify/multipart";
import {
  ServiceError,
  activeImportCount,
  createImport,
  failImport,
  type Db,
  type ImportView,
  type WatchSchedule,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import type { Acting } from "../plugins/auth.js";
import {
  checkDocument,
  previewDocument,
  type DocumentParts,
  type DocumentPreviewLimits,
} from "./document-preview.js";
import type { ImportTask, ImportTasks } from "./import-tasks.js";
import { checkUrls, type ScrapeQueues } from "./url-scrape.js";
import { urlImportName } from "./url-import-name.js";
import { previewUrls } from "./url-preview.js";

/** Imports one org may have previewing or storing at once, across every gateway. */
export const MAX_ACTIVE_IMPORTS_PER_ORG = 4;

/**
 * Who starts an import: the acting org, actor and user (plugins/auth.ts `actingOf`), and the
 * request's id for the scrape jobs.
 */
export interface ImportStarter extends Acting {
  requestId: string;
}

export interface StartImportDeps {
  db: Db;
  tasks: ImportTasks;
  queues: ScrapeQueues;
  policy: UrlPolicy;
  deadlineMs: number;
  document: DocumentPreviewLimits;
}

/**
 * 429 when the organisation already has its most imports in progress; checked before a document is
 * read.
 */
export async function checkImportCapacity(db: Db, orgId: string): Promise<void> {
  if ((await activeImportCount(db, orgId)) >= MAX_ACTIVE_IMPORTS_PER_ORG) {
    throw new ServiceError(
      429,
      `your organisation already has ${MAX_ACTIVE_IMPORTS_PER_ORG} imports in progress; wait for one to finish`,
      { "retry-after": "15" },
    );
  }
}

/**
 * Hands the import to the background; if that is refused (the gateway is closing), the import says
 * so.
 */
function launch(
  deps: StartImportDeps,
  view: ImportView,
  task: Omit<ImportTask, "importId" | "status" | "failurePrefix">,
): ImportView {
  try {
    deps.tasks.start({ importId: view.id, status: "previewing", failurePrefix: "", ...task });
    return view;
  } catch (error) {
    void task.cleanup?.().catch(() => {});
    void failImport(deps.db, view.id, (error as Error).message).catch(() => {});
    throw error;
  }
}

/**
 * An import of page URLs: every URL is checked (422 naming each refused one) before the import
 * exists.
 */
export async function startUrlImport(
  deps: StartImportDeps,
  starter: ImportStarter,
  urls: string[],
  watchSchedule: WatchSchedule | null = null,
): Promise<ImportView> {
  const { orgId, actor, userId } = starter;
  await checkImportCapacity(deps.db, orgId);
  await checkUrls(urls, deps.policy);
  const view = await createImport(deps.db, orgId, {
    kind: "urls",
    name: urlImportName(urls),
    currency: null,
    total: urls.length,
    createdBy: userId,
    watchSchedule,
  });
  return launch(deps, view, {
    work: (signal) =>
      previewUrls(
        {
          db: deps.db,
          queues: deps.queues,
          orgId,
          importId: view.id,
          actor,
          urls,
          requestId: starter.requestId,
          deadlineMs: deps.deadlineMs,
          policy: deps.policy,
        },
        signal,
      ),
  });
}

/**
 * An import of an uploaded document (its file part and text parts read by the route, after
 * `checkImportCapacity`). The
 * document is read once before the answer (a refused one is 413/415/422 and no import); the
 * preview itself runs in the background. `signal` aborts the first read (the client went away).
 */
export async function startDocumentImport(
  deps: StartImportDeps,
  starter: ImportStarter,
  file: MultipartFile,
  parts: DocumentParts,
  signal: AbortSignal,
): Promise<ImportView> {
  const { orgId, actor, userId } = starter;
  const document = await checkDocument(file, parts, deps.document, signal);
  let view: ImportView;
  try {
    view = await createImport(deps.db, orgId, {
      kind: "document",
      name: (file.filename || "document").slice(0, 255),
      currency: parts.currency ?? null,
      encoding: document.encoding,
      mapping: document.mapping,
      total: document.rows,
      createdBy: userId,
    });
  } catch (error) {
    await document.spool.remove();
    throw error;
  }
  return launch(deps, view, {
    work: (signal) =>
      previewDocument(
        {
          db: deps.db,
          orgId,
          importId: view.id,
          actor,
          document,
          parseHeapMb: deps.document.parseHeapMb,
          imagePolicy: deps.policy,
        },
        signal,
      ),
    cleanup: () => document.spool.remove(),
  });
}
