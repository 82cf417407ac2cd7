/**
 * Header and key recognition. Names are compared after dropping case and everything that is not
 * a letter or digit, so "Variant SKU", "variant_sku", "Variant  sku" and "variantSku" all read
 * as "variantsku", and "Option1 Name" matches "Option 1 Name".
 */
export function normaliseName(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

export type GenericField =
  | "title"
  | "sku"
  | "price"
  | "salePrice"
  | "regularPrice"
  | "currency"
  | "brand"
  | "gtin"
  | "mpn"
  | "images"
  | "description"
  | "availability"
  | "quantity"
  | "sourceUrl"
  | "variants";

/** In order of preference: the first non-empty match wins (images take every match). */
export const GENERIC_ALIASES: Record<GenericField, readonly string[]> = {
  title: [
    "title",
    "name",
    "productname",
    "producttitle",
    "itemname",
    "itemtitle",
    "product",
    // Spreadsheets from European shops (often the windows-1252 ones) name columns in their
    // language.
    "produktname",
    "artikelname",
    "bezeichnung",
    "nomduproduit",
    "nom",
    "nombre",
    "productnaam",
    "naam",
    "nome",
  ],
  sku: [
    "sku",
    "variantsku",
    "productsku",
    "itemsku",
    "skucode",
    "articlenumber",
    "articleno",
    "itemnumber",
    "itemno",
    "productcode",
    "artikelnummer",
    "artnr",
    "référence",
    "reference",
    "referencia",
  ],
  price: [
    "price",
    "variantprice",
    "unitprice",
    "currentprice",
    "sellingprice",
    "retailprice",
    "priceamount",
    "offerprice",
    "offers",
    "preis",
    "prix",
    "precio",
    "prijs",
    "prezzo",
  ],
  salePrice: ["saleprice", "specialprice", "discountprice", "discountedprice"],
  regularPrice: ["regularprice", "listprice", "originalprice"],
  currency: [
    "currency",
    "currencycode",
    "pricecurrency",
    "variantcurrency",
    "währung",
    "waehrung",
    "devise",
    "moneda",
    "valuta",
  ],
  brand: [
    "brand",
    "brands",
    "vendor",
    "manufacturer",
    "brandname",
    "manufacturername",
    "make",
    "marke",
    "hersteller",
    "marque",
    "fabricant",
    "marca",
    "merk",
  ],
  gtin: [
    "gtin",
    "ean",
    "upc",
    "barcode",
    "gtin13",
    "gtin12",
    "gtin14",
    "gtin8",
    "ean13",
    "ean8",
    "upca",
    "isbn",
    "variantbarcode",
    "gtinupceanorisbn",
  ],
  mpn: [
    "mpn",
    "manufacturerpartnumber",
    "mfrpartnumber",
    "mfgpartnumber",
    "partnumber",
    "googleshoppingmpn",
  ],
  images: [
    "images",
    "image",
    "imageurl",
    "imageurls",
    "imagesrc",
    "imagelink",
    "imagelinks",
    "additionalimagelink",
    "additionalimages",
    "picture",
    "pictures",
    "photo",
    "photos",
    "mainimage",
    "mainimageurl",
    "thumbnail",
    "bild",
    "bildurl",
    "imagen",
    "afbeelding",
    "immagine",
  ],
  description: [
    "description",
    "bodyhtml",
    "body",
    "longdescription",
    "productdescription",
    "fulldescription",
    "descriptionhtml",
    "details",
    "shortdescription",
    "beschreibung",
    "descripción",
    "descripcion",
    "beschrijving",
    "descrizione",
  ],
  availability: ["availability", "stockstatus", "instock", "available"],
  // A count; a stock column holding words ("in stock") gives the availability instead.
  quantity: [
    "quantity",
    "stockquantity",
    "inventoryquantity",
    "availablequantity",
    "quantityavailable",
    "qty",
    "stock",
    "inventory",
    "variantinventoryqty",
    "stocklevel",
    "onhand",
    "bestand",
    "lagerbestand",
  ],
  sourceUrl: [
    "url",
    "sourceurl",
    "producturl",
    "link",
    "productlink",
    "permalink",
    "pageurl",
    "weburl",
  ],
  variants: ["variants"],
};

/** "Image 2", "image_url_3", "Picture 4": numbered image columns. */
const NUMBERED_IMAGE = /^(image|imageurl|imagelink|picture|photo)\d+$/;

/** Which generic field a normalised name stands for, and how strongly (lower is preferred). */
export function genericFieldOf(normalised: string): { field: GenericField; rank: number } | null {
  for (const field of Object.keys(GENERIC_ALIASES) as GenericField[]) {
    const rank = GENERIC_ALIASES[field].indexOf(normalised);
    if (rank >= 0) return { field, rank };
  }
  if (NUMBERED_IMAGE.test(normalised)) return { field: "images", rank: 100 };
  return null;
}

const keyCache = new Map<
  string,
  { normalised: string; match: ReturnType<typeof genericFieldOf> }
>();

/**
 * normaliseName + genericFieldOf for JSON keys, which repeat in every object of a file. Keys are
 * copied before they are kept, so the cache never pins the input text they were cut from.
 */
export function recogniseKey(key: string): {
  normalised: string;
  match: ReturnType<typeof genericFieldOf>;
} {
  let known = keyCache.get(key);
  if (!known) {
    const normalised = normaliseName(key);
    known = { normalised, match: genericFieldOf(normalised) };
    if (keyCache.size >= 2000) keyCache.clear();
    keyCache.set(Buffer.from(key, "utf8").toString("utf8"), known);
  }
  return known;
}

/** Column positions by normalised header; the first of two same-named columns wins. */
export function indexHeaders(headers: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = normaliseName(h);
    if (key && !index.has(key)) index.set(key, i);
  });
  return index;
}

export type TableLayout =
  | "shopify"
  | "woocommerce"
  | "magento"
  | "prestashop"
  | "bigcommerce"
  | "bigcommerce-v3"
  | "generic";

/**
 * A platform's export, told by the columns only it has. The platform checks come before
 * WooCommerce's, whose Type/Name/Sale Price also appear in BigCommerce's modern template.
 */
export function detectLayout(index: ReadonlyMap<string, number>): TableLayout {
  const has = (name: string) => index.has(name);
  if (
    has("handle") &&
    (has("variantsku") || has("variantprice") || has("option1value") || has("imagesrc"))
  )
    return "shopify";
  if (
    has("sku") &&
    has("producttype") &&
    (has("attributesetcode") || has("storeviewcode") || has("configurablevariations"))
  )
    return "magento";
  if (
    has("pricetaxexcluded") ||
    has("pricetaxincluded") ||
    (has("attributenametypeposition") && has("valuevalueposition"))
  )
    return "prestashop";
  if (has("itemtype") && has("productname")) return "bigcommerce";
  if (has("item") && has("name") && (has("options") || has("inventorytracking")))
    return "bigcommerce-v3";
  if (
    has("type") &&
    (has("sku") || has("name")) &&
    (has("regularprice") || has("parent") || has("saleprice"))
  )
    return "woocommerce";
  return "generic";
}
