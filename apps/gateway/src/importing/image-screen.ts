import type { ImportItem } from "@catalog/db";
import { createPublicUrlScreen, type UrlPolicy } from "@catalog/fetch/url-guard";

/** An image URL left out of an imported product, and why. */
export interface DroppedImage {
  url: string;
  reason: string;
}

/**
 * Leaves out of each item the image URLs the page URL policy refuses (non-http(s), private,
 * loopback, link-local or metadata addresses, literal or by DNS, unless local ingest is on):
 * the dashboard would render them in merchants' browsers and channels would download them.
 * Make one per import: each distinct host is resolved once for all its items.
 */
export function createImageScreen(policy: UrlPolicy) {
  const screen = createPublicUrlScreen(policy);
  /**
   * Removes the item's refused images (product images and variant images) and says which they were.
   */
  return async function screenImages(item: ImportItem): Promise<DroppedImage[]> {
    const { fields } = item;
    const urls = [
      ...new Set([
        ...(fields.images ?? []),
        ...(fields.variants ?? []).map((v) => v.image).filter((u): u is string => !!u),
      ]),
    ];
    if (urls.length === 0) return [];
    const verdicts = await Promise.all(
      urls.map(async (url) => [url, await screen.refusal(url)] as const),
    );
    const dropped = verdicts
      .filter((v): v is readonly [string, string] => v[1] !== null)
      .map(([url, reason]) => ({ url, reason }));
    if (dropped.length === 0) return [];
    const refused = new Set(dropped.map((d) => d.url));
    if (fields.images) fields.images = fields.images.filter((url) => !refused.has(url));
    if (fields.variants)
      fields.variants = fields.variants.map((v) =>
        v.image && refused.has(v.image) ? { ...v, image: null } : v,
      );
    return dropped;
  };
}

export type ImageScreen = ReturnType<typeof createImageScreen>;

/** An image URL an edit may not store: the body field that holds it, the URL and why. */
export interface RefusedImage extends DroppedImage {
  field: string;
}

/**
 * The image URLs of an edit (product images, variant images) that the same policy refuses, each
 * with the body field that holds it ("images[1]", "variants[0].image"). An edit is refused
 * rather than trimmed: the user sees what they typed and why it cannot be kept.
 */
export async function refusedImages(
  policy: UrlPolicy,
  fields: { images?: string[]; variants?: { image: string | null }[] },
): Promise<RefusedImage[]> {
  const screen = createPublicUrlScreen(policy);
  const named = [
    ...(fields.images ?? []).map((url, i) => ({ field: `images[${i}]`, url })),
    ...(fields.variants ?? []).flatMap((v, i) =>
      v.image ? [{ field: `variants[${i}].image`, url: v.image }] : [],
    ),
  ];
  const verdicts = await Promise.all(
    named.map(async (image) => ({ ...image, reason: await screen.refusal(image.url) })),
  );
  return verdicts.filter((v): v is RefusedImage => v.reason !== null);
}
