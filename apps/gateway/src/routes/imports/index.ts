import multipart from "@fastify/multipart";
import { Type, type Static } from "typebox";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  IMPORT_TTL_MS,
  ServiceError,
  getImport,
  invalid,
  listImportRows,
  listImports,
  type Db,
  type SyncCollector,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import {
  MAX_ACTIVE_IMPORTS_PER_ORG,
  abortWhenClientGoes,
  checkImportCapacity,
  discardImportPreview,
  documentCurrencyPart,
  documentEncodingPart,
  documentColumns,
  documentFilePart,
  documentMappingPart,
  MAX_MAPPING_BYTES,
  removeStaleSpools,
  resolveMapping,
  SAMPLE_ROWS,
  spoolUpload,
  startDocumentImport,
  startStoreImport,
  startUrlImport,
  textPart,
  type DocumentPreviewLimits,
  type ImportTasks,
  type SpooledDocument,
} from "../../importing/index.js";
import { actingOf } from "../../plugins/auth.js";
import { enqueueSyncs } from "../../publishing/enqueue-syncs.js";
import {
  ListSchema,
  PageQuerySchema,
  describedError,
  errorResponses,
  toList,
} from "../../schemas/common.js";
import {
  DocumentPartsSchema,
  ExtensionUrlImportBodySchema,
  MAX_EXTENSION_IMPORT_URLS,
} from "../../schemas/import.js";
import { ColumnsAnswerSchema, ColumnsPartsSchema } from "./columns-schemas.js";
import {
  CreateUrlImportBodySchema,
  ImportRowSchema,
  ImportRowsQuerySchema,
  ImportSchema,
  MAX_IMPORT_URLS,
  StoreImportBodySchema,
} from "./schemas.js";

export interface ImportsRoutesOptions {
  /**
   * Who uses these routes: the dashboard, by session, at /imports (every route, documents too), or
   * the browser extension, by key, at /extension/imports (URL imports: start, read, store).
   */
  auth: "session" | "apiKey";
  db: Db;
  /** One per gateway, shared by /api and /api/v1. */
  tasks: ImportTasks;
  /** Which page and image URLs may be used (private ones only with local ingest). */
  policy: UrlPolicy;
  /** Per window of URLs handed to the import workers. */
  deadlineMs: number;
  document: DocumentPreviewLimits;
}

// Any text up to a bound: an id that names no import of the org is 404, as for products.
const ImportParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

type CreateUrlImportBody = Static<typeof CreateUrlImportBodySchema>;

const days = Math.round(IMPORT_TTL_MS / 86_400_000);

/**
 * The import resource: previews that run in the background, looked at later, then stored as
 * previewed.
 */
export const importsRoutes: FastifyPluginAsyncTypebox<ImportsRoutesOptions> = async (
  app,
  options,
) => {
  const { db, tasks } = options;
  const byKey = options.auth === "apiKey";
  const path = byKey ? "/extension/imports" : "/imports";
  const shown = `/api${path}`;
  app.addHook("onRequest", byKey ? app.requireApiKey : app.requireSession);
  app.addHook("onClose", () => tasks.close());
  const deps = {
    db,
    tasks,
    queues: app.queues,
    policy: options.policy,
    deadlineMs: options.deadlineMs,
    document: options.document,
    catalogChanged: (orgId: string) => app.caches.catalogChanged(orgId),
    enqueueSyncs: (orgId: string, sync: SyncCollector) => enqueueSyncs(app, app.log, orgId, sync),
    sourceWatch: app.queues.sourceWatch,
  };
  const starter = (request: FastifyRequest) => ({ ...actingOf(request), requestId: request.id });
  const security: Record<string, string[]>[] = [{ [byKey ? "apiKey" : "session"]: [] }];
  const common = { tags: ["import"], security };
  // The same operations twice: the dashboard's (startImport) and the extension's
  // (startExtensionImport).
  const operationId = (verb: string, noun = "") =>
    `${verb}${byKey ? "Extension" : ""}Import${noun}`;
  const following =
    `Answers 202 with the import, status previewing; poll GET ${shown}/{id} for its progress and GET ${shown}/{id}/rows for each ` +
    "row's outcome (create, update, unchanged, error), match and field diff. The preview goes on if the client goes away and never stores " +
    `products; POST ${shown}/{id}/store does. Every URL is checked first: a private, loopback, link-local or otherwise non-public one (unless ` +
    `local ingest is enabled) is a 422 naming it. At most ${MAX_ACTIVE_IMPORTS_PER_ORG} imports of an organisation may be in progress at ` +
    `once (else 429). A preview is kept ${days} days.`;

  if (byKey) {
    app.post(
      path,
      {
        schema: {
          ...common,
          operationId: operationId("start"),
          summary:
            "Start importing product pages from the browser extension (a category page's chosen products): a preview in the background",
          description:
            `JSON { urls }: 1 to ${MAX_EXTENSION_IMPORT_URLS} page URLs a go, in the key's organisation. ${following} ` +
            "The service fetches these pages itself (they are not the page the user is on). The import shows in the dashboard's Import screen too.",
          body: ExtensionUrlImportBodySchema,
          response: { 202: ImportSchema, ...errorResponses(400, 401, 413, 415, 422, 429, 503) },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await startUrlImport(deps, starter(request), request.body.urls)),
    );
  } else {
    await removeStaleSpools(options.document.spoolDir);
    await app.register(multipart, {
      limits: {
        files: 1,
        fields: 4,
        // The "mapping" part is the long one (currency and encoding are a few characters).
        fieldSize: MAX_MAPPING_BYTES + 1,
        parts: 5,
        fileSize: options.document.maxBytes + 1,
      },
    });
    app.post(
      path,
      {
        schema: {
          ...common,
          operationId: operationId("start"),
          summary:
            "Start an import: a preview of URLs or of a document, worked on in the background",
          description:
            `Either JSON { urls } (1 to ${MAX_IMPORT_URLS} page URLs), or multipart/form-data with the optional text parts "currency" ` +
            '(ISO-4217, for prices the document gives without one) and "encoding" (a CSV/TSV file\'s text encoding; detected when left out) and then ' +
            'the part "file" (CSV, TSV, XLSX, JSON, NDJSON or XML; the same formats, encodings and limits as ' +
            `POST /api/import/document). ${following} A document is read once before the answer, so a refused one (type, size, a limit, empty ` +
            "or damaged) is an error answer and no import, and so is a body that is not readable multipart (400: no boundary, cut short before its " +
            "closing boundary); the file name is the import's name. The import's `encoding` says which encoding a CSV/TSV file is read in.",
          consumes: ["application/json", "multipart/form-data"],
          body: {
            content: {
              "application/json": { schema: CreateUrlImportBodySchema },
              "multipart/form-data": { schema: DocumentPartsSchema },
            },
          } as never,
          response: {
            202: ImportSchema,
            ...errorResponses(400, 401, 403, 413, 415, 422, 429, 503),
          },
        },
        // The parts are read by the handler as a stream; validation sees none of them.
        preValidation: async (request) => {
          if (request.isMultipart()) request.body = {};
        },
      },
      async (request, reply) => {
        if (request.isMultipart()) {
          // The parts are read only once the organisation has room for another import.
          await checkImportCapacity(db, actingOf(request).orgId);
          const file = await documentFilePart(
            request,
            'multipart part "file" is required (send "currency", "encoding" and "mapping" before it)',
          );
          const choice = documentMappingPart(textPart(file, "mapping"));
          const signal = abortWhenClientGoes(
            reply,
            "the client closed the connection before the document was read; no import was started",
          );
          const { orgId } = actingOf(request);
          const parts = {
            currency: documentCurrencyPart(textPart(file, "currency")),
            encoding: documentEncodingPart(textPart(file, "encoding")),
            resolveMapping: (doc: SpooledDocument) =>
              resolveMapping(db, orgId, doc, choice, options.document, signal, true),
          };
          return reply
            .code(202)
            .send(await startDocumentImport(deps, starter(request), file, parts, signal));
        }
        // The body's schema is chosen by its Content-Type: a request with no body at all was
        // checked against none.
        const body = request.body as CreateUrlImportBody | undefined;
        if (!body)
          throw invalid('send JSON { "urls": [...] }, or a document as multipart/form-data');
        return reply
          .code(202)
          .send(await startUrlImport(deps, starter(request), body.urls, body.watch ?? null));
      },
    );
  }

  if (!byKey)
    app.post(
      `${path}/columns`,
      {
        schema: {
          ...common,
          operationId: "previewImportColumns",
          summary:
            "A document's columns with samples and how each is read, and its first rows as products: nothing is stored",
          description:
            'multipart/form-data: optional text parts "encoding", "currency" and "mapping" (as for POST /api/imports), then the part ' +
            `"file". Reads the header and the first ${SAMPLE_ROWS} data rows only, so the client may send just the first part of a big ` +
            "CSV/TSV (a last line cut short is dropped). Each column: up to 5 non-empty samples (each at most 80 characters), its field and " +
            "name under the reading used (the mapping sent; else the organisation's template for these headers, named in `template`; " +
            'else the automatic reading, also with "automatic"), and whether the automatic reading recognised it. `needsMapping`: no ' +
            "column is the title. `preview`: the sample rows as the import would read them. JSON and NDJSON are not mappable (`columns` " +
            "empty). The same size limit (413) and types (415) as imports; a 422 for an unreadable file, or a mapping that does not fit " +
            "the file's headers (a file without a title column is a 200 with needsMapping).",
          consumes: ["multipart/form-data"],
          body: { content: { "multipart/form-data": { schema: ColumnsPartsSchema } } } as never,
          response: {
            200: ColumnsAnswerSchema,
            ...errorResponses(400, 401, 413, 415, 422, 429, 503),
          },
        },
        preValidation: async (request) => {
          if (request.isMultipart()) request.body = {};
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new ServiceError(415, 'send multipart/form-data with the document in part "file"');
        const file = await documentFilePart(
          request,
          'multipart part "file" is required (send "encoding", "currency" and "mapping" before it)',
        );
        const currency = documentCurrencyPart(textPart(file, "currency"));
        const encoding = documentEncodingPart(textPart(file, "encoding"));
        const choice = documentMappingPart(textPart(file, "mapping"));
        const signal = abortWhenClientGoes(
          reply,
          "the client closed the connection before its columns were read",
        );
        const spool = await spoolUpload(
          file.file,
          options.document.maxBytes,
          options.document.spoolDir,
        );
        try {
          const doc: SpooledDocument = {
            path: spool.path,
            tmpDir: spool.dir,
            meta: {
              filename: file.filename,
              contentType: file.mimetype,
              maxBytes: options.document.maxBytes,
              ...(currency ? { currency } : {}),
              ...(encoding ? { encoding } : {}),
            },
          };
          return await documentColumns(
            db,
            actingOf(request).orgId,
            doc,
            choice,
            options.document,
            signal,
          );
        } finally {
          await spool.remove();
        }
      },
    );

  if (!byKey)
    app.get(
      path,
      {
        schema: {
          ...common,
          operationId: "listImports",
          summary: "The organisation's imports, newest first",
          description: `Each with its status, progress and counts. Imports expire ${days} days after they were started and are then no longer listed.`,
          querystring: PageQuerySchema,
          response: { 200: ListSchema(ImportSchema), ...errorResponses(401, 422, 429) },
        },
      },
      async (request) => {
        const { items, total } = await listImports(db, actingOf(request).orgId, request.query);
        return toList(items, total, request.query);
      },
    );

  app.get(
    `${path}/:id`,
    {
      schema: {
        ...common,
        operationId: operationId("get"),
        summary:
          "One import: status, progress (rows done of total, seconds left) and counts per outcome",
        description:
          "An import whose gateway stopped while it was previewing or storing is reported failed " +
          '("interrupted: start the import again"); nothing of it was stored. Another organisation\'s import is 404.',
        params: ImportParamsSchema,
        response: { 200: ImportSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => getImport(db, actingOf(request).orgId, request.params.id),
  );

  app.get(
    `${path}/:id/rows`,
    {
      schema: {
        ...common,
        operationId: operationId("list", "Rows"),
        summary:
          "An import's rows in document (or URL) order: outcome, matched product, field diff, errors",
        description:
          "Rows appear as the preview reaches them. `outcome` filters to one of create, update, unchanged, error. After storing, " +
          "each row says whether it was skipped and what storing did (stored, storedProductId).",
        params: ImportParamsSchema,
        querystring: ImportRowsQuerySchema,
        response: {
          200: ListSchema(ImportRowSchema),
          ...errorResponses(401, 404, 422, 429),
          410: describedError(
            "Retention removed the rows of this finished import (IMPORT_ROWS_RETENTION_DAYS after it ended); the import's counts and result remain",
          ),
        },
      },
    },
    async (request) => {
      const { items, total } = await listImportRows(
        db,
        actingOf(request).orgId,
        request.params.id,
        request.query,
      );
      return toList(items, total, request.query);
    },
  );

  app.post(
    `${path}/:id/store`,
    {
      schema: {
        ...common,
        operationId: operationId("store"),
        summary: "Store a ready import: exactly the previewed products, minus the rows left out",
        description:
          "Writes the candidates the preview showed (no page is fetched again, no document read again), except error rows and " +
          "the rows named in skipRows (row numbers naming no row, or an error row, are ignored), in one transaction with their history " +
          "entries. Answers 202 with the import, status storing; it becomes stored with `result`, or failed with `error` saying why, and then " +
          "nothing was stored. 409 unless the import is ready. The body may be omitted.",
        params: ImportParamsSchema,
        body: StoreImportBodySchema,
        response: {
          202: ImportSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        },
      },
      // A POST without a body stores every row.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const view = await startStoreImport(
        deps,
        actingOf(request),
        request.params.id,
        request.body.skipRows ?? [],
      );
      return reply.code(202).send(view);
    },
  );

  if (!byKey)
    app.delete(
      `${path}/:id`,
      {
        schema: {
          ...common,
          operationId: "discardImport",
          summary: "Discard an import's preview",
          description:
            "Stops a preview in progress and drops its rows; the import stays listed as discarded until it expires. " +
            "Discarding again is harmless. 409 while it is being stored, or once it is stored.",
          params: ImportParamsSchema,
          response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 429) },
        },
      },
      async (request, reply) => {
        await discardImportPreview(deps, actingOf(request).orgId, request.params.id);
        return reply.code(204).send(null);
      },
    );
};
