import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ServiceError, invalid, recordNextSourceCheck, watchProducts, type Db } from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { DOCUMENT_LIMITS } from "@catalog/extract/upload-checks";
import { scheduleSourceWatch } from "@catalog/queue";
import {
  abortWhenClientGoes,
  documentCurrencyPart,
  documentEncodingPart,
  documentFilePart,
  documentMappingPart,
  MAX_MAPPING_BYTES,
  resolveMapping,
  importDocument,
  importUrls,
  removeStaleSpools,
  textPart,
  type DocumentLimits,
} from "../../importing/index.js";
import { principalOf } from "../../plugins/auth.js";
import { enqueueSyncs, syncCollector } from "../../publishing/enqueue-syncs.js";
import { describedError, errorResponses } from "../../schemas/common.js";
import {
  DocumentImportPartsSchema,
  DocumentImportResultSchema,
  ImportUrlsBodySchema,
  UrlImportResultSchema,
} from "./schemas.js";

/**
 * The one-shot imports: /import/url, /scrape and /import/document answer within the request with
 * every item's outcome, previewed or (persist) stored. The import resource (routes/imports/) is
 * the background, preview-then-store kind.
 */
export interface ImportRoutesOptions {
  db: Db;
  /** Which page and image URLs may be used (private ones only with local ingest). */
  policy: UrlPolicy;
  deadlineMs: number;
  document: Omit<DocumentLimits, "timeoutMs">;
}

/** How long a persisted document import may hold its one transaction open. */
const DOCUMENT_TRANSACTION_MS = 15 * 60_000;

const URL_ROUTES = [
  ["/import/url", "importUrls", "Import products from page URLs: a preview unless persist is true"],
  [
    "/scrape",
    "scrapeUrls",
    "Scrape product pages (the same as /import/url): a preview unless persist is true",
  ],
] as const;

export const importRoutes: FastifyPluginAsyncTypebox<ImportRoutesOptions> = async (
  app,
  options,
) => {
  app.addHook("onRequest", app.requireSession);
  const { policy } = options;

  for (const [path, operationId, summary] of URL_ROUTES) {
    app.post(
      path,
      {
        schema: {
          tags: ["import"],
          operationId,
          summary,
          security: [{ session: [] }],
          body: ImportUrlsBodySchema,
          response: {
            200: UrlImportResultSchema,
            ...errorResponses(400, 401, 409, 413, 415, 422, 429, 503),
          },
        },
      },
      async (request) => {
        const { org, user } = principalOf(request);
        const sync = syncCollector(`URL import by ${user.email}`);
        const result = await importUrls(
          { db: options.db, queues: app.queues },
          {
            orgId: org.id,
            actor: { type: "user", id: user.id },
            urls: request.body.urls,
            persist: request.body.persist,
            requestId: request.id,
            policy,
            deadlineMs: options.deadlineMs,
            sync,
          },
        );
        if (result.persisted) await app.caches.catalogChanged(org.id);
        await enqueueSyncs(app, request.log, org.id, sync);
        const { watch } = request.body;
        if (result.persisted && watch) {
          const ids = result.items.flatMap((item) => (item.ok ? [item.product.id] : []));
          for (const product of await watchProducts(options.db, org.id, ids, watch)) {
            const next = await scheduleSourceWatch(app.queues.sourceWatch, product.id, watch);
            await recordNextSourceCheck(options.db, product.id, next);
          }
        }
        return result;
      },
    );
  }

  await removeStaleSpools(options.document.spoolDir);
  // Multipart is accepted here only; every other route takes JSON.
  await app.register(multipart, {
    limits: {
      files: 1,
      fields: 4,
      // The "mapping" part is the long one (persist, currency and encoding are a few characters).
      fieldSize: MAX_MAPPING_BYTES + 1,
      parts: 5,
      fileSize: options.document.maxBytes + 1,
    },
  });
  app.post(
    "/import/document",
    {
      schema: {
        tags: ["import"],
        operationId: "importDocument",
        summary:
          "Import products from a CSV, TSV, XLSX, JSON, NDJSON or XML document: a preview unless persist is true",
        description:
          'multipart/form-data with the document in part "file" and, before it, optional text parts "persist" ("true" or "false"; default false), ' +
          '"currency" (the store currency, for documents whose prices do not name one) and "encoding" (a CSV/TSV file\'s text encoding, e.g. ' +
          '"windows-1251", "shift_jis", "utf-8"; an unknown name is a 400). ' +
          'Without "encoding", a CSV/TSV file\'s encoding is detected: a BOM, UTF-16, UTF-8 (also with a few stray invalid bytes), else the legacy ' +
          "code page its bytes show (windows-1250/1251/1252, ISO-8859-x, Shift_JIS, GB18030, EUC-KR, ...); short files in similar single-byte code " +
          "pages can be told apart wrongly, which is what naming the encoding is for. A row holding bytes the encoding cannot decode is an item " +
          'with ok: false saying so, not stored. The answer\'s "encoding" says which was used ({ name, source: named | detected }); it is null ' +
          'for XLSX, JSON, NDJSON and XML (XLSX is UTF-8 inside; XML is read per its BOM or declaration; JSON is read as UTF-8, or UTF-16 by its BOM, per RFC 8259), which "encoding" does not apply to. ' +
          "Shopify and WooCommerce product exports are recognised, and generic headers (title, sku, price, currency, brand, gtin, images, description). " +
          "An optional text part \"mapping\" says how a CSV/TSV/XLSX file's columns are read (see POST /api/imports); without it, the organisation's " +
          "saved template for the file's header set is applied, if any. " +
          "A persisted import is one transaction: the answer comes once every row is read and stored, and if any part fails (a limit below, a damaged file, the database) nothing is stored and the answer is { error }. " +
          documentLimitsText(options.document),
        security: [{ session: [] }],
        consumes: ["multipart/form-data"],
        body: {
          content: { "multipart/form-data": { schema: DocumentImportPartsSchema } },
        } as never,
        response: {
          200: DocumentImportResultSchema,
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
          400: describedError(
            "A body that is not readable multipart/form-data (no boundary, cut short before its closing boundary), or an unknown encoding",
          ),
          413: describedError(
            "The document goes past a limit: its size, or one listed in the route's description; the message names the limit and its value",
          ),
          422: describedError(
            "A bad part (also a file name with a NUL character), an empty or damaged document, or JSON nested past the limit; the message says which",
          ),
        },
      },
      // The parts are read by the handler as a stream; validation sees none of them.
      preValidation: async (request) => {
        if (request.isMultipart()) request.body = {};
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new ServiceError(415, 'send multipart/form-data with the document in part "file"');
      const file = await documentFilePart(
        request,
        'multipart part "file" is required (send "persist" before it)',
      );
      const persistValue = textPart(file, "persist")?.trim() ?? "false";
      if (persistValue !== "true" && persistValue !== "false")
        throw invalid('multipart part "persist" must be "true" or "false"');
      const currency = documentCurrencyPart(textPart(file, "currency"));
      const encoding = documentEncodingPart(textPart(file, "encoding"));
      const choice = documentMappingPart(textPart(file, "mapping"));
      const { org, user } = principalOf(request);
      const persist = persistValue === "true";
      const signal = abortWhenClientGoes(
        reply,
        "the client closed the connection before the import finished; nothing was stored",
      );
      const sync = syncCollector(`import ${file.filename} by ${user.email}`);
      const body = await importDocument(options.db, {
        orgId: org.id,
        actor: { type: "user", id: user.id },
        file,
        persist,
        currency,
        encoding,
        resolveMapping: (doc) =>
          resolveMapping(options.db, org.id, doc, choice, options.document, signal, true),
        signal,
        imagePolicy: policy,
        limits: { ...options.document, timeoutMs: DOCUMENT_TRANSACTION_MS },
        sync,
      });
      // Committed: every gateway must see it before this answer reaches the client.
      if (persist) await app.caches.catalogChanged(org.id);
      await enqueueSyncs(app, request.log, org.id, sync);
      // Items are in document order, except WooCommerce variable products, which complete when
      // their last variation has been read.
      return reply.type("application/json; charset=utf-8").send(body as never);
    },
  );
};

function documentLimitsText(document: { maxBytes: number; parseHeapMb: number }): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const mb = (bytes: number) => `${n(bytes / (1024 * 1024))} MB`;
  return (
    `Limits (413 unless said, each named in the message): the file ${n(document.maxBytes)} bytes; ${n(DOCUMENT_LIMITS.rows)} rows (items, lines); ` +
    `${n(DOCUMENT_LIMITS.columns)} cells per row or keys per JSON object; ${n(DOCUMENT_LIMITS.cellChars)} characters per cell or JSON string; ` +
    `${n(DOCUMENT_LIMITS.recordChars)} characters per row, NDJSON line, JSON or XML item; JSON or XML nesting ${DOCUMENT_LIMITS.depth} levels (422); ` +
    `XLSX: ${mb(DOCUMENT_LIMITS.unpackedBytes)} unpacked, ${mb(DOCUMENT_LIMITS.heldPartBytes)} for each part read whole (shared strings, styles, workbook), ` +
    `an entry unpacking to over 100 times its size is refused (422); ${n(document.parseHeapMb)} MB of memory to read one document.`
  );
}
