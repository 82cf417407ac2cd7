/**
 * eBay's published Sell Inventory file types `Product.aspects` as a string, but the API takes (and
 * documents in prose) an object of arrays: `{ "Brand": ["Acme"], "Color": ["Blue"] }`.
 */
export function ebayAspectsOverlay(document: Record<string, any>): void {
  const product = document.components?.schemas?.Product?.properties;
  if (!product?.aspects) throw new Error("eBay's contract has no Product.aspects to mend: the overlay is out of date");
  product.aspects = { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: product.aspects.description };
}
