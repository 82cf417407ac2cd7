import type { Found } from "./found.js";

/**
 * Words in an image's path or file name that mark it as the shop's furniture, not the product:
 * its logo, a favicon or icon, a sprite sheet, a placeholder or "no image" picture. Whole words
 * only ("silicone" holds "icon", "logos" is a folder of logos).
 */
const NOT_A_PICTURE =
  /(?<![\p{L}\p{N}])(logos?|favicon|icons?|sprites?|placeholder|no[-_]?(image|img|photo|picture|pic)s?|image[-_]?(not[-_]?)?(available|unavailable|missing)|coming[-_]?soon)(?![\p{L}])/iu;
/** An alt text naming a logo: "Northwind Outfitters logo", "Logo". */
const LOGO_ALT = /(?<![\p{L}])(logo|logotype|logotipo|favicon)(?![\p{L}])/iu;

/** The image's URL (path and file name) or alt text says it is not the product's picture. */
export function isNotProductPicture(url: string, alt = ""): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    path = url.split(/[?#]/)[0] ?? url;
  }
  return NOT_A_PICTURE.test(path) || LOGO_ALT.test(alt);
}

/**
 * Markup naming the shop's logo or a placeholder as the product's image says nothing about the
 * picture: such URLs are dropped, and with none left the field is the page's to tell (the
 * gallery image nearest the title).
 */
export function dropNonProductPictures(found: Found): void {
  const images = found.values.images;
  if (!images) return;
  const kept = images.filter((url) => !isNotProductPicture(url));
  if (kept.length === images.length) return;
  if (kept.length > 0) found.values.images = kept;
  else {
    delete found.values.images;
    delete found.methods.images;
  }
}
