// Etsy takes images only as uploaded files, so each image is downloaded (public addresses only,
// bounded in size) and uploaded; the source URL is kept as the image's alt text, so a later
// publish uploads only what is new and deletes what the product dropped.
import { BlockedUrlError, checkPublicUrl, InvalidUrlError } from "@catalog/fetch/url-guard";
import type { PublishableProduct } from "../adapter.js";
import { okJson, throwIfFailed, type Answer, type ChannelRequest } from "../channel-http.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { MAX_IMAGES } from "./etsy-bodies.js";

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

type Send = (request: Omit<ChannelRequest, "url"> & { path: string }) => Promise<Answer>;

async function download(url: string, allowPrivate: boolean, signal: AbortSignal): Promise<Blob> {
  try {
    await checkPublicUrl(url, { allowPrivate }, { signal });
  } catch (error) {
    if (error instanceof InvalidUrlError || error instanceof BlockedUrlError) {
      throw new GiveUpChannelError(`etsy: image ${url} cannot be fetched: ${error.message}`, { channel: "etsy", kind: "validation", field: "images" });
    }
    throw error;
  }
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: "error" });
  } catch (error) {
    throw new RetryableChannelError(`etsy: image ${url} could not be downloaded: ${(error as Error).message}`, { channel: "etsy", cause: error });
  }
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 400 && response.status < 500) throw new GiveUpChannelError(`etsy: image ${url} answered ${response.status}`, { channel: "etsy", kind: "validation", field: "images" });
  if (!response.ok) throw new RetryableChannelError(`etsy: image ${url} answered ${response.status}`, { channel: "etsy", status: response.status });
  if (!type.startsWith("image/")) throw new GiveUpChannelError(`etsy: ${url} is not an image (${type || "no content type"})`, { channel: "etsy", kind: "validation", field: "images" });
  if (Number(response.headers.get("content-length") ?? 0) > MAX_IMAGE_BYTES) throw new GiveUpChannelError(`etsy: image ${url} is over 10 MB`, { channel: "etsy", kind: "validation", field: "images" });
  const bytes = await response.arrayBuffer();
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new GiveUpChannelError(`etsy: image ${url} is over 10 MB`, { channel: "etsy", kind: "validation", field: "images" });
  return new Blob([bytes], { type });
}

export async function syncImages(send: Send, shopId: string, listingId: string, product: PublishableProduct, allowPrivate: boolean, signal: AbortSignal): Promise<void> {
  const wanted = product.images.slice(0, MAX_IMAGES);
  const listed = okJson("etsy", await send({ method: "GET", path: `/listings/${listingId}/images` }));
  const existing = (Array.isArray(listed.results) ? listed.results : []) as { listing_image_id: number; alt_text?: string | null }[];
  const present = new Set(existing.map((i) => i.alt_text));
  for (const [index, url] of wanted.entries()) {
    if (present.has(url)) continue;
    const form = new FormData();
    form.set("image", await download(url, allowPrivate, signal), `image-${index + 1}`);
    form.set("rank", String(index + 1));
    form.set("alt_text", url.slice(0, 500));
    throwIfFailed("etsy", await send({ method: "POST", path: `/shops/${shopId}/listings/${listingId}/images`, body: form }));
  }
  for (const image of existing.filter((i) => !wanted.includes(i.alt_text ?? ""))) {
    throwIfFailed("etsy", await send({ method: "DELETE", path: `/shops/${shopId}/listings/${listingId}/images/${image.listing_image_id}` }));
  }
}
