// Shopify on loopback: shops at /shops/<shop>/, each with its OAuth pages and the Admin GraphQL
// endpoint. The GraphQL endpoint checks each request against Shopify's published schema (when
// ../shared is present: the document, and its variables coerced to their declared input types)
// and runs the operations we send: productSet (full replace by id, upsert by handle, or create),
// the product lookup by variant SKU and the shop query that checks an operator's token.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Kind, parse, type OperationDefinitionNode } from "graphql";
import { sharedContractsDir, type ContractViolation } from "../standins/contract/contract-check.js";
import {
  loadGraphqlContract,
  type GraphqlContract,
} from "../standins/contract/graphql-contract.js";
import type {
  ChannelStandin,
  ListingSummary,
  StandinCounts,
  StandinFault,
} from "../standins/kit/channel-standin.js";
import { withControl } from "../standins/kit/control-api.js";
import { FaultBook } from "../standins/kit/fault-book.js";
import {
  playCommonFault,
  readBody,
  redirect,
  sendJson,
  startLoopbackServer,
} from "../standins/kit/http.js";
import { OAuthBook } from "../standins/kit/oauth-book.js";
import { countRoute, RateGate } from "../standins/kit/rate-gate.js";
import type { StandinOptions } from "../standins/kit/standin-options.js";
import type { ChannelStandinEntry } from "../standins/channel-standin-entry.js";
import { shopifySignature } from "./shopify-connect.js";
import { API_VERSION } from "./shopify-documents.js";

type Json = Record<string, unknown>;

/** productSet's variables, as far as the stand-in reads them; the input is kept as sent. */
interface ProductSetIdentifier {
  id?: string;
  handle?: string;
}

interface ProductSetVariant extends Json {
  price?: string;
  inventoryItem?: { sku?: string; tracked?: boolean };
  inventoryQuantities?: { locationId: string; name: string; quantity: number }[];
}

interface ProductSetInput extends Json {
  title?: string;
  handle?: string;
  descriptionHtml?: string;
  variants?: ProductSetVariant[];
  files?: unknown[];
}

/** A GraphQL request's body. */
interface GraphqlBody {
  query?: string;
  variables?: Json;
}

interface ShopProduct {
  id: string;
  handle: string;
  input: ProductSetInput;
  version: number;
}

interface Shop {
  products: Map<string, ShopProduct>;
  counts: StandinCounts;
}

let nextProductId = 1_000;

/** Every stand-in shop has one location, its primary one. */
const LOCATION_ID = "gid://shopify/Location/1";
const productNumber = (p: ShopProduct) => p.id.split("/").pop()!;
/** Variants and their inventory items are numbered by position under the product. */
const variantId = (p: ShopProduct, i: number) =>
  `gid://shopify/ProductVariant/${productNumber(p)}${i + 1}`;
const inventoryItemId = (p: ShopProduct, i: number) =>
  `gid://shopify/InventoryItem/${productNumber(p)}${i + 1}`;

export interface ShopifyStandin extends ChannelStandin {
  /**
   * A custom app installed on the shop: the Admin API access token an operator copies from the
   * shop's admin.
   */
  installCustomApp(shop: string): string;
}

export async function startShopifyStandin(options: StandinOptions = {}): Promise<ShopifyStandin> {
  const clientId = options.clientId ?? "shopify-standin-app";
  const clientSecret = options.clientSecret ?? "shopify-standin-secret";
  const dir = options.contract === false ? null : sharedContractsDir();
  const contract: GraphqlContract | null = dir
    ? await loadGraphqlContract(`${dir}/shopify/admin_${API_VERSION}.graphql`)
    : null;
  const shops = new Map<string, Shop>();
  const faults = new FaultBook();
  const rateGate = new RateGate(options.rate, options.now);
  const oauth = new OAuthBook({ clientId, accessTtlSeconds: 0, refreshTtlSeconds: null });
  const violations: ContractViolation[] = [];
  const shopOf = (name: string) => {
    let shop = shops.get(name);
    if (!shop)
      shops.set(
        name,
        (shop = {
          products: new Map(),
          counts: { create: 0, update: 0, requests: 0, routes: {} },
        }),
      );
    return shop;
  };

  function authorize(name: string, url: URL, response: ServerResponse) {
    const q = Object.fromEntries(url.searchParams);
    if (q.client_id !== clientId || !q.redirect_uri || !q.state)
      return sendJson(response, 400, { error: "invalid_request" });
    shopOf(name);
    const back = new URL(
      oauth.authorize({
        storeId: name,
        clientId,
        redirectUri: q.redirect_uri,
        state: q.state,
        scope: q.scope,
      }),
    );
    back.searchParams.set("shop", name);
    back.searchParams.set("timestamp", String(Math.floor(Date.now() / 1000)));
    back.searchParams.set(
      "host",
      Buffer.from(`admin.shopify.com/store/${name}`).toString("base64url"),
    );
    back.searchParams.set(
      "hmac",
      shopifySignature(Object.fromEntries(back.searchParams), clientSecret),
    );
    redirect(response, back.toString());
  }

  async function accessToken(request: IncomingMessage, response: ServerResponse) {
    const body = JSON.parse((await readBody(request)).toString("utf8") || "{}") as {
      client_id?: string;
      client_secret?: string;
      code?: string;
    };
    if (body.client_secret !== clientSecret)
      return sendJson(response, 401, { error: "invalid_client" });
    const result = oauth.exchangeCode({
      code: String(body.code ?? ""),
      clientId: String(body.client_id ?? ""),
    });
    if (!result.ok)
      return sendJson(response, 400, {
        error: result.error,
        error_description: result.description,
      });
    sendJson(response, 200, { access_token: result.tokens.accessToken, scope: "write_products" });
  }

  function fault(response: ServerResponse, played: StandinFault) {
    if (played.kind === "throttle") {
      const seconds = played.retryAfterSeconds ?? 2;
      const restoreRate = 100;
      // The bucket is empty and the query needs `seconds` of restoring.
      const currentlyAvailable = 0;
      const requestedQueryCost = seconds * restoreRate;
      return sendJson(response, 200, {
        errors: [
          {
            message: "Throttled",
            extensions: {
              code: "THROTTLED",
              cost: {
                requestedQueryCost,
                actualQueryCost: null,
                throttleStatus: { maximumAvailable: 2000, currentlyAvailable, restoreRate },
              },
            },
          },
        ],
      });
    }
    if (played.kind === "error")
      return sendJson(response, played.status, { errors: "Internal Server Error" });
    if (played.kind === "auth")
      return sendJson(response, 401, {
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      });
    if (played.kind === "invalid") {
      return sendJson(response, 200, {
        data: {
          productSet: {
            product: null,
            userErrors: [
              { field: [played.field ?? "input"], message: played.message, code: "INVALID" },
            ],
          },
        },
      });
    }
  }

  /**
   * Shopify's productSet: by `identifier.id` an update (which must exist); by `identifier.handle`
   * an upsert; without one a create.
   */
  function productSet(shop: Shop, variables: Json): Json {
    const identifier = (variables.identifier ?? {}) as ProductSetIdentifier;
    const input = (variables.input ?? {}) as ProductSetInput;
    if (!input.title)
      return {
        product: null,
        userErrors: [{ field: ["input", "title"], message: "Title can't be blank", code: "BLANK" }],
      };
    let existing: ShopProduct | undefined;
    if (identifier.id) {
      existing = shop.products.get(identifier.id);
      if (!existing)
        return {
          product: null,
          userErrors: [
            {
              field: ["identifier", "id"],
              message: "Product does not exist",
              code: "PRODUCT_DOES_NOT_EXIST",
            },
          ],
        };
    } else if (identifier.handle) {
      existing = [...shop.products.values()].find((p) => p.handle === identifier.handle);
    }
    const skus = (input.variants ?? [])
      .map((v) => v.inventoryItem?.sku)
      .filter((s): s is string => !!s);
    const owner = [...shop.products.values()].find(
      (p) => p !== existing && variantSkus(p).some((s) => skus.includes(s)),
    );
    if (owner)
      return {
        product: null,
        userErrors: [
          {
            field: ["input", "variants"],
            message: "SKU is already taken by another product",
            code: "INVALID",
          },
        ],
      };
    if (existing) {
      existing.input = input;
      if (input.handle) existing.handle = input.handle;
      existing.version += 1;
      shop.counts.update += 1;
      return { product: { id: existing.id, handle: existing.handle }, userErrors: [] };
    }
    const handle = input.handle ?? identifier.handle ?? `p-${randomUUID().slice(0, 8)}`;
    const created: ShopProduct = {
      id: `gid://shopify/Product/${nextProductId++}`,
      handle,
      input,
      version: 1,
    };
    shop.products.set(created.id, created);
    shop.counts.create += 1;
    return { product: { id: created.id, handle: created.handle }, userErrors: [] };
  }

  /** productVariantsBulkUpdate: the prices of variants named by id. */
  function variantPrices(shop: Shop, variables: Json): Json {
    const product = shop.products.get(String(variables.productId));
    if (!product)
      return {
        productVariants: null,
        userErrors: [
          {
            field: ["productId"],
            message: "Product does not exist",
            code: "PRODUCT_DOES_NOT_EXIST",
          },
        ],
      };
    const changes = (variables.variants ?? []) as { id?: string; price?: string }[];
    const variants = product.input.variants ?? [];
    const unknown = changes.find((c) => !variants.some((_, i) => variantId(product, i) === c.id));
    if (unknown)
      return {
        productVariants: null,
        userErrors: [
          {
            field: ["variants", "id"],
            message: `Product variant ${unknown.id} does not exist`,
            code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
          },
        ],
      };
    for (const change of changes) {
      const i = variants.findIndex((_, n) => variantId(product, n) === change.id);
      if (change.price !== undefined) variants[i]!.price = change.price;
    }
    product.version += 1;
    shop.counts.update += 1;
    return { productVariants: changes.map((c) => ({ id: c.id })), userErrors: [] };
  }

  /** inventorySetQuantities: available quantities of inventory items at the shop's location. */
  function setQuantities(shop: Shop, variables: Json): Json {
    const input = (variables.input ?? {}) as {
      name?: string;
      quantities?: { inventoryItemId: string; locationId: string; quantity: number }[];
    };
    const refuse = (message: string, code: string) => ({
      inventoryAdjustmentGroup: null,
      userErrors: [{ field: ["input"], message, code }],
    });
    if (input.name !== "available" && input.name !== "on_hand")
      return refuse("The quantity name must be available or on_hand", "INVALID_NAME");
    const targets: { variant: ProductSetVariant; quantity: number; locationId: string }[] = [];
    for (const q of input.quantities ?? []) {
      if (q.locationId !== LOCATION_ID)
        return refuse(`Location ${q.locationId} does not exist`, "INVALID_LOCATION");
      const found = [...shop.products.values()]
        .flatMap((p) => (p.input.variants ?? []).map((v, i) => ({ p, v, i })))
        .find(({ p, i }) => inventoryItemId(p, i) === q.inventoryItemId);
      if (!found)
        return refuse(
          `Inventory item ${q.inventoryItemId} does not exist`,
          "INVALID_INVENTORY_ITEM",
        );
      targets.push({ variant: found.v, quantity: q.quantity, locationId: q.locationId });
    }
    for (const t of targets)
      t.variant.inventoryQuantities = [
        { locationId: t.locationId, name: "available", quantity: t.quantity },
      ];
    return { inventoryAdjustmentGroup: null, userErrors: [] };
  }

  async function graphql(name: string, request: IncomingMessage, response: ServerResponse) {
    const shop = shops.get(name);
    if (shop) shop.counts.requests += 1;
    const token = request.headers["x-shopify-access-token"];
    if (!shop || typeof token !== "string" || oauth.storeOf(token) !== name) {
      return sendJson(response, 401, {
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      });
    }
    const body = JSON.parse((await readBody(request)).toString("utf8") || "{}") as GraphqlBody;
    // Shopify answers userErrors only to mutations: an "invalid" fault waits for the productSet.
    const invalidLater =
      faults.peek(name)?.kind === "invalid" && !/\bproductSet\s*\(/.test(String(body.query ?? ""));
    countRoute(shop.counts, rootField(String(body.query ?? "")) || "?");
    const played =
      rateGate.take(name) ??
      (invalidLater ? null : await playCommonFault(faults.take(name), response));
    if (played === "handled") return;
    if (played) return fault(response, played);
    const problems = contract?.check(String(body.query ?? ""), body.variables ?? {}) ?? [];
    const operation = safeOperation(String(body.query ?? ""));
    if (problems.length > 0 || !operation) {
      violations.push({
        request: `graphql ${operation?.operation ?? "?"} ${operation?.name?.value ?? ""}`.trim(),
        problems: problems.length ? problems : ["unparsable document"],
      });
      return sendJson(response, 200, {
        errors: (problems.length ? problems : ["unparsable document"]).map((message) => ({
          message,
        })),
      });
    }
    const variables = body.variables ?? {};
    const root = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    const field = root?.kind === Kind.FIELD ? root.name.value : "";
    if (field === "productSet")
      return sendJson(response, 200, { data: { productSet: productSet(shop, variables) } });
    if (field === "location")
      return sendJson(response, 200, { data: { location: { id: LOCATION_ID } } });
    if (field === "product") {
      const product = shop.products.get(String(variables.id));
      return sendJson(response, 200, {
        data: {
          product: product
            ? {
                variants: {
                  nodes: (product.input.variants ?? []).map((v, i) => ({
                    id: variantId(product, i),
                    sku: v.inventoryItem?.sku ?? null,
                    inventoryItem: { id: inventoryItemId(product, i) },
                  })),
                },
              }
            : null,
          location: { id: LOCATION_ID },
        },
      });
    }
    if (field === "productVariantsBulkUpdate")
      return sendJson(response, 200, {
        data: { productVariantsBulkUpdate: variantPrices(shop, variables) },
      });
    if (field === "inventorySetQuantities")
      return sendJson(response, 200, {
        data: { inventorySetQuantities: setQuantities(shop, variables) },
      });
    if (field === "productDelete") {
      const id = String((variables.input as { id?: string } | undefined)?.id ?? "");
      const deleted = shop.products.delete(id);
      return sendJson(response, 200, {
        data: {
          productDelete: deleted
            ? { deletedProductId: id, userErrors: [] }
            : {
                deletedProductId: null,
                userErrors: [{ field: ["id"], message: "Product does not exist" }],
              },
        },
      });
    }
    if (field === "shop")
      return sendJson(response, 200, {
        data: { shop: { name: `Stand-in ${name}`, myshopifyDomain: name } },
      });
    if (field === "productVariants") {
      const sku = /sku:"((?:[^"\\]|\\.)*)"/
        .exec(String((variables as { query?: string }).query ?? ""))?.[1]
        ?.replace(/\\(.)/g, "$1");
      const product = [...shop.products.values()].find(
        (p) => sku !== undefined && variantSkus(p).includes(sku),
      );
      return sendJson(response, 200, {
        data: {
          productVariants: {
            nodes: product
              ? [
                  {
                    id: `gid://shopify/ProductVariant/${product.id.split("/").pop()}1`,
                    product: { id: product.id },
                  },
                ]
              : [],
          },
        },
      });
    }
    sendJson(response, 200, {
      errors: [{ message: `the stand-in does not run ${field || "this operation"}` }],
    });
  }

  const server = await startLoopbackServer(
    withControl(
      () => standin,
      async (request, response, url) => {
        const match =
          /^\/shops\/([^/]+)\/admin\/(oauth\/authorize|oauth\/access_token|api\/[^/]+\/graphql\.json)$/.exec(
            url.pathname,
          );
        if (!match) return sendJson(response, 404, { errors: "Not Found" });
        const [, name, route] = match as unknown as [string, string, string];
        if (route === "oauth/authorize" && request.method === "GET")
          return authorize(name, url, response);
        if (route === "oauth/access_token" && request.method === "POST")
          return accessToken(request, response);
        if (route === `api/${API_VERSION}/graphql.json` && request.method === "POST")
          return graphql(name, request, response);
        sendJson(response, 404, { errors: "Not Found" });
      },
    ),
    options,
  );

  const summary = (p: ShopProduct): ListingSummary => {
    const variants = p.input.variants ?? [];
    return {
      id: p.id,
      sku: variants[0]?.inventoryItem?.sku ?? null,
      // productSet refuses an input without a title, so a stored one always has it.
      title: p.input.title ?? "",
      priceAmount: variants[0]?.price ?? null,
      variantSkus: variantSkus(p),
      imageCount: (p.input.files ?? []).length,
      description: p.input.descriptionHtml ?? null,
      version: p.version,
      quantity: variants[0]?.inventoryQuantities?.[0]?.quantity ?? null,
      raw: p.input,
    };
  };

  const standin: ShopifyStandin = {
    channel: "shopify",
    url: server.url,
    env: {
      SHOPIFY_CLIENT_ID: clientId,
      SHOPIFY_CLIENT_SECRET: clientSecret,
      SHOPIFY_SHOP_URL: `${server.url}/shops/{shop}`,
    },
    storeIds: () => [...shops.keys()],
    store: (name) => {
      const shop = shopOf(name);
      return {
        listings: [...shop.products.values()].map(summary),
        counts: { ...shop.counts, routes: { ...shop.counts.routes } },
      };
    },
    setFault: (name, f) => faults.set(name, f),
    clearFaults: () => faults.clear(),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    denyNextAuthorization: () => oauth.denyNextAuthorization(),
    expireAccessTokens: () => {},
    installCustomApp: (name) => {
      shopOf(name);
      return oauth.grant(name).accessToken;
    },
    violations,
    close: server.close,
  };
  return standin;
}

function variantSkus(p: ShopProduct): string[] {
  return (p.input.variants ?? [])
    .map((v) => v.inventoryItem?.sku)
    .filter((s): s is string => typeof s === "string");
}

/** The operation's first root field ("productSet"): the route the per-route counts name. */
function rootField(query: string): string {
  const root = safeOperation(query)?.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
  return root?.kind === Kind.FIELD ? root.name.value : "";
}

function safeOperation(query: string): OperationDefinitionNode | null {
  try {
    return (
      parse(query).definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      ) ?? null
    );
  } catch {
    return null;
  }
}

/**
 * The stand-ins list's entry: how to start it, and how the end-to-end suite connects a store on it.
 */
export const shopifyStandin: ChannelStandinEntry = {
  channel: "shopify",
  start: startShopifyStandin,
  connectHint: () => "shop demo.myshopify.com (any *.myshopify.com name)",
  testCase: {
    variants: true,
    expiringTokens: false,
    settings: null,
    connectQuery: () => ({ shop: `acme-${randomUUID().slice(0, 6)}.myshopify.com` }),
  },
};
