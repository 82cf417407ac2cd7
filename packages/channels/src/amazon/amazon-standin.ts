// Amazon on loopback: Seller Central's consent page (website authorization workflow), LWA's token
// endpoint, the Product Type Definitions API (with the schema documents its links point to), and
// Listings Items 2021-08-01 by SKU with Amazon's semantics: a put replaces the item (creating it),
// a patch applies JSON Patch operations to its attributes, and both answer 200 with a submission
// status (ACCEPTED, with issues per attribute, or INVALID). Errors are SP-API's `{ errors: [...]
// }`; an expired token is 403 Unauthorized; throttling is 429 with x-amzn-RateLimit-Limit. Requests
// are checked against Amazon's published models (Swagger 2, converted) when ../shared is present.
// After a listing changes, its status and issues notifications go to the gateway, as the operator's
// relay from Amazon's queue would send them (amazon-standin-notifications.ts); `suppress` plays
// Amazon taking a listing down for an issue.
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { swagger2ToOpenApi3 } from "../standins/contract/swagger2.js";
import { sharedContractsDir, type ContractViolation } from "../standins/contract/contract-check.js";
import {
  loadOpenApiContract,
  type OpenApiContract,
} from "../standins/contract/openapi-contract.js";
import { amazonNotifier, type AmazonNotifier } from "./amazon-standin-notifications.js";
import {
  invalidAttributes,
  missingAttributes,
  PRODUCT_TYPES,
  unknownAttributes,
  type AttributeValue,
  type Attributes,
} from "./amazon-standin-product-types.js";
import type { ChannelStandinEntry } from "../standins/channel-standin-entry.js";
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

type Json = Record<string, unknown>;

/** A listings put's body (checked against the contract when it is loaded). */
interface ListingsPut {
  productType: string;
  requirements?: string;
  attributes: Attributes;
}

/** A listings patch's body (checked against the contract when it is loaded). */
interface ListingsPatch {
  productType: string;
  patches: { op: string; path: string; value?: AttributeValue[] }[];
}

/** An attribute's first value, when it is text. */
const textOf = (values: AttributeValue[] | undefined): string | undefined => {
  const value = values?.[0]?.value;
  return typeof value === "string" ? value : undefined;
};

interface Item {
  sku: string;
  productType: string;
  attributes: Attributes;
  asin: string;
  version: number;
  createdDate: string;
  lastUpdatedDate: string;
  marketplaceId: string;
  /** What the last notifications said, so only changes are notified. */
  reported: { status: string; issues: string };
  /** Amazon took it down for an issue (`suppress`) until a put or patch is accepted again. */
  suppressed: boolean;
}

interface Seller {
  items: Map<string, Item>;
  counts: StandinCounts;
}

const LISTINGS = /^\/listings\/2021-08-01\/items\/([^/]+)\/([^/]+)$/;
const DEFINITION = /^\/definitions\/2020-09-01\/productTypes\/([^/]+)$/;
const SCHEMA_DOC = /^\/_schemas\/([A-Z_]+)\.json$/;
const RATE_LIMIT = "5.0";
const spError = (code: string, message: string, details?: string) => ({
  errors: [{ code, message, ...(details ? { details } : {}) }],
});
const asin = () => `B0${randomBytes(6).toString("hex").toUpperCase().slice(0, 8)}`;

export interface AmazonStandin extends ChannelStandin {
  /**
   * Amazon suppresses the listing (an ERROR issue, LISTING_SUPPRESSED; no longer buyable) and
   * notifies it.
   */
  suppress(sellerId: string, sku: string): void;
  /** The notifications sent to the gateway. */
  readonly notifications: AmazonNotifier;
}

const quantityOf = (value: unknown) => (typeof value === "number" ? value : null);

export async function startAmazonStandin(options: StandinOptions = {}): Promise<AmazonStandin> {
  const clientId = options.clientId ?? "amzn1.application-oa2-client.standin";
  const clientSecret = options.clientSecret ?? "amzn1.oa2-cs.v1.standin-secret";
  const appId = "amzn1.sp.solution.standin";
  const callbackUrl =
    options.callbackUrl ?? "http://127.0.0.1:3000/api/integrations/amazon/callback";
  const dir = options.contract === false ? null : sharedContractsDir();
  const contracts: OpenApiContract[] = dir
    ? await Promise.all([
        loadOpenApiContract(`${dir}/amazon/listingsItems_2021-08-01.json`, {
          overlay: swagger2ToOpenApi3,
        }),
        loadOpenApiContract(`${dir}/amazon/definitionsProductTypes_2020-09-01.json`, {
          overlay: swagger2ToOpenApi3,
        }),
      ])
    : [];
  const sellers = new Map<string, Seller>();
  const faults = new FaultBook();
  const rateGate = new RateGate(options.rate, options.now);
  const oauth = new OAuthBook({
    clientId,
    accessTtlSeconds: 3600,
    refreshTtlSeconds: 10 * 365 * 86_400,
  });
  const violations: ContractViolation[] = [];
  const notificationsSecret = randomBytes(18).toString("base64url");
  const notifier = amazonNotifier(
    {
      url: `${new URL(callbackUrl).origin}/api/integrations/amazon/notifications`,
      secret: notificationsSecret,
    },
    dir,
    violations,
  );
  const sellerOf = (id: string) => {
    let seller = sellers.get(id);
    if (!seller)
      sellers.set(
        id,
        (seller = { items: new Map(), counts: { create: 0, update: 0, requests: 0, routes: {} } }),
      );
    return seller;
  };

  /**
   * Seller Central's consent page: approves at once and sends the seller back with Amazon's
   * parameter names.
   */
  function consent(url: URL, response: ServerResponse) {
    const q = paramsOf(url.searchParams);
    if (q.application_id !== appId || !q.state)
      return sendJson(
        response,
        400,
        spError("InvalidInput", "application_id (the app's id) and state are required"),
      );
    const sellerId = `A${randomBytes(8).toString("hex").toUpperCase().slice(0, 13)}`;
    sellerOf(sellerId);
    const back = new URL(
      oauth.authorize({
        storeId: sellerId,
        clientId,
        redirectUri: q.redirect_uri ?? callbackUrl,
        state: q.state,
      }),
    );
    const code = back.searchParams.get("code");
    if (code) {
      back.searchParams.delete("code");
      back.searchParams.set("selling_partner_id", sellerId);
      back.searchParams.set("spapi_oauth_code", code);
    } else sellers.delete(sellerId);
    redirect(response, back.toString());
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = paramsOf(new URLSearchParams((await readBody(request)).toString("utf8")));
    if (form.client_id !== clientId || form.client_secret !== clientSecret)
      return sendJson(response, 401, {
        error: "invalid_client",
        error_description: "Client authentication failed",
      });
    let result: TokenResult;
    if (form.grant_type === "authorization_code")
      result = oauth.exchangeCode({
        code: form.code ?? "",
        clientId,
        redirectUri: form.redirect_uri,
      });
    else if (form.grant_type === "refresh_token")
      result = oauth.refresh({ refreshToken: form.refresh_token ?? "", clientId });
    else
      return sendJson(response, 400, {
        error: "unsupported_grant_type",
        error_description: "grant_type must be authorization_code or refresh_token",
      });
    if (!result.ok)
      return sendJson(response, 400, {
        error: result.error,
        error_description: result.description,
      });
    sendJson(response, 200, {
      access_token: result.tokens.accessToken,
      refresh_token: result.tokens.refreshToken,
      token_type: "bearer",
      expires_in: result.tokens.expiresIn,
    });
  }

  const throttleHeaders = (fault: Extract<StandinFault, { kind: "throttle" }>) => ({
    "x-amzn-ratelimit-limit": RATE_LIMIT,
    "x-amzn-requestid": randomUUID(),
    ...retryAfterHeader(fault),
  });

  function playFault(response: ServerResponse, fault: StandinFault, sku: string | undefined) {
    if (fault.kind === "throttle")
      return sendJson(
        response,
        429,
        spError("QuotaExceeded", "You exceeded your quota for the requested resource."),
        throttleHeaders(fault),
      );
    if (fault.kind === "error")
      return sendJson(
        response,
        fault.status,
        spError("InternalFailure", "We encountered an internal error. Please try again."),
      );
    if (fault.kind === "auth")
      return sendJson(
        response,
        403,
        spError(
          "Unauthorized",
          "Access to requested resource is denied.",
          "The access token you provided has expired.",
        ),
      );
    if (fault.kind === "invalid") {
      if (!sku) return sendJson(response, 400, spError("InvalidInput", fault.message));
      return sendJson(
        response,
        200,
        submission(sku, "INVALID", [
          issue(
            "90220",
            fault.message,
            "ERROR",
            fault.field ? [fault.field] : [],
            "INVALID_ATTRIBUTE",
          ),
        ]),
      );
    }
  }

  /**
   * Notifies what changed about the item: its status and its issues, as Amazon would after
   * processing it.
   */
  function notifyChanges(sellerId: string, item: Item, warnings: boolean) {
    const { marketplaceId } = item;
    const parent = item.attributes.parentage_level?.[0]?.value === "parent";
    const status = item.suppressed ? [] : parent ? ["DISCOVERABLE"] : ["BUYABLE", "DISCOVERABLE"];
    const [severities, actions] = item.suppressed
      ? [["ERROR"], ["LISTING_SUPPRESSED"]]
      : [[warnings ? "WARNING" : "NONE"], []];
    if (item.reported.status !== status.join())
      notifier.status(sellerId, marketplaceId, item.sku, item.asin, status);
    if (item.reported.issues !== [...severities, ...actions].join())
      notifier.issues(sellerId, marketplaceId, item.sku, item.asin, severities, actions);
    item.reported = { status: status.join(), issues: [...severities, ...actions].join() };
  }

  const issue = (
    code: string,
    message: string,
    severity: string,
    attributeNames: string[],
    category: string,
  ) => ({ code, message, severity, attributeNames, categories: [category] });
  const submission = (sku: string, status: string, issues: Json[]) => ({
    sku,
    status,
    submissionId: randomUUID(),
    issues,
  });

  /** What Amazon says of the attributes a put or patch leaves the item with. */
  function review(
    productType: string,
    attributes: Attributes,
    productOnly: boolean,
  ): { status: "ACCEPTED" | "INVALID"; issues: Json[] } {
    const errors = [
      ...missingAttributes(productType, attributes, productOnly).map((name) =>
        issue(
          "90220",
          `'${name}' is required but not supplied.`,
          "ERROR",
          [name],
          "MISSING_ATTRIBUTE",
        ),
      ),
      ...invalidAttributes(attributes).map((p) =>
        issue("4000001", p.message, "ERROR", [p.name], "INVALID_ATTRIBUTE"),
      ),
    ];
    if (errors.length > 0) return { status: "INVALID", issues: errors };
    return {
      status: "ACCEPTED",
      issues: unknownAttributes(productType, attributes).map((name) =>
        issue(
          "100339",
          `The attribute '${name}' is not part of product type ${productType} and was ignored.`,
          "WARNING",
          [name],
          "INVALID_ATTRIBUTE",
        ),
      ),
    };
  }

  function listings(
    sellerId: string,
    seller: Seller,
    method: string,
    sku: string,
    query: URLSearchParams,
    body: ListingsPut | ListingsPatch,
    response: ServerResponse,
  ) {
    const marketplaceId = query.get("marketplaceIds") ?? "";
    const found = seller.items.get(sku);
    const now = new Date().toISOString();
    if (method === "GET") {
      if (!found)
        return sendJson(
          response,
          404,
          spError("NOT_FOUND", `SKU '${sku}' not found in marketplace ${marketplaceId}`),
        );
      return sendJson(response, 200, {
        sku,
        summaries: [
          {
            marketplaceId,
            asin: found.asin,
            productType: found.productType,
            conditionType: found.attributes.condition_type?.[0]?.value,
            status: found.suppressed ? [] : ["BUYABLE", "DISCOVERABLE"],
            itemName: found.attributes.item_name?.[0]?.value,
            createdDate: found.createdDate,
            lastUpdatedDate: found.lastUpdatedDate,
          },
        ],
      });
    }
    if (method === "DELETE") {
      if (!found)
        return sendJson(
          response,
          404,
          spError("NOT_FOUND", `SKU '${sku}' not found in marketplace ${marketplaceId}`),
        );
      seller.items.delete(sku);
      return sendJson(response, 200, submission(sku, "ACCEPTED", []));
    }
    if (!PRODUCT_TYPES[body.productType])
      return sendJson(
        response,
        200,
        submission(sku, "INVALID", [
          issue(
            "4000003",
            `The product type '${body.productType}' is not valid for marketplace ${marketplaceId}.`,
            "ERROR",
            [],
            "INVALID_ATTRIBUTE",
          ),
        ]),
      );
    if (method === "PUT") {
      const { attributes, requirements } = body as ListingsPut;
      const verdict = review(body.productType, attributes, requirements === "LISTING_PRODUCT_ONLY");
      // Amazon's validation preview: the same verdict (VALID rather than ACCEPTED), nothing stored.
      if (query.get("mode") === "VALIDATION_PREVIEW") {
        return sendJson(
          response,
          200,
          submission(sku, verdict.status === "ACCEPTED" ? "VALID" : "INVALID", verdict.issues),
        );
      }
      if (verdict.status === "ACCEPTED") {
        const item: Item = {
          sku,
          productType: body.productType,
          attributes,
          asin: found?.asin ?? asin(),
          version: (found?.version ?? 0) + 1,
          createdDate: found?.createdDate ?? now,
          lastUpdatedDate: now,
          marketplaceId,
          reported: found?.reported ?? { status: "", issues: "" },
          suppressed: false,
        };
        seller.items.set(sku, item);
        if (found) seller.counts.update += 1;
        else if (attributes.parentage_level?.[0]?.value !== "child") seller.counts.create += 1;
        sendJson(response, 200, submission(sku, verdict.status, verdict.issues));
        return notifyChanges(sellerId, item, verdict.issues.length > 0);
      }
      return sendJson(response, 200, submission(sku, verdict.status, verdict.issues));
    }
    if (method === "PATCH") {
      if (!found)
        return sendJson(
          response,
          200,
          submission(sku, "INVALID", [
            issue(
              "4000004",
              `SKU '${sku}' does not exist: put the listings item first.`,
              "ERROR",
              [],
              "INVALID_ATTRIBUTE",
            ),
          ]),
        );
      const attributes = structuredClone(found.attributes);
      const { patches } = body as ListingsPatch;
      for (const patch of patches) {
        const name = String(patch.path).replace(/^\/attributes\//, "");
        if (patch.op === "delete") delete attributes[name];
        else if (patch.op === "merge")
          attributes[name] = (attributes[name] ?? []).map((v, i) => ({
            ...v,
            ...(patch.value?.[i] ?? {}),
          }));
        else attributes[name] = patch.value;
      }
      const verdict = review(
        body.productType,
        attributes,
        attributes.parentage_level?.[0]?.value === "parent",
      );
      if (verdict.status === "ACCEPTED") {
        Object.assign(found, {
          attributes,
          productType: body.productType,
          version: found.version + 1,
          lastUpdatedDate: now,
          suppressed: false,
        });
        seller.counts.update += 1;
        sendJson(response, 200, submission(sku, verdict.status, verdict.issues));
        return notifyChanges(sellerId, found, verdict.issues.length > 0);
      }
      return sendJson(response, 200, submission(sku, verdict.status, verdict.issues));
    }
    sendJson(response, 405, spError("MethodNotAllowed", `${method} is not supported`));
  }

  function definition(url: URL, productType: string, response: ServerResponse) {
    const known = PRODUCT_TYPES[productType];
    if (!known)
      return sendJson(
        response,
        404,
        spError("NOT_FOUND", `Product type '${productType}' not found`),
      );
    sendJson(response, 200, {
      schema: {
        link: { resource: `${standin.url}/_schemas/${productType}.json`, verb: "GET" },
        checksum: "standin",
      },
      requirements: url.searchParams.get("requirements") ?? "LISTING",
      requirementsEnforced: url.searchParams.get("requirementsEnforced") ?? "ENFORCED",
      propertyGroups: {
        offer: {
          title: "Offer",
          propertyNames: ["purchasable_offer", "fulfillment_availability", "condition_type"],
        },
      },
      locale: url.searchParams.get("locale") ?? "DEFAULT",
      marketplaceIds: (url.searchParams.get("marketplaceIds") ?? "").split(","),
      productType,
      displayName: known.displayName,
      productTypeVersion: { version: "STANDIN.1", latest: true },
    });
  }

  async function api(request: IncomingMessage, response: ServerResponse, url: URL) {
    const sellerId = oauth.storeOf(String(request.headers["x-amz-access-token"] ?? ""));
    if (!sellerId || !sellers.has(sellerId))
      return sendJson(
        response,
        403,
        spError(
          "Unauthorized",
          "Access to requested resource is denied.",
          "The access token you provided has expired.",
        ),
      );
    const listing = LISTINGS.exec(url.pathname);
    const named = listing ? decodeURIComponent(listing[1]!) : url.searchParams.get("sellerId");
    if (named && named !== sellerId)
      return sendJson(
        response,
        403,
        spError(
          "Unauthorized",
          "Access to requested resource is denied.",
          "The token does not act for this selling partner.",
        ),
      );
    const seller = sellers.get(sellerId)!;
    seller.counts.requests += 1;
    countRoute(
      seller.counts,
      `${request.method ?? "GET"} ${listing ? "/listings/2021-08-01/items/{sellerId}/{sku}" : "/definitions/2020-09-01/productTypes/{productType}"}`,
    );
    const sku = listing ? decodeURIComponent(listing[2]!) : undefined;
    const played = await playCommonFault(
      rateGate.take(sellerId) ?? faults.take(sellerId),
      response,
    );
    if (played === "handled") return;
    if (played) return playFault(response, played, request.method === "GET" ? undefined : sku);
    const raw = (await readBody(request)).toString("utf8");
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return sendJson(response, 400, spError("InvalidInput", "The body is not JSON"));
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
    );
    const checked = {
      method: request.method ?? "GET",
      path: url.pathname,
      query: paramsOf(url.searchParams),
      headers,
      body: raw ? body : undefined,
    };
    const problems = contracts[listing ? 0 : 1]?.check(checked) ?? [];
    if (problems.length > 0) {
      violations.push({ request: `${request.method} ${url.pathname}`, problems });
      return sendJson(
        response,
        400,
        spError("InvalidInput", `Invalid request: ${problems.join("; ")}`),
      );
    }
    if (listing)
      return listings(
        sellerId,
        seller,
        request.method ?? "GET",
        sku!,
        url.searchParams,
        body as ListingsPut | ListingsPatch,
        response,
      );
    definition(url, decodeURIComponent(DEFINITION.exec(url.pathname)![1]!), response);
  }

  const server = await startLoopbackServer(
    withControl(
      () => standin,
      async (request, response, url) => {
        if (url.pathname === "/apps/authorize/consent" && request.method === "GET")
          return consent(url, response);
        if (url.pathname === "/auth/o2/token" && request.method === "POST")
          return token(request, response);
        const doc = SCHEMA_DOC.exec(url.pathname);
        if (doc && request.method === "GET" && PRODUCT_TYPES[doc[1]!])
          return sendJson(response, 200, PRODUCT_TYPES[doc[1]!]!.schema);
        if (LISTINGS.test(url.pathname) || DEFINITION.test(url.pathname))
          return api(request, response, url);
        sendJson(response, 404, spError("NotFound", "Resource not found"));
      },
    ),
    options,
  );

  const summary = (seller: Seller, item: Item): ListingSummary => {
    const children = [...seller.items.values()].filter(
      (c) => c.attributes.child_parent_sku_relationship?.[0]?.parent_sku === item.sku,
    );
    const priced = [item, ...children].find((i) => i.attributes.purchasable_offer);
    const price =
      priced?.attributes.purchasable_offer?.[0]?.our_price?.[0]?.schedule?.[0]?.value_with_tax;
    return {
      id: item.sku,
      sku: item.sku,
      title: textOf(item.attributes.item_name) ?? "",
      priceAmount: typeof price === "number" ? price.toFixed(2) : null,
      variantSkus: children.map((c) => c.sku),
      imageCount: Object.keys(item.attributes).filter(
        (k) => k.endsWith("image_locator") || /image_locator_\d$/.test(k),
      ).length,
      description: textOf(item.attributes.product_description) ?? null,
      version: item.version,
      quantity: quantityOf(priced?.attributes.fulfillment_availability?.[0]?.quantity),
      raw: { item, children },
    };
  };

  const standin: AmazonStandin = {
    channel: "amazon",
    url: server.url,
    env: {
      AMAZON_LWA_CLIENT_ID: clientId,
      AMAZON_LWA_CLIENT_SECRET: clientSecret,
      AMAZON_APP_ID: appId,
      AMAZON_SELLER_CENTRAL_URL: server.url,
      AMAZON_LWA_TOKEN_URL: `${server.url}/auth/o2/token`,
      AMAZON_SPAPI_URL: server.url,
      AMAZON_NOTIFICATIONS_SECRET: notificationsSecret,
    },
    storeIds: () => [...sellers.keys()],
    store: (id) => {
      const seller = sellerOf(id);
      const listed = [...seller.items.values()].filter(
        (i) => i.attributes.parentage_level?.[0]?.value !== "child",
      );
      return {
        listings: listed.map((i) => summary(seller, i)),
        counts: { ...seller.counts, routes: { ...seller.counts.routes } },
      };
    },
    setFault: (id, fault) => faults.set(id, fault),
    clearFaults: () => faults.clear(),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    denyNextAuthorization: () => oauth.denyNextAuthorization(),
    expireAccessTokens: (id) => oauth.expireAccessTokens(id),
    violations,
    suppress(sellerId, sku) {
      const item = sellers.get(sellerId)?.items.get(sku);
      if (!item) throw new Error(`the stand-in has no SKU ${sku} for seller ${sellerId}`);
      item.suppressed = true;
      notifyChanges(sellerId, item, false);
    },
    notifications: notifier,
    close: async () => {
      await server.close();
      await notifier.settled();
    },
  };
  return standin;
}

/**
 * The stand-ins list's entry: how to start it, and how the end-to-end suite connects a store on it.
 */
export const amazonStandin: ChannelStandinEntry = {
  channel: "amazon",
  start: startAmazonStandin,
  testCase: {
    variants: true,
    expiringTokens: true,
    connectQuery: () => ({ marketplaceId: "ATVPDKIKX0DER" }),
    settings: { productType: "HOME" },
  },
  connectHint: () =>
    "marketplace id ATVPDKIKX0DER (amazon.com), then set Product type HOME in the destination's settings",
};
