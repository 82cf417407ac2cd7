import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import {
  ServiceError,
  countProducts,
  deleteProduct,
  getProduct,
  invalid,
  listHistory,
  listProducts,
  requestListingEnds,
  searchCountStart,
  updateProduct,
  type Db,
  type ProductListPage,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { scheduleSourceWatch } from "@catalog/queue";
import { refusedImages } from "../../importing/index.js";
import { principalOf } from "../../plugins/auth.js";
import { changedBy, enqueueSyncs, syncCollector } from "../../publishing/enqueue-syncs.js";
import { PENDING_LEASE_MS, enqueueRecorded } from "../../publishing/enqueue-recorded.js";
import { ListSchema, PageQuerySchema, errorResponses, toList } from "../../schemas/common.js";
import { decodeCursor, encodeCursor } from "./list-cursor.js";
import { ProductPatchSchema, ProductSchema } from "../../schemas/product.js";
import {
  HistoryEntrySchema,
  ProductDeleteQuerySchema,
  ProductDeletingSchema,
  ProductDetailSchema,
  ProductForceDeletedSchema,
  ProductListQuerySchema,
  ProductListSchema,
  ProductParamsSchema,
} from "./schemas.js";

/** Listing states the publish workers will change without a word to the gateway. */
const PUBLISHING = new Set(["queued", "publishing"]);
const PUBLISHING_PAGE_MS = 1_000;

export const productRoutes: FastifyPluginAsyncTypebox<{ db: Db; policy: UrlPolicy }> = async (
  app,
  { db, policy },
) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["products"], security: [{ session: [] }] };
  const actorOf = (request: Parameters<typeof principalOf>[0]) => ({
    type: "user" as const,
    id: principalOf(request).user.id,
  });

  app.get(
    "/products",
    {
      schema: {
        ...common,
        operationId: "listProducts",
        summary:
          "The org's catalog, newest edits first, each product with its listing status per destination",
        description:
          "Narrowed by `q`, `sourceUrl`, `listing` (and/or `destinationAccountId`), `availability` and `stock`, all of them together; ordered by `sort`. " +
          "A listing's status follows its publish: the page may show it up to a second late while a publish is under way.",
        querystring: ProductListQuerySchema,
        response: { 200: ProductListSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const orgId = principalOf(request).org.id;
      const { q, sourceUrl, listing, destinationAccountId, availability, stock, pageSize } =
        request.query;
      const sort = request.query.sort ?? "updated";
      // Cursors are positions in the default order (newest edit first) only.
      const keyset = sort === "updated";
      if (request.query.cursor && !keyset)
        throw invalid(
          'query parameter "cursor" is for the default order only: with "sort" page by "page"',
        );
      const cursor = request.query.cursor ? decodeCursor(request.query.cursor) : null;
      const page = cursor?.page ?? request.query.page;
      // The first page is the first page however it is asked for: no seek needed.
      const seek = cursor && page > 1 ? cursor : undefined;
      const filter = { q, sourceUrl, listing, destinationAccountId, availability, stock };
      // The cache keys: what is counted (the filter) and what is shown (also order and page).
      const filterKey = [
        q ?? "",
        sourceUrl ?? "",
        listing ?? "",
        destinationAccountId ?? "",
        availability ?? "",
        stock ?? "",
      ];
      // Pages are kept serialized (by this route's own response schema) and encoded: a hit costs
      // no query, no serialization and no UTF-8 encoding of the body. The publish workers change
      // listings without telling the cache (a notification per job would serialize their
      // commits), so a page showing a publish still under way is kept one second only; other
      // listing changes come through the gateway's own writes. The count (`total`) is kept the
      // same way, per filter, for every page of it.
      let until = Infinity;
      const body = await app.caches.catalogPage(
        request,
        orgId,
        JSON.stringify([...filterKey, sort, page, pageSize, seek ? request.query.cursor : ""]),
        async () => {
          // A search's count reaches a limit past its stretch of pages (searchCountStart), and
          // is taken in the statement that finds its page: a page of the stretch found by
          // another request meanwhile, or cached, costs no count.
          const searching = Boolean(q?.trim());
          const from = searching ? searchCountStart((page - 1) * pageSize) : 0;
          let found: ProductListPage | undefined;
          const total = app.caches.catalogCount(
            request,
            orgId,
            JSON.stringify([...filterKey, from]),
            async () => {
              if (!searching) return countProducts(db, orgId, filter);
              found = await listProducts(db, orgId, { ...filter, sort, page, pageSize, seek });
              return { total: found.total, exact: found.totalExact };
            },
          );
          if (searching) await total;
          const list =
            found ??
            (await listProducts(db, orgId, { ...filter, sort, page, pageSize, seek, total }));
          if (list.items.some((item) => item.listings.some((l) => PUBLISHING.has(l.status))))
            until = Date.now() + PUBLISHING_PAGE_MS;
          const { items } = list;
          const answer = {
            ...toList(items, list.total, { page, pageSize }),
            totalExact: list.totalExact,
          };
          const more = keyset && list.last && page < answer.totalPages && items.length === pageSize;
          return Buffer.from(
            reply.serialize({
              ...answer,
              nextCursor: more
                ? encodeCursor({ direction: "next", page: page + 1, from: list.last! })
                : null,
              prevCursor:
                keyset && list.first && page > 1
                  ? encodeCursor({ direction: "previous", page: page - 1, from: list.first })
                  : null,
            }) as string,
          );
        },
        () => until,
      );
      // Already JSON, as bytes: Fastify sends a Buffer as it is, without encoding it again.
      return reply.type("application/json; charset=utf-8").send(body as never);
    },
  );

  app.get(
    "/products/:id",
    {
      schema: {
        ...common,
        operationId: "getProduct",
        summary: "A product with its listings on each destination",
        params: ProductParamsSchema,
        response: { 200: ProductDetailSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => getProduct(db, principalOf(request).org.id, request.params.id),
  );

  app.patch(
    "/products/:id",
    {
      schema: {
        ...common,
        operationId: "updateProduct",
        summary: "Edit catalog fields; writes one history entry with the field diff",
        description:
          "Image URLs (`images`, each variant's `image`) go through the same check as imports: one that is not http(s), carries " +
          "a user name or password, or whose host is (or resolves to) a private, loopback, link-local or metadata address, or cannot be " +
          "resolved, is a 422 naming it and why, and nothing is changed. A description is stored in the one form the `description` field states.",
        params: ProductParamsSchema,
        body: ProductPatchSchema,
        response: { 200: ProductSchema, ...errorResponses(400, 401, 404, 409, 413, 415, 422) },
      },
    },
    async (request) => {
      const { version, ...patch } = request.body;
      const orgId = principalOf(request).org.id;
      const refused = await refusedImages(policy, patch);
      if (refused.length > 0) {
        const named = refused
          .map((r) => `body field "${r.field}" (${r.url}) ${r.reason}`)
          .join("; ");
        throw invalid(`${named}: images must be public web addresses`);
      }
      const sync = syncCollector(changedBy(request));
      const product = await updateProduct(
        db,
        orgId,
        request.params.id,
        patch,
        actorOf(request),
        version,
        sync,
      );
      await app.caches.catalogChanged(orgId);
      await enqueueSyncs(app, request.log, orgId, sync);
      return product;
    },
  );

  app.delete(
    "/products/:id",
    {
      schema: {
        ...common,
        operationId: "deleteProduct",
        summary:
          "Remove the product from the catalog, ending its live listings first (its history is kept)",
        description:
          "Without live listings the product is removed at once: 204. With listings live on stores it is hidden from the catalog at once " +
          "(list, search, detail, publish and import matching no longer find it, and its SKU is free for a new product), one end per live " +
          "listing is queued (followed in GET /api/sync-logs) and the answer is 202 naming them; the product's row, listings and remote ids " +
          "stay until every listing has ended, then it is removed. Deleting it again while it waits answers 202 again and queues an end for " +
          "any live listing that has none pending (one whose end failed). `?force=true` (owners only; a member is 403) removes it at " +
          "once and answers 200 naming the listings left live on the stores.\n\n" +
          "A product that is already gone is 404, also when another request deleted it at the same moment: of concurrent deletes of one product, one answers 204 and the others 404.",
        params: ProductParamsSchema,
        querystring: ProductDeleteQuerySchema,
        response: {
          200: ProductForceDeletedSchema,
          202: ProductDeletingSchema,
          204: Type.Null(),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const orgId = principal.org.id;
      const { id } = request.params;
      const force = request.query.force === true;
      if (force && principal.user.role !== "owner")
        throw new ServiceError(
          403,
          "an owner of the org must force a deletion: it leaves the product's listings live on the stores",
        );
      const deletion = await deleteProduct(db, orgId, id, actorOf(request), { force });
      // Source watch: its scheduler goes too (if Redis fails here, its next check removes it).
      await scheduleSourceWatch(app.queues.sourceWatch, id, null).catch((err: unknown) =>
        request.log.warn({ err }, "could not remove the source watch scheduler"),
      );
      if (deletion.removed) {
        await app.caches.catalogChanged(orgId);
        if (force)
          return reply.code(200).send({ id, deleted: true, leftListings: deletion.leftListings });
        return reply.code(204).send(null);
      }
      const records = await requestListingEnds(db, {
        orgId,
        productIds: [id],
        destinationIds: deletion.endingListings.map((l) => l.destinationAccountId),
        trigger: `product deleted by ${principal.user.email}`,
        leaseMs: PENDING_LEASE_MS,
      });
      await enqueueRecorded(app, request.log, orgId, records);
      return reply.code(202).send({ id, deleted: true, endingListings: deletion.endingListings });
    },
  );

  app.get(
    "/products/:id/history",
    {
      schema: {
        ...common,
        operationId: "listProductHistory",
        summary: "The product's edit history, newest first",
        params: ProductParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: ListSchema(HistoryEntrySchema), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await listHistory(
        db,
        principalOf(request).org.id,
        request.params.id,
        request.query,
      );
      return toList(items, total, request.query);
    },
  );
};
