import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ServiceError, invalid, type Db } from "@catalog/db";
import { importDocument } from "./document-import.js";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { DocumentImportResultSchema, ImportUrlsBodySchema, UrlImportResultSchema } from "./schemas.js";
import { importUrls } from "./url-import.js";

export interface ImportRoutesOptions {
  db: Db;
  localIngest: boolean;
  deadlineMs: number;
  documentMaxBytes: number;
}

const URL_ROUTES = [
  ["/import/url", "Import products from page URLs: a preview unless persist is true"],
  ["/scrape", "Scrape product pages (the same as /import/url): a preview unless persist is true"],
] as const;

export const importRoutes: FastifyPluginAsyncTypebox<ImportRoutesOptions> = async (app, options) => {
  app.addHook("onRequest", app.requireSession);
  const policy = { allowPrivate: options.localIngest };

  for (const [path, summary] of URL_ROUTES) {
    app.post(path, {
      schema: {
        tags: ["import"],
        summary,
        security: [{ session: [] }],
        body: ImportUrlsBodySchema,
        response: { 200: UrlImportResultSchema, ...errorResponses(400, 401, 409, 413, 415, 422, 429, 503) },
      },
    }, async (request) => {
      const { org, user } = principalOf(request);
      const result = await importUrls({ db: options.db, queues: app.queues }, {
        orgId: org.id, actor: { type: "user", id: user.id }, urls: request.body.urls, persist: request.body.persist,
        requestId: request.id, policy, deadlineMs: options.deadlineMs,
      });
      if (result.persisted) await app.caches.catalogChanged(org.id);
      return result;
    });
  }

  // Multipart is accepted here only; every other route takes JSON.
  await app.register(multipart, { limits: { files: 1, fields: 4, fieldSize: 64, parts: 5, fileSize: options.documentMaxBytes + 1 } });
  app.post("/import/document", {
    schema: {
      tags: ["import"],
      summary: "Import products from a CSV, TSV, XLSX, JSON or NDJSON document: a preview unless persist is true",
      description: 'multipart/form-data with the document in part "file" and, before it, optional text parts "persist" ("true" or "false"; default false) ' +
        'and "currency" (the store currency, for documents whose prices do not name one). ' +
        "Shopify and WooCommerce product exports are recognised, and generic headers (title, sku, price, currency, brand, gtin, images, description).",
      security: [{ session: [] }],
      consumes: ["multipart/form-data"],
      response: { 200: DocumentImportResultSchema, ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new ServiceError(415, 'send multipart/form-data with the document in part "file"');
    const file = await request.file();
    if (!file || file.fieldname !== "file") throw invalid('multipart part "file" is required (send "persist" before it)');
    const field = (name: string) => {
      const part = file.fields[name];
      return part && !Array.isArray(part) && part.type === "field" ? String(part.value).trim() : undefined;
    };
    const persistValue = field("persist") ?? "false";
    if (persistValue !== "true" && persistValue !== "false") throw invalid('multipart part "persist" must be "true" or "false"');
    const currency = field("currency")?.toUpperCase();
    if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw invalid('multipart part "currency" must be an ISO-4217 code such as EUR');
    const { org, user } = principalOf(request);
    const persist = persistValue === "true";
    const body = await importDocument(options.db, {
      orgId: org.id, actor: { type: "user", id: user.id }, file, persist, currency, maxBytes: options.documentMaxBytes,
      onBatchPersisted: () => app.caches.catalogChanged(org.id),
    });
    // Items are written as they complete (in document order, except WooCommerce variable
    // products, which complete when their last variation has been read).
    return reply.type("application/json; charset=utf-8").send(body as never);
  });
};
