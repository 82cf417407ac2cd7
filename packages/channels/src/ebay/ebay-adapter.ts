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
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { channelCaller, throwIfFailed, type Answer } from "../channel-http.js";
import { missingField, requiredBaseUrl, requiredString } from "../destination-fields.js";
import { throwFirst } from "../preflight.js";
import { inventoryItem, itemGroup, offer } from "./ebay-bodies.js";
import { ebayProductProblems, hasVariations } from "./ebay-checks.js";
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

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const settings = ebaySettings(destination.settings);
  throwFirst(ebayProductProblems(product));
  // Found by ebayProductProblems already; said again for TypeScript, which cannot see through it.
  if (!product.sku || !product.priceAmount)
    throw missingField(CHANNEL, product, product.sku ? "priceAmount" : "sku");
  const grouped = hasVariations(product);

  const api = `${requiredBaseUrl(CHANNEL, destination)}/sell/inventory/v1`;
  const token = requiredString(CHANNEL, destination, "accessToken");
  const call = channelCaller(CHANNEL, input.signal, timeoutMs);
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
  const put = async (path: string, body: unknown) =>
    throwIfFailed(CHANNEL, await send("PUT", path, body));

  /** The offer of this SKU on the marketplace, updated, or a new one. */
  const upsertOffer = async (sku: string, amount: string): Promise<string> => {
    const found = await send(
      "GET",
      `/offer?sku=${encodeURIComponent(sku)}&marketplace_id=${settings.marketplaceId}`,
    );
    const offers =
      found.status === 404
        ? []
        : (okAnswer(CHANNEL, found, OffersAnswer, "offer list").offers ?? []);
    const existing = offers.find((o) => o.marketplaceId === settings.marketplaceId);
    if (existing?.offerId) {
      await put(
        `/offer/${encodeURIComponent(existing.offerId)}`,
        offer(product, settings, sku, amount, false),
      );
      return existing.offerId;
    }
    return okAnswer(
      CHANNEL,
      await send("POST", "/offer", offer(product, settings, sku, amount, true)),
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
    const offerId = await upsertOffer(product.sku, product.priceAmount);
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
      await upsertOffer(variant.sku!, variant.priceAmount?.trim() || product.priceAmount);
    published = await send("POST", "/offer/publish_by_inventory_item_group", {
      inventoryItemGroupKey: product.sku,
      marketplaceId: settings.marketplaceId,
    });
  }
  const { listingId } = okAnswer(CHANNEL, published, PublishedAnswer, "published offer");
  return { remoteId: listingId, remoteUrl: `${settings.itemUrlBase}/itm/${listingId}` };
}

export function createEbayAdapter({ app, timeoutMs }: ChannelContext<EbayApp>): ChannelAdapter {
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs),
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
