// What the eBay stand-in's sellers have in their accounts besides listings, answered as eBay's
// Account, Inventory (locations) and Taxonomy APIs do: business policies per marketplace (none
// on EBAY_DE, so a form's "none in your account" can be seen), inventory locations, and a
// small category tree searched by words. Every seller starts with the same ones; the ids match
// the stand-in's test case settings (pay-1, ret-1, ful-1, warehouse-1, category 20625).
import type { ServerResponse } from "node:http";
import { sendJson } from "../standins/kit/http.js";

type Json = Record<string, unknown>;
type EbayError = (errorId: number, message: string, category?: string) => Json;

interface SeededPolicy {
  id: string;
  name: string;
  description: string;
}

const POLICIES: Record<string, Record<"payment" | "return" | "fulfillment", SeededPolicy[]>> = {
  EBAY_US: {
    payment: [
      { id: "pay-1", name: "Immediate payment", description: "Card or PayPal, paid at once" },
      { id: "pay-2", name: "Invoice within 3 days", description: "For bulk buyers" },
    ],
    return: [
      { id: "ret-1", name: "30-day returns", description: "Buyer pays return postage" },
      { id: "ret-2", name: "No returns", description: "Sold as described" },
    ],
    fulfillment: [
      { id: "ful-1", name: "Standard shipping", description: "USPS Ground, 2 business days" },
      { id: "ful-2", name: "Free express", description: "UPS 2nd Day Air" },
    ],
  },
  EBAY_GB: {
    payment: [{ id: "pay-gb-1", name: "Managed payments (UK)", description: "Paid at once" }],
    return: [{ id: "ret-gb-1", name: "UK 14-day returns", description: "Free returns" }],
    fulfillment: [{ id: "ful-gb-1", name: "Royal Mail 2nd class", description: "3 days" }],
  },
};

const LOCATIONS = [
  {
    merchantLocationKey: "warehouse-1",
    name: "Main warehouse",
    merchantLocationStatus: "ENABLED",
    locationTypes: ["WAREHOUSE"],
    location: { address: { city: "Austin", stateOrProvince: "TX", country: "US" } },
  },
  {
    merchantLocationKey: "harbour-shop",
    name: "Harbour shop",
    merchantLocationStatus: "ENABLED",
    locationTypes: ["STORE"],
    location: { address: { city: "Bristol", country: "GB" } },
  },
];

/** Default category trees by marketplace, as eBay numbers them. */
const TREES: Record<string, string> = { EBAY_US: "0", EBAY_GB: "3", EBAY_DE: "77", EBAY_AU: "15" };

/** Leaf categories with their ancestors, root first. */
const CATEGORIES: Array<{ id: string; name: string; path: string[] }> = [
  { id: "20625", name: "Bowls", path: ["Home & Garden", "Kitchen, Dining & Bar", "Dinnerware"] },
  { id: "20667", name: "Mugs", path: ["Home & Garden", "Kitchen, Dining & Bar", "Dinnerware"] },
  { id: "36027", name: "Baskets", path: ["Home & Garden", "Home Décor"] },
  { id: "38227", name: "Candles", path: ["Home & Garden", "Home Décor", "Candles & Holders"] },
  {
    id: "15709",
    name: "Athletic Shoes",
    path: ["Clothing, Shoes & Accessories", "Men", "Men's Shoes"],
  },
  {
    id: "95672",
    name: "Athletic Shoes",
    path: ["Clothing, Shoes & Accessories", "Women", "Women's Shoes"],
  },
  {
    id: "53159",
    name: "Tops & Blouses",
    path: ["Clothing, Shoes & Accessories", "Women", "Women's Clothing"],
  },
  { id: "31388", name: "Digital Cameras", path: ["Cameras & Photo"] },
  { id: "261186", name: "Books", path: ["Books & Magazines"] },
];

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Categories whose name or path holds every word of `q`, leaves first by a name match. */
function suggest(q: string) {
  const wanted = words(q);
  return CATEGORIES.filter((c) => {
    const held = words([c.name, ...c.path].join(" "));
    return wanted.every((w) => held.some((h) => h.startsWith(w)));
  }).map((c) => ({
    category: { categoryId: c.id, categoryName: c.name },
    // eBay lists the ancestors from the parent up to the root.
    categoryTreeNodeAncestors: c.path
      .map((name, level) => ({ categoryName: name, categoryTreeNodeLevel: level + 1 }))
      .reverse(),
    categoryTreeNodeLevel: c.path.length + 1,
    relevancy: "HIGH",
  }));
}

/** GET /sell/account/v1/{payment,return,fulfillment}_policy?marketplace_id=... */
export function accountApi(
  path: string,
  query: URLSearchParams,
  response: ServerResponse,
  ebayError: EbayError,
) {
  const kind = /^\/(payment|return|fulfillment)_policy$/.exec(path)?.[1] as
    "payment" | "return" | "fulfillment" | undefined;
  const marketplace = query.get("marketplace_id") ?? "";
  if (!kind) return sendJson(response, 404, ebayError(2002, "Resource not found"));
  if (!marketplace)
    return sendJson(response, 400, ebayError(20401, "Missing field marketplaceId."));
  const policies = (POLICIES[marketplace]?.[kind] ?? []).map((p) => ({
    [`${kind}PolicyId`]: p.id,
    name: p.name,
    description: p.description,
    marketplaceId: marketplace,
    categoryTypes: [{ name: "ALL_EXCLUDING_MOTORS_VEHICLES", default: true }],
  }));
  sendJson(response, 200, {
    [`${kind}Policies`]: policies,
    total: policies.length,
    limit: 20,
    offset: 0,
  });
}

/** GET /sell/inventory/v1/location: the seller's inventory locations. */
export function locationList(query: URLSearchParams, response: ServerResponse) {
  const limit = Number(query.get("limit") ?? 20);
  const offset = Number(query.get("offset") ?? 0);
  const locations = LOCATIONS.slice(offset, offset + limit);
  sendJson(response, 200, { locations, total: LOCATIONS.length, limit, offset });
}

/** GET /commerce/taxonomy/v1/get_default_category_tree_id and .../get_category_suggestions. */
export function taxonomyApi(
  path: string,
  query: URLSearchParams,
  response: ServerResponse,
  ebayError: EbayError,
) {
  if (path === "/get_default_category_tree_id") {
    const tree = TREES[query.get("marketplace_id") ?? ""];
    if (!tree)
      return sendJson(
        response,
        400,
        ebayError(62004, "The specified marketplace ID was not found."),
      );
    return sendJson(response, 200, { categoryTreeId: tree, categoryTreeVersion: "130" });
  }
  const tree = /^\/category_tree\/([^/]+)\/get_category_suggestions$/.exec(path)?.[1];
  if (tree === undefined) return sendJson(response, 404, ebayError(2002, "Resource not found"));
  if (!Object.values(TREES).includes(decodeURIComponent(tree)))
    return sendJson(
      response,
      404,
      ebayError(62005, "The specified category tree ID was not found."),
    );
  const suggestions = suggest(query.get("q") ?? "");
  if (suggestions.length === 0) return sendJson(response, 204, undefined);
  sendJson(response, 200, {
    categorySuggestions: suggestions,
    categoryTreeId: decodeURIComponent(tree),
    categoryTreeVersion: "130",
  });
}
