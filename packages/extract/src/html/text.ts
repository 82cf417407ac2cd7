const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  laquo: "«",
  raquo: "»",
  times: "×",
  deg: "°",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ntilde: "ñ",
  ccedil: "ç",
  Eacute: "É",
  ocirc: "ô",
  oslash: "ø",
  aring: "å",
  Aring: "Å",
  aelig: "æ",
  frac12: "½",
  middot: "·",
  bull: "•",
  shy: "",
};

/**
 * Entities survive in JSON-LD and JSON blobs (shops escape names twice: "Tom &amp;amp; Jerry"),
 * where the HTML parser does not touch them. Decoding twice at most undoes the double escape
 * without turning a literal "&amp;" in a real name into "&".
 */
export function decodeEntities(text: string): string {
  let out = text;
  for (let pass = 0; pass < 2 && out.includes("&"); pass++) {
    out = out.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
      if (body[0] === "#") {
        const code =
          body[1] === "x" || body[1] === "X"
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : whole;
      }
      return NAMED[body] ?? whole;
    });
  }
  return out;
}

/** Entities decoded, tags dropped, whitespace collapsed; null when nothing is left. */
export function cleanText(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return null;
  const text = decodeEntities(value)
    .replace(/<[^>]{0,500}>/g, " ")
    .replace(/[\s\u00a0\u200b\u200e\u200f\ufeff]+/gu, " ")
    .trim();
  return text === "" || isPlaceholder(text) ? null : text;
}

/** Template text a page shipped unfilled: "$metabrand", "{{ product.vendor }}", "${brand}". */
export function isPlaceholder(text: string): boolean {
  return /^\$[A-Za-z_]\w*$|\{\{|\$\{|^%[A-Za-z_]+%$|^(null|undefined|none|n\/a)$/i.test(
    text.trim(),
  );
}

/** Like cleanText, for identifiers: also drops a label a shop left in the value ("SKU: 123"). */
export function cleanCode(value: unknown): string | null {
  const text = cleanText(value);
  if (!text) return null;
  const stripped = text
    .replace(
      /^(sku|mpn|gtin\d*|ean|upc|isbn|art\.?-?nr|item(\s*(no|number))?|model)\s*[:#.]\s*/i,
      "",
    )
    // "SKU MKI6IKW1N4": a label word without a colon, before a code with a digit ("Model 3" keeps
    // its word).
    .replace(
      /^(sku|mpn|gtin\d*|ean|upc|isbn|ref\.?|art\.?-?nr\.?|item\s*(no\.?|number|#))\s+(?=\S*\d\S*$)/i,
      "",
    )
    .trim();
  return stripped === "" || stripped.length > 80 ? null : stripped;
}

/**
 * Letters and digits only, lower case, accents dropped: "TP-Link", "TP Link" and "tp_link" are one
 * name.
 */
export function squash(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** The lower-case words of a text, `minLength` letters or more (a CJK run counts as one word). */
export function wordSet(text: string, minLength = 2): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= minLength),
  );
}
