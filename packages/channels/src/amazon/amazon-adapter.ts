// Publishes through Listings Items 2021-08-01, keyed by SKU: each SKU (the parent, then each child,
// or the single SKU) is put whole the first time (`putListingsItem`), and afterwards looked up and
// patched (`patchListingsItem`, replacing each attribute we build, the offer's price and quantity
// included). The attributes are checked against the product type's definition first. Access tokens
// live an hour and come from the seller's LWA refresh token.
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import type { ChannelContext } from "../channel-definition.js";
import { channelCaller, type Answer } from "../channel-http.js";
import { missingField, requiredBaseUrl, requiredString } from "../destination-fields.js";
import { throwFirst } from "../preflight.js";
import { checkSubmission, throwIfAmazonFailed } from "./amazon-answers.js";
import { amazonProductProblems, listingsItemUrl, putBody } from "./amazon-checks.js";
import {
  type AmazonListingItem,
  hasVariations,
  listingItems,
  OFFER_ATTRIBUTES,
} from "./amazon-attributes.js";
import type { AmazonApp } from "./amazon-env.js";
import { fitToProductType, productTypeSchema } from "./amazon-product-type.js";
import { amazonSettings } from "./amazon-settings.js";
import { requestLwaToken } from "./amazon-token.js";

const CHANNEL = "amazon";

type Send = (
  method: string,
  sku: string,
  query: Record<string, string>,
  body?: unknown,
) => Promise<Answer>;

/** Requests to the seller's listings items, with their access token. */
function amazonSession(destination: DestinationTarget, signal: AbortSignal, timeoutMs: number) {
  const settings = amazonSettings(destination.settings);
  const api = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "accessToken");
  const call = channelCaller(CHANNEL, signal, timeoutMs);
  const send: Send = (method, sku, query, body) =>
    call({
      method,
      url: listingsItemUrl(api, settings, sku, query),
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        "x-amz-access-token": token,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
    });
  return { settings, api, token, call, send };
}

/**
 * The cheap route: each SKU that carries the offer (the single SKU, or every child) patched with
 * only `purchasable_offer` and `fulfillment_availability` replaced.
 */
async function updateOffer(input: OfferUpdateInput, timeoutMs: number): Promise<void> {
  const { product } = input;
  throwFirst(amazonProductProblems(product));
  const { settings, send } = amazonSession(input.destination, input.signal, timeoutMs);
  for (const item of listingItems(product, settings)) {
    if (item.role === "parent") continue;
    const answer = await send(
      "PATCH",
      item.sku,
      { includedData: "issues" },
      {
        productType: settings.productType,
        patches: OFFER_ATTRIBUTES.map((name) => ({
          op: "replace",
          path: `/attributes/${name}`,
          value: item.attributes[name],
        })),
      },
    );
    checkSubmission(item.sku, answer);
  }
}

/**
 * deleteListingsItem for every SKU of the listing, the children before their parent. A SKU
 * Amazon does not have (404) is deleted already.
 */
async function endListing(input: EndListingInput, timeoutMs: number): Promise<void> {
  const { product } = input;
  const { send } = amazonSession(input.destination, input.signal, timeoutMs);
  const children = hasVariations(product)
    ? product.variants.map((v) => v.sku).filter((sku): sku is string => !!sku)
    : [];
  for (const sku of [...children, input.remoteId]) {
    const answer = await send("DELETE", sku, {});
    if (answer.status === 404) continue;
    checkSubmission(sku, answer);
  }
}

async function publish(
  input: PublishInput,
  app: AmazonApp,
  timeoutMs: number,
): Promise<PublishOutcome> {
  const { product, destination } = input;
  throwFirst(amazonProductProblems(product));
  // Found by amazonProductProblems already; said again for TypeScript, which cannot see through it.
  if (!product.sku) throw missingField(CHANNEL, product, "sku");

  const { settings, api, token, call, send } = amazonSession(destination, input.signal, timeoutMs);
  const schema = await productTypeSchema(call, api, token, settings);
  const items = fitToProductType(listingItems(product, settings), schema, settings.productType);

  // A first publish puts every SKU (a put creates or wholly replaces, so a repeat after a crash is
  // harmless); later ones look each SKU up and patch it, or put it if it is new (a variation
  // added).
  const upsert = async (item: AmazonListingItem) => {
    let known = false;
    if (input.remoteId) {
      const found = await send("GET", item.sku, { includedData: "summaries" });
      if (found.status !== 404) throwIfAmazonFailed(found);
      known = found.status !== 404;
    }
    const answer = !known
      ? await send("PUT", item.sku, { includedData: "issues" }, putBody(item, settings))
      : await send(
          "PATCH",
          item.sku,
          { includedData: "issues" },
          {
            productType: settings.productType,
            patches: Object.entries(item.attributes).map(([name, value]) => ({
              op: "replace",
              path: `/attributes/${name}`,
              value,
            })),
          },
        );
    return checkSubmission(item.sku, answer);
  };

  const sku = product.sku;
  const remoteUrl = `${app.sellerCentralUrl}/myinventory/inventory?searchField=all&searchTerm=${encodeURIComponent(sku)}`;
  const [first, ...rest] = items;
  await upsert(first!);
  // The parent (or single) SKU exists from here: a retry updates it instead of creating it again.
  await input.saveRemoteId(sku, remoteUrl);
  for (const item of rest) await upsert(item);
  return { remoteId: sku, remoteUrl };
}

export function createAmazonAdapter({ app, timeoutMs }: ChannelContext<AmazonApp>): ChannelAdapter {
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, app, timeoutMs),
    updateOffer: (input) => updateOffer(input, timeoutMs),
    endListing: (input) => endListing(input, timeoutMs),
    async refreshCredentials(destination: DestinationTarget, signal: AbortSignal) {
      const refreshToken = requiredString(CHANNEL, destination, "refreshToken");
      const tokens = await requestLwaToken(
        app,
        { grant_type: "refresh_token", refresh_token: refreshToken },
        signal,
        timeoutMs,
      );
      return {
        ...destination.credentials,
        ...tokens,
        refreshToken: tokens.refreshToken ?? refreshToken,
      };
    },
  };
}
