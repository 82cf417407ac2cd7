// Publishes to an Etsy shop through Open API v3: a draft listing (form-encoded) whose id is saved
// at once, since Etsy has neither idempotency keys nor a lookup by SKU; then its inventory (SKUs,
// prices, variations) and its images. A stored listing id is updated instead.
import { Type, type TSchema } from "typebox";
import type { ChannelContext } from "../channel-definition.js";
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { channelCaller, throwIfFailed, type Answer, type ChannelRequest } from "../channel-http.js";
import { headerValue } from "../classify.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { ChannelWaitError } from "../errors.js";
import { inventory, listingFields } from "./etsy-bodies.js";
import { syncImages } from "./etsy-images.js";
import { etsySettings } from "./etsy-settings.js";
import type { EtsyApp } from "./etsy-env.js";
import { requestEtsyToken } from "./etsy-token.js";

const CHANNEL = "etsy";

// The parts of Etsy's answers we read; the rest (and any field Etsy adds) passes unread.
const CreatedListing = Type.Object({ listing_id: Type.Integer() });
/** Nothing of it is read, but it must be JSON, as Etsy's answers are. */
const InventoryAnswer = Type.Object({});

/**
 * Etsy's `x-api-key`: the keystring, or keystring:shared-secret where the app has one configured.
 */
export const etsyApiKey = (app: EtsyApp) =>
  app.clientSecret ? `${app.clientId}:${app.clientSecret}` : app.clientId;

const msUntilUtcMidnight = (now = new Date()) =>
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime();

/**
 * classify.ts's rules, plus Etsy's daily quota: a 429 with no Retry-After and none left today waits
 * until midnight UTC.
 */
function throwIfEtsyFailed(answer: Answer): void {
  if (
    answer.status === 429 &&
    !headerValue(answer.headers, "retry-after") &&
    headerValue(answer.headers, "x-remaining-today") === "0"
  ) {
    throw new ChannelWaitError("etsy answered 429: the daily request quota is used up", {
      channel: CHANNEL,
      status: 429,
      retryAfterMs: msUntilUtcMidnight(),
    });
  }
  throwIfFailed(CHANNEL, answer);
}

type EtsyRequest = Omit<ChannelRequest, "url"> & { path: string };

/** Requests to the shop's Open API v3 with the seller's token and the app's key. */
function etsySender(
  context: ChannelContext<EtsyApp>,
  destination: DestinationTarget,
  signal: AbortSignal,
  timeoutMs: number,
): (request: EtsyRequest) => Promise<Answer> {
  const api = `${requiredBaseUrl(CHANNEL, destination)}/v3/application`;
  const token = requiredString(CHANNEL, destination, "accessToken");
  const call = channelCaller(CHANNEL, signal, timeoutMs);
  return ({ path, ...request }) =>
    call({
      ...request,
      url: `${api}${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        "x-api-key": etsyApiKey(context.app),
        ...request.headers,
      },
    });
}

/** The inventory PUT: every SKU's price and quantity (the cheap route, and a publish's step). */
const inventoryRequest = (listingId: string, stock: Record<string, unknown>): EtsyRequest => ({
  method: "PUT",
  path: `/listings/${listingId}/inventory`,
  body: JSON.stringify(stock),
  headers: { "content-type": "application/json" },
});

async function publish(
  context: ChannelContext<EtsyApp>,
  input: PublishInput,
  timeoutMs: number,
): Promise<PublishOutcome> {
  const { product, destination } = input;
  const settings = etsySettings(destination.settings);
  // Gives up on what etsyProductProblems finds before any call.
  const stock = inventory(product, settings);
  const send = etsySender(context, destination, input.signal, timeoutMs);
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const checked = async <T extends TSchema>(
    request: Omit<ChannelRequest, "url"> & { path: string },
    schema: T,
    what: string,
  ) => {
    const answer = await send(request);
    throwIfEtsyFailed(answer);
    return okAnswer(CHANNEL, answer, schema, what);
  };

  let listingId = input.remoteId;
  if (listingId) {
    const answer = await send({
      method: "PATCH",
      path: `/shops/${settings.shopId}/listings/${listingId}`,
      body: listingFields(product, settings, false),
      headers: form,
    });
    // Deleted on Etsy since we stored its id: create it anew.
    if (answer.status === 404) listingId = null;
    else throwIfEtsyFailed(answer);
  }
  if (!listingId) {
    const created = await checked(
      {
        method: "POST",
        path: `/shops/${settings.shopId}/listings`,
        body: listingFields(product, settings, true),
        headers: form,
      },
      CreatedListing,
      "created listing",
    );
    listingId = String(created.listing_id);
    await input.saveRemoteId(listingId, `https://www.etsy.com/listing/${listingId}`);
  }
  await checked(inventoryRequest(listingId, stock), InventoryAnswer, "inventory");
  await syncImages(
    async (request) => {
      const answer = await send(request);
      throwIfEtsyFailed(answer);
      return answer;
    },
    settings.shopId,
    listingId,
    product,
    context.allowPrivateStoreUrls,
    input.signal,
  );
  return { remoteId: listingId, remoteUrl: `https://www.etsy.com/listing/${listingId}` };
}

export function createEtsyAdapter(context: ChannelContext<EtsyApp>): ChannelAdapter {
  const { timeoutMs } = context;
  return {
    channel: CHANNEL,
    publish: (input) => publish(context, input, timeoutMs),
    /** The cheap route: the inventory PUT alone (prices and quantities of every offering). */
    async updateOffer(input: OfferUpdateInput) {
      const stock = inventory(input.product, etsySettings(input.destination.settings));
      const send = etsySender(context, input.destination, input.signal, timeoutMs);
      const answer = await send(inventoryRequest(input.remoteId, stock));
      throwIfEtsyFailed(answer);
      okAnswer(CHANNEL, answer, InventoryAnswer, "inventory");
    },
    /** deleteListing; a listing Etsy no longer has is ended already. */
    async endListing(input: EndListingInput) {
      const send = etsySender(context, input.destination, input.signal, timeoutMs);
      const answer = await send({
        method: "DELETE",
        path: `/listings/${encodeURIComponent(input.remoteId)}`,
      });
      if (answer.status === 404) return;
      throwIfEtsyFailed(answer);
    },
    async refreshCredentials(destination: DestinationTarget, signal: AbortSignal) {
      const refreshToken = requiredString(CHANNEL, destination, "refreshToken");
      const tokens = await requestEtsyToken(
        requiredBaseUrl(CHANNEL, destination),
        {
          grant_type: "refresh_token",
          client_id: context.app.clientId,
          refresh_token: refreshToken,
        },
        signal,
        timeoutMs,
      );
      // Etsy rotates refresh tokens: the new one replaces the old, which stops working.
      return { ...destination.credentials, ...tokens };
    },
  };
}
