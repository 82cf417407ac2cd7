// Etsy takes images only as uploaded files, so each image is downloaded (public addresses only,
// bounded in size) and uploaded; the source URL is kept as the image's alt text, so a later
// publish uploads only what is new and deletes what the product dropped.
import { fetchPublicBytes, FetchFailedError } from "@catalog/fetch/public";
import { Type } from "typebox";
// undici's FormData: the body type of the request that sends it (channel-http.ts).
import { FormData } from "undici";
import type { PublishableProduct } from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { throwIfFailed, type Answer, type ChannelRequest } from "../channel-http.js";
import { classifyNetworkError } from "../classify.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { MAX_IMAGES } from "./etsy-bodies.js";

// Etsy's own limit on an uploaded image; its alt text holds at most 500 characters.
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_ALT_TEXT = 500;
const IMAGE_TIMEOUT_MS = 30_000;

/**
 * The listing's images, as far as we read them: the id to delete one, the alt text that names its
 * source.
 */
const ImagesAnswer = Type.Object({
  results: Type.Array(
    Type.Object({
      listing_image_id: Type.Integer(),
      alt_text: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
});

type Send = (request: Omit<ChannelRequest, "url"> & { path: string }) => Promise<Answer>;

/** What we store as an image's alt text, and so how we know it again. */
const altText = (url: string) => url.slice(0, MAX_ALT_TEXT);

/**
 * The image's bytes, over a connection pinned to a checked public address (redirects re-checked).
 * An address that is not public, not an image or too large gives up; a site that is down retries.
 */
async function download(url: string, allowPrivate: boolean, signal: AbortSignal): Promise<Blob> {
  try {
    const image = await fetchPublicBytes(url, {
      policy: { allowPrivate },
      accept: ["image/*"],
      expected: "an image",
      maxBytes: MAX_IMAGE_BYTES,
      timeoutMs: IMAGE_TIMEOUT_MS,
      signal,
    });
    // A copy over a plain ArrayBuffer: Blob takes no view of a possibly shared one.
    return new Blob([new Uint8Array(image.bytes)], { type: image.contentType });
  } catch (error) {
    if (signal.aborted) throw classifyNetworkError("etsy", error);
    const message = `etsy: image ${url} cannot be uploaded: ${(error as Error).message}`;
    if (error instanceof FetchFailedError && error.transient)
      throw new RetryableChannelError(message, { channel: "etsy", cause: error });
    throw new GiveUpChannelError(message, { channel: "etsy", kind: "validation", field: "images" });
  }
}

export async function syncImages(
  send: Send,
  shopId: string,
  listingId: string,
  product: PublishableProduct,
  allowPrivate: boolean,
  signal: AbortSignal,
): Promise<void> {
  const wanted = product.images.slice(0, MAX_IMAGES);
  const existing = okAnswer(
    "etsy",
    await send({ method: "GET", path: `/listings/${listingId}/images` }),
    ImagesAnswer,
    "image list",
  ).results;
  const present = new Set(existing.map((i) => i.alt_text));
  for (const [index, url] of wanted.entries()) {
    if (present.has(altText(url))) continue;
    const form = new FormData();
    form.set("image", await download(url, allowPrivate, signal), `image-${index + 1}`);
    form.set("rank", String(index + 1));
    form.set("alt_text", altText(url));
    throwIfFailed(
      "etsy",
      await send({
        method: "POST",
        path: `/shops/${shopId}/listings/${listingId}/images`,
        body: form,
      }),
    );
  }
  const kept = new Set(wanted.map(altText));
  for (const image of existing.filter((i) => !kept.has(i.alt_text ?? ""))) {
    throwIfFailed(
      "etsy",
      await send({
        method: "DELETE",
        path: `/shops/${shopId}/listings/${listingId}/images/${image.listing_image_id}`,
      }),
    );
  }
}
