/**
 * eBay's published Sell Inventory file types `aspects` as a string, but the API takes (and
 * documents in prose) an object of arrays: `{ "Brand": ["Acme"], "Color": ["Blue"] }`. The same
 * defect sits on `Product.aspects` (inventory items) and `InventoryItemGroup.aspects`.
 */
/** The part of an OpenAPI 3 document the overlay reads. */
interface SchemasDocument {
  components?: {
    schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> } | undefined>;
  };
}

export function ebayAspectsOverlay(document: Record<string, unknown>): void {
  const { components } = document as SchemasDocument;
  for (const name of ["Product", "InventoryItemGroup"]) {
    const properties = components?.schemas?.[name]?.properties;
    if (properties?.aspects?.type !== "string")
      throw new Error(
        `eBay's contract has no string ${name}.aspects to mend: the overlay is out of date`,
      );
    properties.aspects = {
      type: "object",
      additionalProperties: { type: "array", items: { type: "string" } },
      description: properties.aspects.description,
    };
  }
}
