// eBay on loopback: the authorize page (which sends the seller to the app's RuName target), the
// identity token endpoint, and the Sell Inventory calls the adapter makes, with eBay's own
// semantics (items and offers keyed by SKU, publishing an offer again revises its listing) and
// error shapes. Inventory requests are checked against eBay's published OpenAPI file (with the
// `aspects` defect mended) when ../shared is present.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sharedContractsDir, type ContractViolation } from "../standins/contract/contract-check.js";
import { ebayAspectsOverlay } from "../standins/contract/ebay-overlay.js";
import {
  loadOpenApiContract,
  type OpenApiContract,
} from "../standins/contract/openapi-contract.js";
import type {
  ChannelStandin,
  ListingSummary,
  StandinCounts,
  StandinFault,
} from "../standins/kit/channel-standin.js";
import { withControl } from "../standins/kit/control-api.js";
import { FaultBook, retryAfterHeader } from "../standins/kit/fault-book.js";
import {
  paramsOf,
  playCommonFault,
  readBody,
  redirect,
  sendJson,
  startLoopbackServer,
} from "../standins/kit/http.js";
import { countRoute, RateGate } from "../standins/kit/rate-gate.js";
import { OAuthBook, type TokenResult } from "../standins/kit/oauth-book.js";
import type { StandinOptions } from "../standins/kit/standin-options.js";
import type { ChannelStandinEntry } from "../standins/channel-standin-entry.js";
import { accountApi, locationList, taxonomyApi } from "./ebay-standin-account.js";

type Json = Record<string, unknown>;

/** The listing content the stand-in reads, from an item's `product` or from an item group. */
interface EbayContent extends Json {
  title?: string;
  description?: string;
  imageUrls?: string[];
}

interface EbayItem extends Json {
  product?: EbayContent;
  availability?: { shipToLocationAvailability?: { quantity?: number } };
}

interface EbayGroup extends EbayContent {
  variantSKUs: string[];
}

interface EbayOffer extends Json {
  sku: string;
  marketplaceId: string;
  status?: string;
  listingId?: string;
  listingDescription?: string;
  availableQuantity?: number;
  pricingSummary?: { price?: { value?: string; currency?: string } };
}

interface PriceQuantityRequest {
  sku?: string;
  shipToLocationAvailability?: { quantity?: number };
  offers?: Array<{
    offerId?: string;
    availableQuantity?: number;
    price?: { value?: string; currency?: string };
  }>;
}

interface Listing {
  listingId: string;
  /** The offer's SKU, or the item group's key. */
  key: string;
  group: boolean;
  version: number;
}

interface Seller {
  items: Map<string, EbayItem>;
  groups: Map<string, EbayGroup>;
  offers: Map<string, EbayOffer>;
  listings: Map<string, Listing>;
  counts: StandinCounts;
}

const API = "/sell/inventory/v1";
const ACCOUNT_API = "/sell/account/v1";
const TAXONOMY_API = "/commerce/taxonomy/v1";
const RU_NAME = "Catalog_Service-standin-RuName";
const ebayError = (errorId: number, message: string, category = "REQUEST", extra: Json = {}) => ({
  errors: [
    {
      errorId,
      domain: category === "APPLICATION" ? "API_INVENTORY" : "API_INVENTORY",
      category,
      message,
      longMessage: message,
      ...extra,
    },
  ],
});

let nextId = 110_000_000_000;

/** Named paths of the Inventory API; any other segment is an id (an SKU, an offer id). */
const FIXED_SEGMENTS = new Set([
  "inventory_item",
  "inventory_item_group",
  "offer",
  "bulk_update_price_quantity",
  "publish_by_inventory_item_group",
  "withdraw_by_inventory_item_group",
  "publish",
  "withdraw",
  "location",
  "payment_policy",
  "return_policy",
  "fulfillment_policy",
  "get_default_category_tree_id",
  "category_tree",
  "get_category_suggestions",
]);

/** The route a request took, for the per-route counts: "/offer/{id}/withdraw". */
const routeOf = (path: string) =>
  path
    .split("/")
    .map((segment) => (!segment || FIXED_SEGMENTS.has(segment) ? segment : "{id}"))
    .join("/");

export async function startEbayStandin(options: StandinOptions = {}): Promise<ChannelStandin> {
  const clientId = options.clientId ?? "ebay-standin-client";
  const clientSecret = options.clientSecret ?? "ebay-standin-secret";
  const callbackUrl = options.callbackUrl ?? "http://127.0.0.1:3000/api/integrations/ebay/callback";
  const dir = options.contract === false ? null : sharedContractsDir();
  const contract: OpenApiContract | null = dir
    ? await loadOpenApiContract(`${dir}/ebay/sell_inventory_v1_oas3.v1.18.2.json`, {
        apiRoot: API,
        overlay: ebayAspectsOverlay,
      })
    : null;
  const accountContract = dir
    ? await loadOpenApiContract(`${dir}/ebay/sell_account_v1_oas3.json`, { apiRoot: ACCOUNT_API })
    : null;
  const taxonomyContract = dir
    ? await loadOpenApiContract(`${dir}/ebay/commerce_taxonomy_v1_oas3.json`, {
        apiRoot: TAXONOMY_API,
      })
    : null;
  const sellers = new Map<string, Seller>();
  const faults = new FaultBook();
  const rateGate = new RateGate(options.rate, options.now);
  const oauth = new OAuthBook({ clientId, accessTtlSeconds: 7200, refreshTtlSeconds: 47_304_000 });
  const violations: ContractViolation[] = [];
  const sellerOf = (id: string) => {
    let seller = sellers.get(id);
    if (!seller)
      sellers.set(
        id,
        (seller = {
          items: new Map(),
          groups: new Map(),
          offers: new Map(),
          listings: new Map(),
          counts: { create: 0, update: 0, requests: 0, routes: {} },
        }),
      );
    return seller;
  };

  function authorize(url: URL, response: ServerResponse) {
    const q = paramsOf(url.searchParams);
    if (
      q.client_id !== clientId ||
      q.redirect_uri !== RU_NAME ||
      q.response_type !== "code" ||
      !q.state
    ) {
      return sendJson(response, 400, {
        error: "invalid_request",
        error_description:
          "client_id, response_type=code, redirect_uri (the RuName) and state are required",
      });
    }
    const sellerId = `seller-${sellers.size + 1}-${Date.now().toString(36)}`;
    sellerOf(sellerId);
    redirect(
      response,
      oauth.authorize({
        storeId: sellerId,
        clientId,
        redirectUri: callbackUrl,
        state: q.state,
        scope: q.scope,
      }),
    );
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected)
      return sendJson(response, 401, {
        error: "invalid_client",
        error_description: "client authentication failed",
      });
    const form = paramsOf(new URLSearchParams((await readBody(request)).toString("utf8")));
    let result: TokenResult;
    if (form.grant_type === "authorization_code") {
      if (form.redirect_uri !== RU_NAME)
        return sendJson(response, 400, {
          error: "invalid_grant",
          error_description: "redirect_uri must be the RuName",
        });
      result = oauth.exchangeCode({ code: form.code ?? "", clientId });
    } else if (form.grant_type === "refresh_token") {
      result = oauth.refresh({ refreshToken: form.refresh_token ?? "", clientId });
    } else {
      return sendJson(response, 400, { error: "unsupported_grant_type" });
    }
    if (!result.ok)
      return sendJson(response, 400, {
        error: result.error,
        error_description: result.description,
      });
    const { tokens } = result;
    sendJson(response, 200, {
      access_token: tokens.accessToken,
      expires_in: tokens.expiresIn,
      token_type: "User Access Token",
      ...(form.grant_type === "authorization_code"
        ? { refresh_token: tokens.refreshToken, refresh_token_expires_in: tokens.refreshExpiresIn }
        : {}),
    });
  }

  function playFault(response: ServerResponse, fault: StandinFault) {
    if (fault.kind === "throttle")
      return sendJson(
        response,
        429,
        ebayError(
          2001,
          "Too many requests. The request limit has been reached for the resource.",
          "REQUEST",
        ),
        retryAfterHeader(fault),
      );
    if (fault.kind === "error")
      return sendJson(
        response,
        fault.status,
        ebayError(25001, "A system error has occurred.", "APPLICATION"),
      );
    if (fault.kind === "auth")
      return sendJson(response, 401, ebayError(1001, "Invalid access token", "REQUEST"));
    if (fault.kind === "invalid")
      return sendJson(
        response,
        400,
        ebayError(25002, fault.message, "REQUEST", {
          parameters: [{ name: fault.field ?? "request", value: "" }],
        }),
      );
  }

  /** Publishing creates the listing once and revises it every time after. */
  function list(seller: Seller, key: string, group: boolean): string {
    const existing = [...seller.listings.values()].find((l) => l.key === key && l.group === group);
    if (existing) {
      existing.version += 1;
      seller.counts.update += 1;
      return existing.listingId;
    }
    const listing = { listingId: String(nextId++), key, group, version: 1 };
    seller.listings.set(listing.listingId, listing);
    seller.counts.create += 1;
    return listing.listingId;
  }

  /** Ends the listing of a SKU or group key; its offers stay, unpublished. */
  function withdraw(seller: Seller, key: string, group: boolean): string | undefined {
    const listing = [...seller.listings.values()].find((l) => l.key === key && l.group === group);
    if (listing) seller.listings.delete(listing.listingId);
    const skus = group ? (seller.groups.get(key)?.variantSKUs ?? []) : [key];
    for (const offer of seller.offers.values())
      if (skus.includes(offer.sku)) {
        offer.status = "UNPUBLISHED";
        delete offer.listingId;
      }
    return listing?.listingId;
  }

  /** bulkUpdatePriceQuantity: each SKU's stock and its published offers' price and quantity. */
  function bulkUpdate(seller: Seller, requests: PriceQuantityRequest[], response: ServerResponse) {
    const responses: Json[] = [];
    const touched = new Set<Listing>();
    for (const request of requests) {
      const sku = request.sku ?? "";
      const item = seller.items.get(sku);
      if (request.shipToLocationAvailability) {
        if (!item) {
          responses.push({
            sku,
            statusCode: 404,
            errors: ebayError(25702, `The SKU ${sku} is not available in the system.`).errors,
          });
          continue;
        }
        item.availability = {
          shipToLocationAvailability: { ...request.shipToLocationAvailability },
        };
      }
      for (const change of request.offers ?? []) {
        const offer = seller.offers.get(change.offerId ?? "");
        if (!offer || offer.sku !== sku || offer.status !== "PUBLISHED") {
          responses.push({
            sku,
            offerId: change.offerId,
            statusCode: 400,
            errors: ebayError(
              25002,
              `Offer ${change.offerId} is not a published offer of SKU ${sku}.`,
            ).errors,
          });
          continue;
        }
        if (change.availableQuantity !== undefined)
          offer.availableQuantity = change.availableQuantity;
        if (change.price) offer.pricingSummary = { ...offer.pricingSummary, price: change.price };
        responses.push({ sku, offerId: offer.offerId, statusCode: 200 });
      }
      for (const listing of seller.listings.values()) {
        const skus = listing.group
          ? (seller.groups.get(listing.key)?.variantSKUs ?? [])
          : [listing.key];
        if (skus.includes(sku)) touched.add(listing);
      }
    }
    for (const listing of touched) {
      listing.version += 1;
      seller.counts.update += 1;
    }
    const allOk = responses.every((r) => r.statusCode === 200);
    sendJson(response, allOk ? 200 : 207, { responses });
  }

  function inventory(
    seller: Seller,
    method: string,
    path: string,
    query: URLSearchParams,
    body: Json,
    response: ServerResponse,
  ) {
    // Each resource's body has that resource's shape (checked against the contract when loaded).
    const [resource, id, action] = path.split("/").slice(1).map(decodeURIComponent);
    if (resource === "location" && !id && method === "GET") return locationList(query, response);
    if (resource === "inventory_item" && id && method === "PUT") {
      seller.items.set(id, body);
      return sendJson(response, 204, undefined);
    }
    if (resource === "inventory_item_group" && id && method === "PUT") {
      seller.groups.set(id, body as EbayGroup);
      return sendJson(response, 204, undefined);
    }
    if (resource === "offer" && !id && method === "GET") {
      const offers = [...seller.offers.values()].filter(
        (o) =>
          o.sku === query.get("sku") &&
          (!query.get("marketplace_id") || o.marketplaceId === query.get("marketplace_id")),
      );
      if (offers.length === 0)
        return sendJson(response, 404, ebayError(25713, "This Offer is not available.", "REQUEST"));
      return sendJson(response, 200, {
        offers,
        total: offers.length,
        size: offers.length,
        limit: 25,
      });
    }
    if (resource === "offer" && !id && method === "POST") {
      const offer = body as EbayOffer;
      if (!seller.items.has(offer.sku))
        return sendJson(
          response,
          400,
          ebayError(25702, `The SKU ${offer.sku} is not available in the system.`),
        );
      if (
        [...seller.offers.values()].some(
          (o) => o.sku === offer.sku && o.marketplaceId === offer.marketplaceId,
        )
      )
        return sendJson(response, 400, ebayError(25002, "Offer entity already exists."));
      const offerId = String(nextId++);
      seller.offers.set(offerId, { ...offer, offerId, status: "UNPUBLISHED" });
      return sendJson(response, 201, { offerId });
    }
    if (resource === "bulk_update_price_quantity" && !id && method === "POST")
      return bulkUpdate(
        seller,
        (body.requests as PriceQuantityRequest[] | undefined) ?? [],
        response,
      );
    if (resource === "offer" && id === "withdraw_by_inventory_item_group" && method === "POST") {
      const { inventoryItemGroupKey } = body as { inventoryItemGroupKey: string };
      if (withdraw(seller, inventoryItemGroupKey, true) === undefined)
        return sendJson(response, 400, ebayError(25725, "No offer found"));
      return sendJson(response, 204, undefined);
    }
    if (resource === "offer" && id === "publish_by_inventory_item_group" && method === "POST") {
      const { inventoryItemGroupKey } = body as { inventoryItemGroupKey: string };
      const group = seller.groups.get(inventoryItemGroupKey);
      if (!group)
        return sendJson(
          response,
          400,
          ebayError(25705, "The Inventory Item Group named doesn't exist."),
        );
      const missing = group.variantSKUs.filter(
        (sku) => ![...seller.offers.values()].some((o) => o.sku === sku),
      );
      if (missing.length)
        return sendJson(
          response,
          400,
          ebayError(25016, `No offer for variation SKUs ${missing.join(", ")}`),
        );
      const listingId = list(seller, inventoryItemGroupKey, true);
      for (const offer of seller.offers.values())
        if (group.variantSKUs.includes(offer.sku))
          Object.assign(offer, { status: "PUBLISHED", listingId });
      return sendJson(response, 200, { listingId });
    }
    const found = id ? seller.offers.get(id) : undefined;
    if (resource === "offer" && found && !action && method === "PUT") {
      Object.assign(found, body);
      return sendJson(response, 204, undefined);
    }
    if (resource === "offer" && found && action === "withdraw" && method === "POST") {
      const listingId =
        found.status === "PUBLISHED" ? withdraw(seller, found.sku, false) : undefined;
      return sendJson(response, 200, listingId ? { listingId } : {});
    }
    if (resource === "offer" && found && action === "publish" && method === "POST") {
      found.status = "PUBLISHED";
      return sendJson(response, 200, {
        listingId: (found.listingId = list(seller, found.sku, false)),
      });
    }
    sendJson(response, 404, ebayError(25713, "This Offer is not available."));
  }

  /** One of eBay's APIs the stand-in answers: where its paths start, its contract, its calls. */
  interface Surface {
    root: string;
    contract: OpenApiContract | null;
    handle: (
      seller: Seller,
      method: string,
      path: string,
      query: URLSearchParams,
      body: Json,
      response: ServerResponse,
    ) => void;
  }
  const surfaces: Surface[] = [
    { root: API, contract, handle: inventory },
    {
      root: ACCOUNT_API,
      contract: accountContract,
      handle: (_s, method, path, query, _b, response) =>
        method === "GET"
          ? accountApi(path, query, response, ebayError)
          : sendJson(response, 404, ebayError(2002, "Resource not found")),
    },
    {
      root: TAXONOMY_API,
      contract: taxonomyContract,
      handle: (_s, method, path, query, _b, response) =>
        method === "GET"
          ? taxonomyApi(path, query, response, ebayError)
          : sendJson(response, 404, ebayError(2002, "Resource not found")),
    },
  ];

  async function api(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    { root, contract, handle }: Surface,
  ) {
    const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const sellerId = oauth.storeOf(token);
    const seller = sellerId ? sellers.get(sellerId) : undefined;
    if (!seller || !sellerId)
      return sendJson(response, 401, ebayError(1001, "Invalid access token"));
    seller.counts.requests += 1;
    // Inventory routes count as "/offer"; the other APIs' with their root.
    const path = url.pathname.slice(root.length);
    countRoute(
      seller.counts,
      `${request.method ?? "GET"} ${root === API ? "" : root}${routeOf(path)}`,
    );
    const played = await playCommonFault(
      rateGate.take(sellerId) ?? faults.take(sellerId),
      response,
    );
    if (played === "handled") return;
    if (played) return playFault(response, played);
    const raw = (await readBody(request)).toString("utf8");
    const body = raw ? (JSON.parse(raw) as Json) : {};
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
    );
    const problems =
      contract?.check({
        method: request.method ?? "GET",
        path: url.pathname,
        query: paramsOf(url.searchParams),
        headers,
        body: raw ? body : undefined,
      }) ?? [];
    if (!contract && request.method !== "GET" && !headers["content-language"])
      problems.push("header content-language is required");
    if (problems.length > 0) {
      violations.push({ request: `${request.method} ${url.pathname}`, problems });
      return sendJson(response, 400, ebayError(25709, `Invalid request: ${problems.join("; ")}`));
    }
    handle(seller, request.method ?? "GET", path, url.searchParams, body, response);
  }

  const server = await startLoopbackServer(
    withControl(
      () => standin,
      async (request, response, url) => {
        if (url.pathname === "/oauth2/authorize" && request.method === "GET")
          return authorize(url, response);
        if (url.pathname === "/identity/v1/oauth2/token" && request.method === "POST")
          return token(request, response);
        const surface = surfaces.find((s) => url.pathname.startsWith(`${s.root}/`));
        if (surface) return api(request, response, url, surface);
        sendJson(response, 404, ebayError(2002, "Resource not found"));
      },
    ),
    options,
  );

  const summary = (seller: Seller, l: Listing): ListingSummary => {
    const group = l.group ? seller.groups.get(l.key) : undefined;
    const skus: string[] = group?.variantSKUs ?? [l.key];
    const firstOffer = [...seller.offers.values()].find((o) => o.sku === skus[0]);
    const item = group ?? seller.items.get(l.key)?.product;
    const stock = seller.items.get(skus[0]!)?.availability?.shipToLocationAvailability?.quantity;
    return {
      id: l.listingId,
      sku: l.key,
      title: item?.title ?? "",
      priceAmount: firstOffer?.pricingSummary?.price?.value ?? null,
      variantSkus: group ? skus : [],
      imageCount: (item?.imageUrls ?? []).length,
      version: l.version,
      // What the listing shows: the offer's own description, else the group's or the item's.
      description: firstOffer?.listingDescription ?? item?.description ?? null,
      quantity: firstOffer?.availableQuantity ?? stock ?? null,
      raw: {
        item: group ?? seller.items.get(l.key),
        offers: [...seller.offers.values()].filter((o) => skus.includes(o.sku)),
      },
    };
  };

  const standin: ChannelStandin = {
    channel: "ebay",
    url: server.url,
    env: {
      EBAY_CLIENT_ID: clientId,
      EBAY_CLIENT_SECRET: clientSecret,
      EBAY_RU_NAME: RU_NAME,
      EBAY_AUTH_URL: `${server.url}/oauth2/authorize`,
      EBAY_API_URL: server.url,
    },
    storeIds: () => [...sellers.keys()],
    store: (id) => {
      const seller = sellerOf(id);
      return {
        listings: [...seller.listings.values()].map((l) => summary(seller, l)),
        counts: { ...seller.counts, routes: { ...seller.counts.routes } },
      };
    },
    setFault: (id, fault) => faults.set(id, fault),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    clearFaults: () => faults.clear(),
    denyNextAuthorization: () => oauth.denyNextAuthorization(),
    expireAccessTokens: (id) => oauth.expireAccessTokens(id),
    violations,
    close: server.close,
  };
  return standin;
}

/**
 * The stand-ins list's entry: how to start it, and how the end-to-end suite connects a store on it.
 */
export const ebayStandin: ChannelStandinEntry = {
  channel: "ebay",
  start: startEbayStandin,
  testCase: {
    variants: true,
    expiringTokens: true,
    connectQuery: () => ({}),
    settings: {
      marketplaceId: "EBAY_US",
      categoryId: "20625",
      merchantLocationKey: "warehouse-1",
      paymentPolicyId: "pay-1",
      returnPolicyId: "ret-1",
      fulfillmentPolicyId: "ful-1",
    },
  },
};
