import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ServiceError, describeApiKey, importProducts, invalid, type Db } from "@catalog/db";
import { readPage } from "@catalog/extract";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import {
  NOT_A_PRODUCT_PAGE,
  NO_TITLE,
  createImageScreen,
  fitPageRead,
  listingPreview,
  productPreview,
  robotCheckMessage,
  toImportItem,
  withExtensionFields,
} from "../../importing/index.js";
import { actingOf } from "../../plugins/auth.js";
import { changedBy, enqueueSyncs, syncCollector } from "../../publishing/enqueue-syncs.js";
import { errorResponses } from "../../schemas/common.js";
import { ExtensionPreviewSchema, MAX_LISTING_ITEMS } from "../../schemas/page-preview.js";
import {
  ExtensionMeSchema,
  IngestBodySchema,
  IngestResultSchema,
  MAX_HTML_CHARS,
} from "./schemas.js";

/**
 * The browser extension's routes, authenticated by an extension key (x-service-api-key): what a
 * pairing acts for, and the page the user is on, read from the HTML their browser rendered (the
 * service never fetches that page itself), previewed, then saved into the key's org.
 */
export const extensionRoutes: FastifyPluginAsyncTypebox<{ db: Db; policy: UrlPolicy }> = async (
  app,
  { db, policy },
) => {
  app.addHook("onRequest", app.requireApiKey);
  const security = [{ apiKey: [] }];

  app.get(
    "/extension/me",
    {
      schema: {
        tags: ["extension keys"],
        security,
        operationId: "getExtensionKeyOrg",
        summary:
          "The organisation and key an extension key acts for: how the extension checks a pairing",
        response: { 200: ExtensionMeSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => describeApiKey(db, request.apiKey!.id),
  );

  app.post(
    "/extension/ingest",
    {
      bodyLimit: MAX_HTML_CHARS + 256 * 1024,
      schema: {
        tags: ["import"],
        security,
        operationId: "ingestExtensionPage",
        summary:
          "The page the user is on, from the browser extension: preview it (persist: false), or create or update its product",
        description:
          "With `persist: false` nothing is written: the answer says what the page is (`page`): a product (with what saving would " +
          "store, the catalog product it would update, and the field changes), a listing (a category or search page: its products, each " +
          `marked when it is in the catalog already; at most ${MAX_LISTING_ITEMS}; import them with POST /api/extension/imports), a bot check in front ` +
          "of the shop (the user passes it, then tries again), or unknown. Without `persist` (or true) the product is created or updated, " +
          "as it always was; a bot-check page is then a 422.",
        body: IngestBodySchema,
        response: {
          200: {
            description: "The product saved, or with persist: false the preview",
            content: {
              "application/json": {
                schema: { anyOf: [IngestResultSchema, ExtensionPreviewSchema] },
              },
            },
          } as never,
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const { url, html, product, persist = true } = request.body;
      if (!/^https?:\/\//i.test(url)) throw invalid(`body field "url" must be an http(s) URL`);
      if (html === undefined && product === undefined)
        throw invalid(`body needs "html", "product" or both`);
      const { orgId, actor } = actingOf(request);
      const reading = html === undefined ? null : readPage(html, url, MAX_LISTING_ITEMS);
      if (reading?.kind === "blocked") {
        if (!persist)
          return { action: "preview", page: "blocked", message: robotCheckMessage(reading.by) };
        throw new ServiceError(422, robotCheckMessage(reading.by));
      }
      if (!persist && reading?.kind === "listing" && product === undefined)
        return listingPreview(db, orgId, reading.listing);
      const item = toImportItem(
        withExtensionFields(
          url,
          reading?.kind === "product" ? fitPageRead(reading.product) : null,
          product,
        ),
      );
      if ("error" in item) {
        if (!persist && item.error === NO_TITLE)
          return { action: "preview", page: "unknown", message: NOT_A_PRODUCT_PAGE };
        throw invalid(
          `${item.error} on ${url}${item.error === NO_TITLE ? `: send the product's title in "product.title"` : ""}`,
        );
      }
      const screenImages = createImageScreen(policy);
      if (!persist) return productPreview(db, orgId, actor, item, screenImages);
      const droppedImages = await screenImages(item);
      const sync = syncCollector(`the extension (${changedBy(request)})`);
      const [outcome] = await importProducts(db, orgId, [item], {
        actor,
        source: "extension",
        persist: true,
        sync,
      });
      await app.caches.catalogChanged(orgId);
      await enqueueSyncs(app, request.log, orgId, sync);
      return {
        action: outcome!.action as "created" | "updated",
        product: outcome!.product,
        ...(droppedImages.length > 0 ? { droppedImages } : {}),
      };
    },
  );
};
