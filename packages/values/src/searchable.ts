/**
 * The most a product's title and SKU may take together, in UTF-8 bytes, as written and lowercased.
 * The catalog list's index keeps them lowercased in its entries (`search_text`: searches walk it
 * without reading the table), and PostgreSQL refuses an index entry over 2,704 bytes. Within the
 * fields' own limits (a title of 500 characters, a SKU of 255) only text made mostly of 4-byte
 * characters comes near it, or of the few letters whose lowercase takes a byte more ("Ⱥ", "ⱥ").
 */
export const MAX_TITLE_AND_SKU_BYTES = 2_400;

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Why a product with this title and SKU cannot be stored, or null when it can. */
export function titleAndSkuTooLong(title: string, sku: string | null | undefined): string | null {
  const bytes = utf8Bytes(title) + (sku ? utf8Bytes(sku) : 0);
  if (bytes > MAX_TITLE_AND_SKU_BYTES)
    return `title and SKU together take ${bytes} bytes in UTF-8, more than the ${MAX_TITLE_AND_SKU_BYTES} a product may have`;
  // Lowercasing grows a text by half at most (2-byte letters with a 3-byte lowercase).
  if (bytes * 1.5 <= MAX_TITLE_AND_SKU_BYTES) return null;
  const lowered = utf8Bytes(title.toLowerCase()) + (sku ? utf8Bytes(sku.toLowerCase()) : 0);
  return lowered > MAX_TITLE_AND_SKU_BYTES
    ? `title and SKU together take ${lowered} bytes in UTF-8 once lowercased (as searches keep them), more than the ${MAX_TITLE_AND_SKU_BYTES} a product may have`
    : null;
}
