// The product type definitions the Amazon stand-in serves: two small JSON Schemas written for the
// stand-in (real ones are only available online, per seller), in the shape Amazon gives them:
// attributes as arrays of objects carrying marketplace_id (and language_tag for text), `required`
// naming what a listing must have, conditionals (`allOf: [{ if, then: { required } }]`) what some
// listings must have too, under Amazon's meta-schema. DRINKING_CUP asks for a `material` no catalog
// product gives, so publishing under it shows a definition check naming the missing attribute;
// HOME asks a child of a COLOR variation theme for its `color`, as Amazon asks children for their
// theme's attributes (a variant without a Color option in a family that has one breaks it).
/** A JSON Schema, as far as these definitions write one and the checks below read it. */
export interface Schema {
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  contains?: Schema;
  allOf?: { if: Schema; then: Schema }[];
  const?: unknown;
  enum?: unknown[];
  [keyword: string]: unknown;
}

/** One value of a listing attribute: Amazon's attributes are arrays of such objects. */
export interface AttributeValue {
  value?: unknown;
  marketplace_id?: string;
  /** child_parent_sku_relationship's. */
  parent_sku?: string;
  /** purchasable_offer's. */
  our_price?: { schedule?: { value_with_tax?: unknown }[] }[];
  [field: string]: unknown;
}

/** A listing's attributes, by name. */
export type Attributes = Record<string, AttributeValue[] | undefined>;

const text = (title: string, maxLength = 2000): Schema => ({
  title,
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    required: ["value"],
    properties: {
      value: { type: "string", minLength: 1, maxLength },
      language_tag: { type: "string" },
      marketplace_id: { type: "string" },
    },
  },
});
const plain = (title: string, value: Schema = { type: "string" }): Schema => ({
  title,
  type: "array",
  items: {
    type: "object",
    required: ["value"],
    properties: { value, marketplace_id: { type: "string" } },
  },
});
const image = (title: string): Schema => ({
  title,
  type: "array",
  items: {
    type: "object",
    required: ["media_location"],
    properties: { media_location: { type: "string" }, marketplace_id: { type: "string" } },
  },
});

function schema(
  productType: string,
  extra: Record<string, Schema>,
  required: string[],
  conditions: { if: Schema; then: Schema }[] = [],
): Schema {
  const properties: Record<string, Schema> = {
    item_name: text("Item Name", 200),
    brand: text("Brand Name", 100),
    product_description: text("Product Description"),
    part_number: plain("Part Number"),
    condition_type: plain("Condition", {
      type: "string",
      enum: [
        "new_new",
        "new_open_box",
        "new_oem",
        "refurbished_refurbished",
        "used_like_new",
        "used_very_good",
        "used_good",
        "used_acceptable",
        "collectible_like_new",
        "collectible_very_good",
        "collectible_good",
        "collectible_acceptable",
        "club_club",
      ],
    }),
    externally_assigned_product_identifier: {
      title: "External Product ID",
      type: "array",
      items: {
        type: "object",
        required: ["type", "value"],
        properties: {
          type: { enum: ["ean", "upc", "gtin", "isbn"] },
          value: { type: "string" },
          marketplace_id: { type: "string" },
        },
      },
    },
    supplier_declared_has_product_identifier_exemption: plain("Product Identifier Exemption", {
      type: "boolean",
    }),
    main_product_image_locator: image("Main Image Location"),
    ...Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [
        `other_product_image_locator_${i + 1}`,
        image(`Other Image Location ${i + 1}`),
      ]),
    ),
    purchasable_offer: {
      title: "Purchasable Offer",
      type: "array",
      items: {
        type: "object",
        required: ["currency", "our_price"],
        properties: {
          currency: { type: "string" },
          marketplace_id: { type: "string" },
          // The schema allows 0; Amazon refuses it on submission (invalidAttributes), as the
          // stand-in's INVALID answers show.
          our_price: {
            type: "array",
            items: {
              type: "object",
              properties: {
                schedule: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["value_with_tax"],
                    properties: { value_with_tax: { type: "number", minimum: 0 } },
                  },
                },
              },
            },
          },
        },
      },
    },
    fulfillment_availability: {
      title: "Fulfillment Availability",
      type: "array",
      items: {
        type: "object",
        required: ["fulfillment_channel_code"],
        properties: {
          fulfillment_channel_code: { type: "string" },
          quantity: { type: "integer", minimum: 0 },
        },
      },
    },
    parentage_level: plain("Parentage Level", { type: "string", enum: ["parent", "child"] }),
    child_parent_sku_relationship: {
      title: "Child Parent SKU Relationship",
      type: "array",
      items: {
        type: "object",
        required: ["child_relationship_type"],
        properties: {
          child_relationship_type: { enum: ["variation", "package_hierarchy"] },
          parent_sku: { type: "string" },
          marketplace_id: { type: "string" },
        },
      },
    },
    variation_theme: {
      title: "Variation Theme",
      type: "array",
      items: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", enum: ["COLOR", "SIZE", "SIZE/COLOR", "COLOR/SIZE"] },
        },
      },
    },
    color: text("Color", 100),
    size: text("Size", 100),
    ...extra,
  };
  return {
    $schema: "https://schemas.amazon.com/selling-partners/definitions/product-types/meta-schema/v1",
    $id: `https://schemas.amazon.com/selling-partners/definitions/product-types/schema/v1/${productType}`,
    title: `Amazon product type ${productType} (stand-in)`,
    type: "object",
    required,
    properties,
    ...(conditions.length > 0 ? { allOf: conditions } : {}),
  };
}

/**
 * An attribute of these values, for a conditional's `if`: `{ contains: ... }` as Amazon writes it.
 */
const holds = (field: string, values: string[]): Schema => ({
  contains: {
    required: [field],
    properties: { [field]: values.length === 1 ? { const: values[0] } : { enum: values } },
  },
});

/** A child whose variation theme has COLOR in it gives its color. */
const CHILD_COLOR = {
  if: {
    required: ["parentage_level", "variation_theme"],
    properties: {
      parentage_level: holds("value", ["child"]),
      variation_theme: holds("name", ["COLOR", "SIZE/COLOR", "COLOR/SIZE"]),
    },
  },
  then: { required: ["color"] },
};

const BASE_REQUIRED = [
  "item_name",
  "brand",
  "condition_type",
  "purchasable_offer",
  "fulfillment_availability",
];

export const PRODUCT_TYPES: Record<string, { displayName: string; schema: Schema }> = {
  HOME: { displayName: "Home", schema: schema("HOME", {}, BASE_REQUIRED, [CHILD_COLOR]) },
  DRINKING_CUP: {
    displayName: "Drinking Cup",
    schema: schema("DRINKING_CUP", { material: text("Material", 100) }, [
      ...BASE_REQUIRED,
      "material",
    ]),
  },
};

const given = (attributes: Attributes, name: string) => {
  const values = attributes[name];
  return Array.isArray(values) && values.length > 0;
};

/**
 * Whether the attributes meet a conditional's `if` (of the shape above: attributes given, and
 * holding the values named).
 */
function meets(condition: Schema, attributes: Attributes): boolean {
  if (!(condition.required ?? []).every((name) => given(attributes, name))) return false;
  return Object.entries(condition.properties ?? {}).every(
    ([name, rule]) =>
      !given(attributes, name) ||
      (attributes[name] ?? []).some((item) =>
        Object.entries(rule.contains?.properties ?? {}).every(([field, wanted]) =>
          "const" in wanted
            ? item?.[field] === wanted.const
            : (wanted.enum ?? []).includes(item?.[field]),
        ),
      ),
  );
}

/**
 * The attributes a listing of this product type lacks, its conditionals' included; a parent (or a
 * product-only submission) needs no offer.
 */
export function missingAttributes(
  productType: string,
  attributes: Attributes,
  productOnly: boolean,
): string[] {
  const schema = PRODUCT_TYPES[productType]?.schema;
  if (!schema) return [];
  const parent = attributes.parentage_level?.[0]?.value === "parent";
  const required = [
    ...(schema.required ?? []),
    ...(schema.allOf ?? [])
      .filter((c) => meets(c.if, attributes))
      .flatMap((c) => c.then.required ?? []),
  ];
  return [...new Set(required)]
    .filter((name) => !given(attributes, name))
    .filter(
      (name) =>
        !(
          (parent || productOnly) &&
          (name === "purchasable_offer" || name === "fulfillment_availability")
        ),
    );
}

/**
 * Attribute values Amazon would refuse: a name over 200 characters, a price that is not positive.
 */
export function invalidAttributes(attributes: Attributes): { name: string; message: string }[] {
  const problems: { name: string; message: string }[] = [];
  const name = attributes.item_name?.[0]?.value;
  if (typeof name === "string" && [...name].length > 200)
    problems.push({ name: "item_name", message: "The item name is longer than 200 characters." });
  for (const offer of attributes.purchasable_offer ?? []) {
    const price = offer?.our_price?.[0]?.schedule?.[0]?.value_with_tax;
    if (!(typeof price === "number" && price > 0))
      problems.push({
        name: "purchasable_offer",
        message: "The price must be a number greater than 0.",
      });
  }
  return problems;
}

/**
 * Attributes the product type does not know: Amazon accepts the listing with a warning per
 * attribute.
 */
export const unknownAttributes = (productType: string, attributes: Attributes): string[] =>
  Object.keys(attributes).filter(
    (name) => !(name in (PRODUCT_TYPES[productType]?.schema.properties ?? {})),
  );
