import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ServiceError, activeImportCount, createImport, failImport, type Db, type ImportView,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { actingOf } from "../../plugins/auth.js";
import { documentCurrencyPart, documentEncodingPart } from "../import/document-parts.js";
import { documentFilePart } from "../import/upload-part.js";
import { checkUrls } from "../import/url-import.js";
import { checkDocument, previewDocument, type DocumentPreviewLimits } from "./document-preview.js";
import type { ImportTask, ImportTasks } from "./import-tasks.js";
import { previewUrls } from "./url-preview.js";

/** Imports one org may have previewing or storing at once, across every gateway. */
export const MAX_ACTIVE_IMPORTS_PER_ORG = 4;

export interface StartImportDeps {
  db: Db;
  tasks: ImportTasks;
  queues: FastifyInstance["queues"];
  policy: UrlPolicy;
  deadlineMs: number;
  document: DocumentPreviewLimits;
}

async function checkCapacity(db: Db, orgId: string): Promise<void> {
  if ((await activeImportCount(db, orgId)) >= MAX_ACTIVE_IMPORTS_PER_ORG) {
    throw new ServiceError(429, `your organisation already has ${MAX_ACTIVE_IMPORTS_PER_ORG} imports in progress; wait for one to finish`, { "retry-after": "15" });
  }
}

/** Hands the import to the background; if that is refused (the gateway is closing), the import says so. */
function launch(deps: StartImportDeps, view: ImportView, task: Omit<ImportTask, "importId" | "status" | "failurePrefix">): ImportView {
  try {
    deps.tasks.start({ importId: view.id, status: "previewing", failurePrefix: "", ...task });
    return view;
  } catch (error) {
    void task.cleanup?.().catch(() => {});
    void failImport(deps.db, view.id, (error as Error).message).catch(() => {});
    throw error;
  }
}

/** POST /imports with JSON `{ urls }`: every URL is checked (422 naming a refused one) before the import exists. */
export async function startUrlImport(deps: StartImportDeps, request: FastifyRequest, urls: string[]): Promise<ImportView> {
  const { orgId, actor, userId } = actingOf(request);
  await checkCapacity(deps.db, orgId);
  await checkUrls(urls, deps.policy);
  const view = await createImport(deps.db, orgId, {
    kind: "urls", name: urls.length === 1 ? "1 URL" : `${urls.length} URLs`, currency: null, total: urls.length, createdBy: userId,
  });
  return launch(deps, view, {
    work: (signal) => previewUrls({
      db: deps.db, queues: deps.queues, orgId, importId: view.id, actor, urls,
      requestId: request.id, deadlineMs: deps.deadlineMs, policy: deps.policy,
    }, signal),
  });
}

/**
 * POST /imports as multipart: the optional text parts "currency" and "encoding" first, then the part "file".
 * The document is read once before the answer (a refused one is 413/415/422 and no import);
 * the preview itself runs in the background.
 */
export async function startDocumentImport(deps: StartImportDeps, request: FastifyRequest, reply: FastifyReply): Promise<ImportView> {
  const { orgId, actor, userId } = actingOf(request);
  await checkCapacity(deps.db, orgId);
  const file = await documentFilePart(request, 'multipart part "file" is required (send "currency" and "encoding" before it)');
  const field = (name: string) => {
    const part = file.fields[name];
    return part && !Array.isArray(part) && part.type === "field" ? String(part.value) : undefined;
  };
  const currency = documentCurrencyPart(field("currency"));
  const encoding = documentEncodingPart(field("encoding"));
  const gone = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new ServiceError(400, "the client closed the connection before the document was read; no import was started"));
  });
  const document = await checkDocument(file, { currency, encoding }, deps.document, gone.signal);
  let view: ImportView;
  try {
    view = await createImport(deps.db, orgId, {
      kind: "document", name: (file.filename || "document").slice(0, 255), currency: currency ?? null, encoding: document.encoding,
      total: document.rows, createdBy: userId,
    });
  } catch (error) {
    await document.spool.remove();
    throw error;
  }
  return launch(deps, view, {
    work: (signal) => previewDocument({
      db: deps.db, orgId, importId: view.id, actor, document,
      parseHeapMb: deps.document.parseHeapMb, imagePolicy: deps.policy,
    }, signal),
    cleanup: () => document.spool.remove(),
  });
}
