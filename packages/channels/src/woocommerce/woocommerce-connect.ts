// WooCommerce's key-provisioning flow: the merchant names their store, approves on the store's
// /wc-auth page, and the store's server POSTs a consumer key and secret to our callback (the
// state travels as `user_id`). The keys are checked against the store before they are kept.
import type { ChannelContext } from "../channel-definition.js";
import type { WoocommerceApp } from "./woocommerce-env.js";
import {
  BlockedUrlError,
  checkPublicUrl,
  InvalidUrlError,
  requestPublic,
} from "@catalog/fetch/public";
import { ConnectError, type ConnectedAccount, type ConnectFlow } from "../connect.js";

/**
 * The store's address without query, fragment or trailing slash; https unless private stores are
 * allowed (development).
 */
async function storeAddress(raw: string, allowPrivate: boolean, field: string): Promise<string> {
  let url: URL;
  try {
    url = (await checkPublicUrl(raw, { allowPrivate })).url;
  } catch (error) {
    if (error instanceof InvalidUrlError || error instanceof BlockedUrlError) {
      throw new ConnectError(
        422,
        `${field} must be the store's public https address: ${error.message}`,
      );
    }
    throw new ConnectError(422, `${field} could not be checked: ${(error as Error).message}`);
  }
  if (url.protocol !== "https:" && !allowPrivate)
    throw new ConnectError(
      422,
      `${field} must be https: WooCommerce sends its keys only over https`,
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

type WooKeys = { consumerKey: string; consumerSecret: string; keyId: string | null };

/**
 * The keys are tried on the store (one product read) before they are kept, over a connection
 * pinned to the address checked just before; `whose` names them in errors.
 */
async function checkedAccount(
  storeUrl: string,
  allowPrivate: boolean,
  keys: WooKeys,
  whose: string,
  signal: AbortSignal,
): Promise<ConnectedAccount> {
  const auth = Buffer.from(`${keys.consumerKey}:${keys.consumerSecret}`).toString("base64");
  let status: number;
  try {
    const answer = await requestPublic({
      method: "GET",
      url: `${storeUrl}/wp-json/wc/v3/products?per_page=1`,
      headers: { authorization: `Basic ${auth}`, accept: "application/json" },
      policy: { allowPrivate },
      signal,
    });
    status = answer.status;
  } catch (error) {
    throw new ConnectError(
      502,
      `the store at ${storeUrl} could not be reached to check its keys: ${(error as Error).message}`,
    );
  }
  if (status === 401 || status === 403)
    throw new ConnectError(401, `the store at ${storeUrl} refused the keys ${whose} (${status})`);
  if (status < 200 || status >= 300)
    throw new ConnectError(
      502,
      `the store at ${storeUrl} answered ${status} when its keys were checked`,
    );
  const { host, pathname } = new URL(storeUrl);
  return {
    name: `${host}${pathname === "/" ? "" : pathname}`,
    externalId: storeUrl,
    baseUrl: storeUrl,
    credentials: keys,
    settings: {},
  };
}

/** A store added from REST API keys the operator already made in the store's admin. */
export async function woocommerceAccountFromKeys(
  config: ChannelContext<WoocommerceApp>,
  input: { storeUrl: string; consumerKey: string; consumerSecret: string },
  signal: AbortSignal,
): Promise<ConnectedAccount> {
  const storeUrl = await storeAddress(input.storeUrl, config.allowPrivateStoreUrls, "storeUrl");
  if (!input.consumerKey.trim() || !input.consumerSecret.trim())
    throw new ConnectError(422, "the consumer key and secret are both needed");
  return checkedAccount(
    storeUrl,
    config.allowPrivateStoreUrls,
    {
      consumerKey: input.consumerKey.trim(),
      consumerSecret: input.consumerSecret.trim(),
      keyId: null,
    },
    "given",
    signal,
  );
}

export function woocommerceConnect(config: ChannelContext<WoocommerceApp>): ConnectFlow {
  return {
    channel: "woocommerce",
    deliveredStateParam: "user_id",
    missingConfiguration: () => [],
    async start({ state, redirectUri, query }) {
      if (!query.storeUrl)
        throw new ConnectError(
          422,
          "querystring/storeUrl is required: the store's address, e.g. https://shop.example",
        );
      const storeUrl = await storeAddress(
        query.storeUrl,
        config.allowPrivateStoreUrls,
        "querystring/storeUrl",
      );
      const url = new URL(`${storeUrl}/wc-auth/v1/authorize`);
      url.search = new URLSearchParams({
        app_name: config.app.appName,
        scope: "read_write",
        user_id: state,
        return_url: redirectUri,
        callback_url: redirectUri,
      }).toString();
      return { url: url.toString(), pending: { storeUrl } };
    },
    async finish({ params, pending, signal }) {
      const storeUrl = pending.storeUrl!;
      if (!params.consumer_key || !params.consumer_secret)
        throw new ConnectError(400, "the store delivered no consumer_key and consumer_secret");
      if (params.key_permissions && !/write/.test(params.key_permissions))
        throw new ConnectError(
          403,
          `the store granted ${params.key_permissions} keys; publishing needs read_write`,
        );
      return checkedAccount(
        storeUrl,
        config.allowPrivateStoreUrls,
        {
          consumerKey: params.consumer_key,
          consumerSecret: params.consumer_secret,
          keyId: params.key_id ?? null,
        },
        "it delivered",
        signal,
      );
    },
  };
}
