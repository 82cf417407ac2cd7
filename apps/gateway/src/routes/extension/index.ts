import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { importProducts, invalid, type Db } from "@catalog/db";
import { emptyCandidate, extractProduct, type ProductCandidate } from "@catalog/extract";
import { errorResponses } from "../../schemas/common.js";
import { ProductSchema, ProductPatchSchema } from "../products/schemas.js";
import { NO_TITLE, toImportItem } from "../import/candidate.js";
import { createImageScreen } from "../import/image-screen.js";
import { DroppedImagesSchema } from "../import/schemas.js";

const MAX_HTML_BYTES = 5 * 1024 * 1024;

const { version: _version, ...extensionFields } = ProductPatchSchema.properties;
const IngestBodySchema = Type.Object(
  {
    url: Type.String({ format: "uri", maxLength: 2048, description: "The page the user was on" }),
    html: Type.Optional(Type.String({ maxLength: MAX_HTML_BYTES, description: "The page as the user's browser saw it" })),
    product: Type.Optional(Type.Object(extensionFields, { additionalProperties: false, description: "Fields the extension already extracted; they win over the service's own extraction" })),
  },
  { additionalProperties: false },
);

/** The extension's own fields over what the service extracted from the page's HTML. */
function merge(url: string, extracted: ProductCandidate | null, given: Record<string, unknown> | undefined): ProductCandidate {
  const candidate = extracted ?? emptyCandidate(url);
  candidate.sourceUrl = url;
  for (const [field, value] of Object.entries(given ?? {})) {
    if (value === undefined || value === null) continue;
    (candidate as unknown as Record<string, unknown>)[field] = value;
    candidate.provenance[field as keyof ProductCandidate["provenance"]] = { source: "extension", method: `product.${field}` };
  }
  return candidate;
}

/**
 * Browser-extension ingest, authenticated by API key: the service extracts from the HTML the
 * user's browser saw (it never fetches the URL itself), merges the extension's own fields,
 * and upserts into the key's org.
 */
export const extensionRoutes: FastifyPluginAsyncTypebox<{ db: Db; localIngest: boolean }> = async (app, { db, localIngest }) => {
  app.post("/extension/ingest", {
    onRequest: app.requireApiKey,
    bodyLimit: MAX_HTML_BYTES + 256 * 1024,
    schema: {
      tags: ["import"],
      summary: "Ingest the page the user is on, from the browser extension (creates or updates the product)",
      security: [{ apiKey: [] }],
      body: IngestBodySchema,
      response: {
        200: Type.Object({ action: Type.Enum(["created", "updated"]), product: ProductSchema, droppedImages: Type.Optional(DroppedImagesSchema) }),
        ...errorResponses(400, 401, 409, 413, 415, 422, 429),
      },
    },
  }, async (request) => {
    const { url, html, product } = request.body;
    if (!/^https?:\/\//i.test(url)) throw invalid(`body field "url" must be an http(s) URL`);
    if (html === undefined && product === undefined) throw invalid(`body needs "html", "product" or both`);
    const key = request.apiKey!;
    const item = toImportItem(merge(url, html ? extractProduct(html, url) : null, product));
    if ("error" in item) throw invalid(`${item.error} on ${url}${item.error === NO_TITLE ? `: send the product's title in "product.title"` : ""}`);
    const droppedImages = await createImageScreen({ allowPrivate: localIngest })(item);
    const [outcome] = await importProducts(db, key.orgId, [item], { actor: { type: "apiKey", id: key.id }, source: "extension", persist: true });
    await app.caches.catalogChanged(key.orgId);
    return { action: outcome!.action as "created" | "updated", product: outcome!.product, ...(droppedImages.length > 0 ? { droppedImages } : {}) };
  });
};
