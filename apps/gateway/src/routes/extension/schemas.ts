// The extension's routes' shapes. Schema modules import nothing but typebox and each other (the
// browser clients type-check against them through api-types.ts).
import { Type } from "typebox";
import { DroppedImagesSchema } from "../../schemas/import.js";
import { ProductPatchSchema, ProductSchema } from "../../schemas/product.js";

/** The service's limit on the page's HTML (characters). */
export const MAX_HTML_CHARS = 5 * 1024 * 1024;

export const ExtensionMeSchema = Type.Object(
  {
    org: Type.Object({ id: Type.String(), name: Type.String() }),
    key: Type.Object({
      id: Type.String(),
      name: Type.String(),
      prefix: Type.String({ description: "The 8 characters after csk_ that begin the key" }),
    }),
  },
  { description: "The org and key a pairing acts for" },
);

const { version: _version, ...productFields } = ProductPatchSchema.properties;
export const IngestBodySchema = Type.Object(
  {
    url: Type.String({ format: "uri", maxLength: 2048, description: "The page the user was on" }),
    html: Type.Optional(
      Type.String({
        maxLength: MAX_HTML_CHARS,
        description: "The page as the user's browser rendered it (after its scripts ran)",
      }),
    ),
    product: Type.Optional(
      Type.Object(productFields, {
        additionalProperties: false,
        description:
          "Fields the extension gives, or the user corrected: they win over what the service reads in `html`. A null leaves the " +
          "field empty on a new product; an import never empties a field of a product already in the catalog.",
      }),
    ),
    persist: Type.Optional(
      Type.Boolean({
        description:
          "true (the default): create or update the product. false: store nothing and answer what the page is and what saving " +
          "would do. Saving after a preview sends the same `html` again with only the fields the user edited in `product`: what is stored " +
          "is then exactly what the preview showed plus those edits, and the other fields keep where they were read from.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const IngestResultSchema = Type.Object({
  action: Type.Enum(["created", "updated"]),
  product: ProductSchema,
  droppedImages: Type.Optional(DroppedImagesSchema),
});
