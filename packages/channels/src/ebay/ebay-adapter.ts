// Publishes through eBay's Sell Inventory API, which is keyed by SKU (so a repeated publish is an
// update by nature): inventory item(s), an item group when the product has variations, an offer
// per SKU found by SKU or created, then publishing the offer (or the group). Tokens expire after
// two hours and are refreshed with the seller's refresh token.
import { Type } from "typebox";
import type { ChannelContext } from "../channel-definition.js";
import type { EbayApp } from "./ebay-env.js";
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishableProduct,
  PublishableVariant,
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { channelCaller, throwIfFailed, throwUnlessEnded, type Answer } from "../channel-http.js";
import { classifyChannelResponse } from "../classify.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { unitsOf } from "../quantity.js";
import { missingField, requiredBaseUrl, requiredString } from "../destination-fields.js";
import { throwFirst } from "../preflight.js";
import { inventoryItem, itemGroup, offer, priceQuantity } from "./ebay-bodies.js";
import { ebayProductProblems, hasVariations } from "./ebay-checks.js";
import { ebaySettingsOptions } from "./ebay-options.js";
import { ebaySettings } from "./ebay-settings.js";
import { requestEbayToken } from "./ebay-token.js";

const CHANNEL = "ebay";

// The parts of eBay's answers we read; the rest (and any field eBay adds) passes unread.
const OffersAnswer = Type.Object({
  offers: Type.Optional(
    Type.Array(
      Type.Object({ offerId: Type.String(), marketplaceId: Type.Optional(Type.String()) }),
    ),
  ),
});
const CreatedOffer = Type.Object({ offerId: Type.String() });
const PublishedAnswer = Type.Object({ listingId: Type.String() });
const BulkAnswer = Type.Object({
  responses: Type.Optional(
    Type.Array(
      Type.Object({
        statusCode: Type.Integer(),
        sku: Type.Optional(Type.String()),
        errors: Type.Optional(Type.Array(Type.Unknown())),
      }),
    ),
  ),
});
/** eBay's limit of SKUs per bulkUpdatePriceQuantity. */
const BULK_LIMIT = 25;
/** withdrawOfferByInventoryItemGroup's "No offer found": nothing of the group is listed. */
const NO_OFFER_FOUND = 25725;

interface EbaySession {
  settings: ReturnType<typeof ebaySettings>;
  send: (method: string, path: string, body?: unknown) => Promise<Answer>;
  /** The SKU's offer on the destination's marketplace, or null when eBay has none. */
  findOffer: (sku: string) => Promise<string | null>;
}

function ebaySession(
  destination: DestinationTarget,
  signal: AbortSignal,
  timeoutMs: number,
): EbaySession {
  const settings = ebaySettings(destination.settings);
  const api = `${requiredBaseUrl(CHANNEL, destination)}/sell/inventory/v1`;
  const token = requiredString(CHANNEL, destination, "accessToken");
  const call = channelCaller(CHANNEL, signal, timeoutMs);
  const send = (method: string, path: string, body?: unknown): Promise<Answer> =>
    call({
      method,
      url: `${api}${path}`,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        authorization: `Bearer ${token}`,
        "content-language": settings.contentLanguage,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
    });
  return {
    settings,
    send,
    async findOffer(sku) {
      const found = await send(
        "GET",
        `/offer?sku=${encodeURIComponent(sku)}&marketplace_id=${settings.marketplaceId}`,
      );
      const offers =
        found.status === 404
          ? []
          : (okAnswer(CHANNEL, found, OffersAnswer, "offer list").offers ?? []);
      return offers.find((o) => o.marketplaceId === settings.marketplaceId)?.offerId ?? null;
    },
  };
}

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const { settings, send, findOffer } = ebaySession(destination, input.signal, timeoutMs);
  throwFirst(ebayProductProblems(product));
  // Found by ebayProductProblems already; said again for TypeScript, which cannot see through it.
  if (!product.sku || !product.priceAmount)
    throw missingField(CHANNEL, product, product.sku ? "priceAmount" : "sku");
  const grouped = hasVariations(product);
  const put = async (path: string, body: unknown) =>
    throwIfFailed(CHANNEL, await send("PUT", path, body));

  /** The offer of this SKU on the marketplace, updated, or a new one. */
  const upsertOffer = async (sku: string, amount: string, quantity: number): Promise<string> => {
    const existing = await findOffer(sku);
    if (existing) {
      await put(
        `/offer/${encodeURIComponent(existing)}`,
        offer(product, settings, sku, amount, quantity, false),
      );
      return existing;
    }
    return okAnswer(
      CHANNEL,
      await send("POST", "/offer", offer(product, settings, sku, amount, quantity, true)),
      CreatedOffer,
      "created offer",
    ).offerId;
  };

  let published: Answer;
  if (!grouped) {
    await put(
      `/inventory_item/${encodeURIComponent(product.sku)}`,
      inventoryItem(product, settings),
    );
    const offerId = await upsertOffer(product.sku, product.priceAmount, unitsOf(product));
    published = await send("POST", `/offer/${encodeURIComponent(offerId)}/publish`);
  } else {
    for (const variant of product.variants)
      await put(
        `/inventory_item/${encodeURIComponent(variant.sku!)}`,
        inventoryItem(product, settings, variant),
      );
    await put(
      `/inventory_item_group/${encodeURIComponent(product.sku)}`,
      itemGroup(product, product.sku),
    );
    for (const variant of product.variants)
      await upsertOffer(
        variant.sku!,
        variant.priceAmount?.trim() || product.priceAmount,
        unitsOf(product, variant),
      );
    published = await send("POST", "/offer/publish_by_inventory_item_group", {
      inventoryItemGroupKey: product.sku,
      marketplaceId: settings.marketplaceId,
    });
  }
  const { listingId } = okAnswer(CHANNEL, published, PublishedAnswer, "published offer");
  return { remoteId: listingId, remoteUrl: `${settings.itemUrlBase}/itm/${listingId}` };
}

/** The SKUs a listing sells: the product's own, or its variants' when it has variations. */
const skusOf = (product: PublishableProduct): Array<[string, PublishableVariant | undefined]> =>
  hasVariations(product)
    ? product.variants.map((v) => [v.sku!, v])
    : product.sku
      ? [[product.sku, undefined]]
      : [];

/**
 * The cheap route: one bulkUpdatePriceQuantity per 25 SKUs, each with its stock and its offer's
 * price. eBay answers 200, or 207 with a status per SKU: the first SKU that failed throws the
 * error class its status and errors say.
 */
async function updateOffer(input: OfferUpdateInput, timeoutMs: number): Promise<void> {
  const { product } = input;
  if (!product.priceAmount) throw missingField(CHANNEL, product, "priceAmount");
  const { settings, send, findOffer } = ebaySession(input.destination, input.signal, timeoutMs);
  const requests: unknown[] = [];
  for (const [sku, variant] of skusOf(product)) {
    const offerId = await findOffer(sku);
    if (!offerId)
      throw new GiveUpChannelError(`ebay has no offer for SKU ${sku}: publish it again`, {
        channel: CHANNEL,
        kind: "validation",
        field: "sku",
      });
    requests.push(priceQuantity(product, settings, sku, offerId, variant));
  }
  for (let i = 0; i < requests.length; i += BULK_LIMIT) {
    const answer = await send("POST", "/bulk_update_price_quantity", {
      requests: requests.slice(i, i + BULK_LIMIT),
    });
    const { responses = [] } = okAnswer(CHANNEL, answer, BulkAnswer, "bulk update");
    const failed = responses.find((r) => r.statusCode < 200 || r.statusCode > 299);
    if (failed) {
      throw (
        classifyChannelResponse(
          CHANNEL,
          failed.statusCode,
          {},
          JSON.stringify({ errors: failed.errors ?? [] }),
        ) ??
        new RetryableChannelError(`ebay answered ${failed.statusCode} for SKU ${failed.sku}`, {
          channel: CHANNEL,
          status: failed.statusCode,
        })
      );
    }
  }
}

/**
 * Withdraws the listing: the item group's (withdrawOfferByInventoryItemGroup) or the single
 * SKU's offer (withdrawOffer). The offers stay, unpublished, so a later publish lists them again.
 * No offer (404, or eBay's "No offer found") means nothing is listed: ended.
 */
async function endListing(input: EndListingInput, timeoutMs: number): Promise<void> {
  const { product } = input;
  const { settings, send, findOffer } = ebaySession(input.destination, input.signal, timeoutMs);
  if (hasVariations(product) && product.sku) {
    const answer = await send("POST", "/offer/withdraw_by_inventory_item_group", {
      inventoryItemGroupKey: product.sku,
      marketplaceId: settings.marketplaceId,
    });
    if (answer.status === 400 && answer.text.includes(`${NO_OFFER_FOUND}`)) return;
    return throwUnlessEnded(CHANNEL, answer);
  }
  if (!product.sku) throw missingField(CHANNEL, product, "sku");
  const offerId = await findOffer(product.sku);
  if (!offerId) return;
  throwUnlessEnded(CHANNEL, await send("POST", `/offer/${encodeURIComponent(offerId)}/withdraw`));
}

export function createEbayAdapter({ app, timeoutMs }: ChannelContext<EbayApp>): ChannelAdapter {
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs),
    updateOffer: (input) => updateOffer(input, timeoutMs),
    endListing: (input) => endListing(input, timeoutMs),
    settingsOptions: (input) => ebaySettingsOptions(input, timeoutMs),
    async refreshCredentials(destination: DestinationTarget, signal: AbortSignal) {
      const refreshToken = requiredString(CHANNEL, destination, "refreshToken");
      const tokens = await requestEbayToken(
        app,
        requiredBaseUrl(CHANNEL, destination),
        { grant_type: "refresh_token", refresh_token: refreshToken, scope: app.scopes },
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
