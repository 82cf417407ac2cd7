// WooCommerce stores on loopback, at /stores/<id>: the /wc-auth key-provisioning page (which
// POSTs the keys to the app's callback, as a real store does), and the wc/v3 products and
// variations endpoints with WooCommerce's SKU uniqueness, error shapes and Basic auth. Every API
// request is checked against the published (unofficial) OpenAPI file when ../shared is present.
import { randomBytes } from "node:crypto";
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
  playCommonFault,
  readBody,
  redirect,
  sendJson,
  startLoopbackServer,
} from "../standins/kit/http.js";
import { countRoute, RateGate } from "../standins/kit/rate-gate.js";
import type { StandinOptions } from "../standins/kit/standin-options.js";
import type { ChannelStandinEntry } from "../standins/channel-standin-entry.js";

type Json = Record<string, unknown>;

/** The product / variation fields the stand-in reads; everything else is kept as sent. */
interface WooFields extends Json {
  sku?: string;
  name?: string;
  regular_price?: string;
  stock_quantity?: number | null;
  description?: string;
  images?: unknown[];
}

interface WooVariation extends WooFields {
  id: number;
}

interface WooProduct extends WooFields {
  id: number;
  sku: string;
  version: number;
  variations: Map<number, WooVariation>;
}

/** A products request body (checked against the contract when it is loaded). */
interface WooBody extends WooFields {
  create?: WooFields[];
  update?: WooVariation[];
  delete?: number[];
}

interface Store {
  keys: Map<string, string>;
  products: Map<number, WooProduct>;
  counts: StandinCounts;
}

export interface WoocommerceStandin extends ChannelStandin {
  /** A store with keys already granted, as an operator would have them. */
  createStore(): { storeId: string; storeUrl: string; consumerKey: string; consumerSecret: string };
}

const API = "/wp-json/wc/v3";
const wooError = (status: number, code: string, message: string, extra: Json = {}) => ({
  code,
  message,
  data: { status, ...extra },
});

export async function startWoocommerceStandin(
  options: StandinOptions = {},
): Promise<WoocommerceStandin> {
  const dir = options.contract === false ? null : sharedContractsDir();
  const contract: OpenApiContract | null = dir
    ? await loadOpenApiContract(`${dir}/woocommerce/wtx-labs-woocommerce-rest-api-openapi-v3.yml`, {
        apiRoot: API,
      })
    : null;
  const stores = new Map<string, Store>();
  const faults = new FaultBook();
  const rateGate = new RateGate(options.rate, options.now);
  const violations: ContractViolation[] = [];
  let denyNext = false;
  let nextId = 100;
  let url = "";

  const newStore = (storeId = `store-${stores.size + 1}-${randomBytes(3).toString("hex")}`) => {
    stores.set(storeId, {
      keys: new Map(),
      products: new Map(),
      counts: { create: 0, update: 0, requests: 0, routes: {} },
    });
    return storeId;
  };
  const grantKeys = (store: Store) => {
    const consumerKey = `ck_${randomBytes(20).toString("hex")}`;
    const consumerSecret = `cs_${randomBytes(20).toString("hex")}`;
    store.keys.set(consumerKey, consumerSecret);
    return { consumerKey, consumerSecret, keyId: store.keys.size };
  };

  async function authorize(storeId: string, q: URLSearchParams, response: ServerResponse) {
    const store = stores.get(storeId);
    const back = q.get("return_url");
    const callback = q.get("callback_url");
    const state = q.get("user_id") ?? "";
    if (!store || !back || !callback || q.get("scope") !== "read_write")
      return sendJson(
        response,
        400,
        wooError(400, "woocommerce_rest_invalid_request", "invalid authorization request"),
      );
    const returnTo = (success: boolean) => {
      const target = new URL(back);
      target.searchParams.set("success", success ? "1" : "0");
      target.searchParams.set("user_id", state);
      redirect(response, target.toString());
    };
    if (denyNext) {
      denyNext = false;
      return returnTo(false);
    }
    const { consumerKey, consumerSecret, keyId } = grantKeys(store);
    // The store's own server delivers the keys to the app, before sending the owner back.
    const delivered = await fetch(callback, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        key_id: keyId,
        user_id: state,
        consumer_key: consumerKey,
        consumer_secret: consumerSecret,
        key_permissions: "read_write",
      }),
    }).then(
      (r) => r.ok,
      () => false,
    );
    returnTo(delivered);
  }

  function authorized(store: Store, request: IncomingMessage): boolean {
    const [scheme, value] = (request.headers.authorization ?? "").split(" ");
    if (scheme !== "Basic" || !value) return false;
    const [key, secret] = Buffer.from(value, "base64").toString("utf8").split(":");
    return !!key && store.keys.get(key) === secret;
  }

  function playFault(response: ServerResponse, fault: StandinFault) {
    if (fault.kind === "throttle")
      return sendJson(
        response,
        429,
        wooError(429, "too_many_requests", "Too many requests."),
        retryAfterHeader(fault),
      );
    if (fault.kind === "error")
      return sendJson(
        response,
        fault.status,
        wooError(
          fault.status,
          "internal_server_error",
          "There has been a critical error on this website.",
        ),
      );
    if (fault.kind === "auth")
      return sendJson(
        response,
        401,
        wooError(
          401,
          "woocommerce_rest_authentication_error",
          "Invalid signature - provided signature does not match.",
        ),
      );
    if (fault.kind === "invalid") {
      const field = fault.field ?? "name";
      return sendJson(
        response,
        400,
        wooError(400, "rest_invalid_param", `Invalid parameter(s): ${field}`, {
          params: { [field]: fault.message },
        }),
      );
    }
  }

  const present = (p: WooProduct) => {
    const { variations, version, ...rest } = p;
    return { ...rest, variations: [...variations.keys()], permalink: `${url}/product/${p.id}` };
  };
  const skuTaken = (store: Store, sku: string | undefined, except?: number) =>
    !!sku &&
    [...store.products.values()].some(
      (p) =>
        p.id !== except && (p.sku === sku || [...p.variations.values()].some((v) => v.sku === sku)),
    );

  function products(
    store: Store,
    method: string,
    rest: string[],
    q: URLSearchParams,
    body: WooBody,
    response: ServerResponse,
  ) {
    const [id, sub, action] = rest;
    const product = id ? store.products.get(Number(id)) : undefined;
    if (!id && method === "GET") {
      const sku = q.get("sku");
      return sendJson(
        response,
        200,
        [...store.products.values()].filter((p) => !sku || p.sku === sku).map(present),
      );
    }
    if (!id && method === "POST") {
      if (skuTaken(store, body.sku))
        return sendJson(
          response,
          400,
          wooError(400, "product_invalid_sku", "Invalid or duplicated SKU.", {
            resource_id: 0,
            unique_sku: body.sku,
          }),
        );
      const created: WooProduct = {
        ...body,
        id: nextId++,
        sku: body.sku ?? "",
        version: 1,
        variations: new Map(),
      };
      store.products.set(created.id, created);
      store.counts.create += 1;
      return sendJson(response, 201, present(created));
    }
    if (!product)
      return sendJson(
        response,
        404,
        wooError(404, "woocommerce_rest_product_invalid_id", "Invalid ID."),
      );
    if (!sub && method === "DELETE") {
      if (q.get("force") !== "true")
        return sendJson(
          response,
          501,
          wooError(
            501,
            "woocommerce_rest_trash_not_supported",
            "The resource does not support trashing.",
          ),
        );
      store.products.delete(product.id);
      return sendJson(response, 200, present(product));
    }
    if (!sub && method === "PUT") {
      if (skuTaken(store, body.sku, product.id))
        return sendJson(
          response,
          400,
          wooError(400, "product_invalid_sku", "Invalid or duplicated SKU."),
        );
      Object.assign(product, body, { version: product.version + 1 });
      store.counts.update += 1;
      return sendJson(response, 200, present(product));
    }
    if (sub === "variations" && !action && method === "GET")
      return sendJson(response, 200, [...product.variations.values()]);
    if (sub === "variations" && action === "batch" && method === "POST") {
      const made = (body.create ?? []).map((v) => {
        const variation = { ...v, id: nextId++ };
        product.variations.set(variation.id, variation);
        return variation;
      });
      const updated = (body.update ?? []).map((v) =>
        Object.assign(product.variations.get(v.id) ?? {}, v),
      );
      const removed = (body.delete ?? []).map((d) => (product.variations.delete(d), { id: d }));
      product.version += 1;
      store.counts.update += 1;
      return sendJson(response, 200, { create: made, update: updated, delete: removed });
    }
    sendJson(
      response,
      404,
      wooError(404, "rest_no_route", "No route was found matching the URL and request method."),
    );
  }

  const server = await startLoopbackServer(
    withControl(
      () => standin,
      async (request, response, target) => {
        const match = /^\/stores\/([\w-]{1,64})(\/.*)$/.exec(target.pathname);
        // Any store address can be connected: the authorization opens the store, as the others' do.
        if (match && match[2] === "/wc-auth/v1/authorize" && !stores.has(match[1]!))
          newStore(match[1]);
        const store = match ? stores.get(match[1]!) : undefined;
        if (!match || !store)
          return sendJson(response, 404, wooError(404, "rest_no_route", "No such store."));
        const [, storeId, path] = match as unknown as [string, string, string];
        if (path === "/wc-auth/v1/authorize" && request.method === "GET")
          return authorize(storeId, target.searchParams, response);
        if (!path.startsWith(`${API}/`))
          return sendJson(
            response,
            404,
            wooError(
              404,
              "rest_no_route",
              "No route was found matching the URL and request method.",
            ),
          );
        store.counts.requests += 1;
        countRoute(
          store.counts,
          `${request.method ?? "GET"} ${path.slice(API.length).replace(/\/\d+(?=\/|$)/g, "/{id}")}`,
        );
        if (!authorized(store, request))
          return sendJson(
            response,
            401,
            wooError(401, "woocommerce_rest_authentication_error", "Consumer key is invalid."),
          );
        const played = await playCommonFault(
          rateGate.take(storeId) ?? faults.take(storeId),
          response,
        );
        if (played === "handled") return;
        if (played) return playFault(response, played);
        const raw = (await readBody(request)).toString("utf8");
        const body = raw ? (JSON.parse(raw) as WooBody) : {};
        const problems =
          contract?.check({
            method: request.method ?? "GET",
            path,
            query: Object.fromEntries(target.searchParams),
            body: raw ? body : undefined,
            headers: Object.fromEntries(
              Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
            ),
          }) ?? [];
        if (problems.length > 0) {
          violations.push({ request: `${request.method} ${path}`, problems });
          return sendJson(
            response,
            400,
            wooError(400, "rest_invalid_param", `Invalid parameter(s): ${problems.join("; ")}`),
          );
        }
        const [resource, ...rest] = path.slice(API.length + 1).split("/");
        if (resource === "products")
          return products(
            store,
            request.method ?? "GET",
            rest,
            target.searchParams,
            body,
            response,
          );
        sendJson(
          response,
          404,
          wooError(404, "rest_no_route", "No route was found matching the URL and request method."),
        );
      },
    ),
    options,
  );
  url = server.url;

  const summary = (p: WooProduct): ListingSummary => ({
    id: String(p.id),
    sku: p.sku || null,
    title: p.name ?? "",
    priceAmount: p.regular_price ?? null,
    variantSkus: [...p.variations.values()].map((v) => v.sku).filter((s): s is string => !!s),
    imageCount: (p.images ?? []).length,
    description: p.description ?? null,
    version: p.version,
    quantity:
      (p.variations.size > 0 ? [...p.variations.values()][0]!.stock_quantity : p.stock_quantity) ??
      null,
    raw: present(p),
  });

  const standin: WoocommerceStandin = {
    channel: "woocommerce",
    url: server.url,
    env: { WOOCOMMERCE_APP_NAME: "Catalog Service (test)", CHANNEL_PRIVATE_URLS: "true" },
    storeIds: () => [...stores.keys()],
    store: (storeId) => {
      const store = stores.get(storeId);
      return store
        ? {
            listings: [...store.products.values()].map(summary),
            counts: { ...store.counts, routes: { ...store.counts.routes } },
          }
        : { listings: [], counts: { create: 0, update: 0, requests: 0, routes: {} } };
    },
    createStore() {
      const storeId = newStore();
      const { consumerKey, consumerSecret } = grantKeys(stores.get(storeId)!);
      return { storeId, storeUrl: `${server.url}/stores/${storeId}`, consumerKey, consumerSecret };
    },
    setFault: (storeId, fault) => faults.set(storeId, fault),
    clearFaults: () => faults.clear(),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    denyNextAuthorization: () => {
      denyNext = true;
    },
    expireAccessTokens: () => {},
    violations,
    close: server.close,
  };
  return standin;
}

/**
 * The stand-ins list's entry: how to start it, and how the end-to-end suite connects a store on it.
 */
export const woocommerceStandin: ChannelStandinEntry = {
  channel: "woocommerce",
  start: startWoocommerceStandin,
  // Any store id names a store; the first authorization creates it.
  connectHint: (url) => `store address ${url}/stores/demo`,
  testCase: {
    variants: true,
    expiringTokens: false,
    settings: null,
    connectQuery: (standin) => ({
      storeUrl: (standin as WoocommerceStandin).createStore().storeUrl,
    }),
  },
};
