// Etsy on loopback: the OAuth connect page and token endpoint (PKCE, rotating refresh tokens),
// the shop lookup, draft listings (form-encoded), inventory and uploaded images, with Etsy's
// `x-api-key` check, error bodies and throttling headers. Every /v3/application request is
// checked against Etsy's published OpenAPI file when ../shared is present.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sharedContractsDir, type ContractViolation } from "../standins/contract/contract-check.js";
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
import { OAuthBook, type TokenResult } from "../standins/kit/oauth-book.js";
import { countRoute, RateGate } from "../standins/kit/rate-gate.js";
import type { StandinOptions } from "../standins/kit/standin-options.js";
import type { ChannelStandinEntry } from "../standins/channel-standin-entry.js";

type Json = Record<string, unknown>;

/** An inventory product, as far as the stand-in reads it. */
interface EtsyProduct extends Json {
  sku: string;
  property_values?: unknown[];
  offerings?: { price: number; quantity?: number }[];
}

interface EtsyInventory extends Json {
  products?: EtsyProduct[];
}

interface EtsyListing extends Json {
  listing_id: number;
  version: number;
  /** As the listing form sent them (strings). */
  title?: string;
  price?: string;
  description?: string;
  inventory: EtsyInventory | null;
  images: { listing_image_id: number; alt_text: string; rank: number; bytes: number }[];
}

interface EtsyShop {
  userId: number;
  shopId: number;
  listings: Map<number, EtsyListing>;
  counts: StandinCounts;
}

let nextId = 1_500_000_000;

export async function startEtsyStandin(options: StandinOptions = {}): Promise<ChannelStandin> {
  const clientId = options.clientId ?? "etsy-standin-keystring";
  const dir = options.contract === false ? null : sharedContractsDir();
  const contract: OpenApiContract | null = dir
    ? await loadOpenApiContract(`${dir}/etsy/etsy-openapi-v3.json`)
    : null;
  const shops = new Map<string, EtsyShop>();
  const faults = new FaultBook();
  const rateGate = new RateGate(options.rate, options.now);
  const oauth = new OAuthBook({
    clientId,
    accessTtlSeconds: 3600,
    refreshTtlSeconds: 90 * 24 * 3600,
    rotateRefreshTokens: true,
    tokenPrefix: (storeId) => `${shops.get(storeId)!.userId}.`,
  });
  const violations: ContractViolation[] = [];
  const emptyShop = (): EtsyShop => ({
    userId: nextId++,
    shopId: nextId++,
    listings: new Map(),
    counts: { create: 0, update: 0, requests: 0, routes: {} },
  });

  function connect(url: URL, response: ServerResponse) {
    const q = paramsOf(url.searchParams);
    if (
      q.client_id !== clientId ||
      q.response_type !== "code" ||
      !q.redirect_uri ||
      !q.state ||
      q.code_challenge_method !== "S256" ||
      !q.code_challenge
    ) {
      return sendJson(response, 400, {
        error: "invalid_request",
        error_description:
          "client_id, response_type=code, redirect_uri, state and an S256 code_challenge are required",
      });
    }
    const shop = emptyShop();
    const storeId = String(shop.shopId);
    shops.set(storeId, shop);
    redirect(
      response,
      oauth.authorize({
        storeId,
        clientId,
        redirectUri: q.redirect_uri,
        state: q.state,
        scope: q.scope,
        codeChallenge: q.code_challenge,
      }),
    );
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = paramsOf(new URLSearchParams((await readBody(request)).toString("utf8")));
    let result: TokenResult;
    if (form.grant_type === "authorization_code") {
      result = oauth.exchangeCode({
        code: form.code ?? "",
        clientId: form.client_id ?? "",
        redirectUri: form.redirect_uri,
        codeVerifier: form.code_verifier,
      });
    } else if (form.grant_type === "refresh_token") {
      result = oauth.refresh({
        refreshToken: form.refresh_token ?? "",
        clientId: form.client_id ?? "",
      });
    } else {
      return sendJson(response, 400, { error: "unsupported_grant_type" });
    }
    if (!result.ok)
      return sendJson(response, 400, {
        error: result.error,
        error_description: result.description,
      });
    sendJson(response, 200, {
      access_token: result.tokens.accessToken,
      token_type: "Bearer",
      expires_in: result.tokens.expiresIn,
      refresh_token: result.tokens.refreshToken,
    });
  }

  function playFault(response: ServerResponse, fault: StandinFault) {
    if (fault.kind === "throttle")
      return sendJson(
        response,
        429,
        { error: "You have exceeded your quota of requests per second." },
        { ...retryAfterHeader(fault), "x-remaining-this-second": "0", "x-remaining-today": "9000" },
      );
    if (fault.kind === "error")
      return sendJson(response, fault.status, { error: "Internal error" });
    if (fault.kind === "auth") return sendJson(response, 401, { error: "invalid_token" });
    if (fault.kind === "invalid") return sendJson(response, 400, { error: fault.message });
  }

  /**
   * The body as the contract check and the handlers see it: JSON, or form fields as strings (a file
   * as "(file)").
   */
  async function bodyOf(
    request: IncomingMessage,
  ): Promise<{ fields: Json | undefined; files: Map<string, number> }> {
    const raw = await readBody(request);
    const type = request.headers["content-type"] ?? "";
    const files = new Map<string, number>();
    if (raw.length === 0) return { fields: undefined, files };
    if (type.startsWith("application/json"))
      return { fields: JSON.parse(raw.toString("utf8")) as Json, files };
    if (type.startsWith("application/x-www-form-urlencoded"))
      return { fields: paramsOf(new URLSearchParams(raw.toString("utf8"))), files };
    const form = await new Response(raw, { headers: { "content-type": type } }).formData();
    const fields: Json = {};
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else {
        files.set(name, value.size);
        fields[name] = "(file)";
      }
    }
    return { fields, files };
  }

  function listingView(l: EtsyListing) {
    const { version, inventory, images, ...rest } = l;
    return { ...rest, url: `https://www.etsy.com/listing/${l.listing_id}` };
  }

  function route(
    shop: EtsyShop,
    method: string,
    parts: string[],
    body: Json,
    files: Map<string, number>,
    response: ServerResponse,
  ) {
    const [a, b, c, d, e, f] = parts;
    const listingOf = (id: string | undefined) => shop.listings.get(Number(id));
    if (a === "users" && c === "shops" && method === "GET") {
      if (Number(b) !== shop.userId) return sendJson(response, 404, { error: "User not found" });
      return sendJson(response, 200, {
        shop_id: shop.shopId,
        shop_name: `StandinShop${shop.shopId}`,
        user_id: shop.userId,
        currency_code: "USD",
      });
    }
    if (a === "shops" && Number(b) !== shop.shopId)
      return sendJson(response, 403, { error: "You do not own this shop" });
    if (a === "shops" && c === "listings" && !d && method === "POST") {
      const listing: EtsyListing = {
        ...body,
        listing_id: nextId++,
        shop_id: shop.shopId,
        state: "draft",
        version: 1,
        inventory: null,
        images: [],
      };
      shop.listings.set(listing.listing_id, listing);
      shop.counts.create += 1;
      return sendJson(response, 201, listingView(listing));
    }
    const listing = a === "shops" ? listingOf(d) : a === "listings" ? listingOf(b) : undefined;
    if (!listing) return sendJson(response, 404, { error: "Listing not found" });
    if (a === "shops" && !e && method === "PATCH") {
      Object.assign(listing, body, { version: listing.version + 1 });
      shop.counts.update += 1;
      return sendJson(response, 200, listingView(listing));
    }
    if (a === "listings" && !c && method === "DELETE") {
      shop.listings.delete(listing.listing_id);
      return sendJson(response, 204, undefined);
    }
    if (a === "listings" && c === "inventory" && method === "PUT") {
      // Not counted as an update (the listing's fields are what `version` follows); the route is.
      listing.inventory = body;
      return sendJson(response, 200, body);
    }
    if (a === "listings" && c === "images" && method === "GET") {
      const results = listing.images.map(({ bytes, ...image }) => ({
        ...image,
        listing_id: listing.listing_id,
      }));
      return sendJson(response, 200, { count: results.length, results });
    }
    if (a === "shops" && e === "images" && !f && method === "POST") {
      if (!files.get("image")) return sendJson(response, 400, { error: "image is required" });
      // A multipart form: its fields are strings.
      const form = body as { alt_text?: string; rank?: string };
      const image = {
        listing_image_id: nextId++,
        alt_text: String(form.alt_text ?? ""),
        rank: Number(form.rank ?? listing.images.length + 1),
        bytes: files.get("image")!,
      };
      listing.images.push(image);
      return sendJson(response, 201, {
        listing_id: listing.listing_id,
        listing_image_id: image.listing_image_id,
        alt_text: image.alt_text,
        rank: image.rank,
      });
    }
    if (a === "shops" && e === "images" && f && method === "DELETE") {
      listing.images = listing.images.filter((i) => i.listing_image_id !== Number(f));
      return sendJson(response, 204, undefined);
    }
    sendJson(response, 404, { error: "Not found" });
  }

  async function api(request: IncomingMessage, response: ServerResponse, url: URL) {
    const key = request.headers["x-api-key"];
    if (typeof key !== "string" || key.split(":")[0] !== clientId)
      return sendJson(response, 403, { error: "Invalid API key: should be the app's keystring" });
    const storeId = oauth.storeOf((request.headers.authorization ?? "").replace(/^Bearer /, ""));
    const shop = storeId ? shops.get(storeId) : undefined;
    if (!shop || !storeId) return sendJson(response, 401, { error: "invalid_token" });
    shop.counts.requests += 1;
    countRoute(
      shop.counts,
      `${request.method ?? "GET"} ${url.pathname.slice("/v3/application".length).replace(/\/\d+(?=\/|$)/g, "/{id}")}`,
    );
    const played = await playCommonFault(rateGate.take(storeId) ?? faults.take(storeId), response);
    if (played === "handled") return;
    if (played) return playFault(response, played);
    const { fields, files } = await bodyOf(request);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
    );
    const problems =
      contract?.check({
        method: request.method ?? "GET",
        path: url.pathname,
        query: paramsOf(url.searchParams),
        headers,
        body: fields,
      }) ?? [];
    if (problems.length > 0) {
      violations.push({ request: `${request.method} ${url.pathname}`, problems });
      return sendJson(response, 400, { error: problems.join("; ") });
    }
    route(
      shop,
      request.method ?? "GET",
      url.pathname.split("/").slice(3),
      fields ?? {},
      files,
      response,
    );
  }

  const server = await startLoopbackServer(
    withControl(
      () => standin,
      async (request, response, url) => {
        if (url.pathname === "/oauth/connect" && request.method === "GET")
          return connect(url, response);
        if (url.pathname === "/v3/public/oauth/token" && request.method === "POST")
          return token(request, response);
        if (url.pathname.startsWith("/v3/application/")) return api(request, response, url);
        sendJson(response, 404, { error: "Not found" });
      },
    ),
    options,
  );

  const summary = (l: EtsyListing): ListingSummary => {
    const products = l.inventory?.products ?? [];
    const hasVariations = products.some((p) => (p.property_values ?? []).length > 0);
    const firstPrice = products[0]?.offerings?.[0]?.price;
    return {
      id: String(l.listing_id),
      sku: products[0]?.sku || null,
      title: String(l.title ?? ""),
      priceAmount: firstPrice !== undefined ? Number(firstPrice).toFixed(2) : (l.price ?? null),
      variantSkus: hasVariations ? products.map((p) => p.sku) : [],
      imageCount: l.images.length,
      description: l.description ?? null,
      version: l.version,
      quantity: products[0]?.offerings?.[0]?.quantity ?? null,
      raw: { ...listingView(l), inventory: l.inventory, images: l.images },
    };
  };

  const standin: ChannelStandin = {
    channel: "etsy",
    url: server.url,
    env: {
      ETSY_CLIENT_ID: clientId,
      ETSY_CONNECT_URL: `${server.url}/oauth/connect`,
      ETSY_API_URL: server.url,
      CHANNEL_PRIVATE_URLS: "true",
    },
    storeIds: () => [...shops.keys()],
    store: (storeId) => {
      const shop = shops.get(storeId) ?? emptyShop();
      return {
        listings: [...shop.listings.values()].map(summary),
        counts: { ...shop.counts, routes: { ...shop.counts.routes } },
      };
    },
    setFault: (storeId, fault) => faults.set(storeId, fault),
    clearFaults: () => faults.clear(),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    denyNextAuthorization: () => oauth.denyNextAuthorization(),
    expireAccessTokens: (storeId) => oauth.expireAccessTokens(storeId),
    violations,
    close: server.close,
  };
  return standin;
}

/**
 * The stand-ins list's entry: how to start it, and how the end-to-end suite connects a store on it.
 */
export const etsyStandin: ChannelStandinEntry = {
  channel: "etsy",
  start: startEtsyStandin,
  testCase: {
    variants: true,
    expiringTokens: true,
    connectQuery: () => ({}),
    settings: { taxonomyId: 1633, readinessStateId: 7 },
  },
};
