import type { CheerioAPI, ElementNode } from "./dom.js";
import { pageIndex, tagged } from "./page-index.js";
import { wordSet } from "./text.js";
import { largestFromSrcset, resolveUrl } from "./urls.js";

const IMAGE_HINT =
  /(main|primary|hero|landing|zoom|large|product)[-_]?(image|img|photo|picture)|landingImage|imgBlkFront|main-image/i;
const GALLERY_HINT =
  /gallery|carousel|slider|swiper|slick|product[-_]?(images?|media|photos?|pictures?)|pdp[-_]?(image|media)|fotorama/i;
const NOT_THE_PRODUCT =
  /logo|icon|sprite|banner|avatar|flag|payment|badge|placeholder|spinner|loading|pixel|rating|stars?[-_.]/i;
/** A spacer: the transparent GIF a page shows until a script puts the picture in. */
const SPACER = /(^|\/)(s|spacer|blank|clear|trans(parent)?|1x1|empty|dot)\.(gif|png)(\?|$)/i;
const MAX_GALLERIES = 30;

/**
 * The image a shop shows as the product: one named like it, else one whose alt text names the
 * product, else the first of the gallery nearest the title, else the largest declared. Logos,
 * icons, badges and placeholders are never it.
 */
export function mainImage($: CheerioAPI, title: ElementNode | null, base: string): string | null {
  const images = tagged($, "img").filter(
    (el) => source(el) !== null && !NOT_THE_PRODUCT.test(describe(el)),
  );
  const named = images.find((el) =>
    IMAGE_HINT.test(`${el.attribs["id"] ?? ""} ${el.attribs["class"] ?? ""}`),
  );
  const words = wordSet(title ? $(title).text() : "", 3);
  const described = words.size === 0 ? null : firstDescribed(images, words);
  const chosen =
    named ?? described ?? galleryImage($, title, new Set(images)) ?? largestDeclared(images);
  return chosen ? resolveUrl(source(chosen), base) : null;
}

function source(el: ElementNode): string | null {
  const a = el.attribs;
  const url =
    a["data-old-hires"] ||
    a["data-zoom-image"] ||
    a["data-large_image"] ||
    a["data-zoom"] ||
    largestFromSrcset(a["srcset"] ?? a["data-srcset"]) ||
    a["data-src"] ||
    a["src"] ||
    null;
  return url && !url.startsWith("data:") && !SPACER.test(url) ? url : null;
}

function describe(el: ElementNode): string {
  const a = el.attribs;
  return `${a["src"] ?? ""} ${a["data-src"] ?? ""} ${a["class"] ?? ""} ${a["id"] ?? ""} ${a["alt"] ?? ""}`;
}

/** The first usable image of the gallery (a container named like one) closest to the title. */
function galleryImage(
  $: CheerioAPI,
  title: ElementNode | null,
  usable: Set<ElementNode>,
): ElementNode | null {
  const elements = pageIndex($).elements;
  const at = title ? elements.indexOf(title) : 0;
  let best: { distance: number; image: ElementNode } | null = null;
  let galleries = 0;
  for (let i = 0; i < elements.length && galleries < MAX_GALLERIES; i++) {
    const el = elements[i] as ElementNode;
    if (
      el.name === "img" ||
      !GALLERY_HINT.test(`${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`)
    )
      continue;
    galleries++;
    const image = $(el)
      .find("img")
      .toArray()
      .find((img) => usable.has(img));
    if (!image) continue;
    const distance = Math.abs(i - at);
    if (!best || distance < best.distance) best = { distance, image };
    // Nested containers (a gallery and its slides) name the same first image: skip past them.
    i += $(el).find("*").length;
  }
  return best?.image ?? null;
}

/**
 * The first image whose alt text names the product (shares at least half its words with the
 * title) and is not a thumbnail: declared or styled under 100 px wide, or served from a
 * "thumbs" path. Related products' thumbnails often carry alt texts much like this product's.
 */
function firstDescribed(images: ElementNode[], words: Set<string>): ElementNode | null {
  return (
    images.find(
      (el) => !isThumbnail(el) && sharesHalf(words, wordSet(el.attribs["alt"] ?? "", 3)),
    ) ?? null
  );
}

const THUMB_PATH = /(^|[/_-])thumbs?([/_.-]|$)|thumbnail/i;

function isThumbnail(el: ElementNode): boolean {
  const a = el.attribs;
  if (Number(a["width"] ?? Infinity) < 100) return true;
  const styled = /(?:^|;)\s*(?:max-)?width\s*:\s*(\d+)px/i.exec(a["style"] ?? "");
  if (styled && Number(styled[1]) < 100) return true;
  return THUMB_PATH.test(a["src"] ?? "");
}

/**
 * The alt text shares at least half of its words (or of the title's, when fewer) with the title.
 */
function sharesHalf(title: Set<string>, alt: Set<string>): boolean {
  let shared = 0;
  for (const word of alt) if (title.has(word)) shared++;
  return shared * 2 >= Math.min(title.size, Math.max(alt.size, 1)) && shared > 0;
}

function largestDeclared(images: ElementNode[]): ElementNode | null {
  let best: { el: ElementNode; area: number } | null = null;
  for (const el of images) {
    const area = Number(el.attribs["width"] ?? 0) * Number(el.attribs["height"] ?? 0);
    if (area >= 200 * 200 && (!best || area > best.area)) best = { el, area };
  }
  return best?.el ?? null;
}
