// What an Etsy listing needs besides the product: the shop (set when the merchant connects), the
// taxonomy node, and the processing profile (readiness state) every offering must name.
import { Type, type Static } from "typebox";
import { assertSettingsComplete } from "../destination-fields.js";
import { checkSettings } from "../settings-check.js";

const WHO_MADE = ["i_did", "someone_else", "collective"] as const;
const WHEN_MADE = [
  "made_to_order",
  "2020_2026",
  "2010_2019",
  "2007_2009",
  "before_2007",
  "2000_2006",
  "1990s",
  "1980s",
  "1970s",
  "1960s",
  "1950s",
  "1940s",
  "1930s",
  "1920s",
  "1910s",
  "1900s",
  "1800s",
  "1700s",
  "before_1700",
] as const;

const Id = (title: string, description: string, placeholder?: string) =>
  Type.Integer({
    minimum: 1,
    title,
    description,
    ...(placeholder ? { examples: [placeholder] } : {}),
  });

// Numbers given as text ("1633") are read as numbers.
export const EtsySettingsSchema = Type.Object({
  shopId: Id("Shop id", "Your Etsy shop's numeric id: set when the shop is connected"),
  taxonomyId: Id(
    "Taxonomy id",
    "The Etsy category (taxonomy node) of the listings, a number",
    "1633",
  ),
  readinessStateId: Id(
    "Processing profile id",
    "The id of the shop's processing profile (how long orders take to ship)",
  ),
  whoMade: Type.Optional(
    Type.Union(
      WHO_MADE.map((v) => Type.Literal(v)),
      {
        title: "Who made it",
        description: "i_did, someone_else or collective (default i_did)",
        examples: ["i_did"],
      },
    ),
  ),
  whenMade: Type.Optional(
    Type.Union(
      WHEN_MADE.map((v) => Type.Literal(v)),
      {
        title: "When it was made",
        description: "One of Etsy's periods (default made_to_order)",
        examples: ["made_to_order"],
      },
    ),
  ),
  shippingProfileId: Type.Optional(
    Id("Shipping profile id", "The id of the shop's shipping profile, if the listings need one"),
  ),
});

export interface EtsySettings {
  shopId: string;
  taxonomyId: number;
  readinessStateId: number;
  whoMade: string;
  whenMade: string;
  shippingProfileId: number | null;
}

/** The settings with defaults; gives up naming every setting to fix before any call. */
export function etsySettings(raw: Record<string, unknown>): EtsySettings {
  const { value, problems } = checkSettings(EtsySettingsSchema, raw);
  assertSettingsComplete("etsy", problems);
  const s = value as Static<typeof EtsySettingsSchema>;
  return {
    shopId: String(s.shopId),
    taxonomyId: s.taxonomyId,
    readinessStateId: s.readinessStateId,
    whoMade: s.whoMade ?? "i_did",
    whenMade: s.whenMade ?? "made_to_order",
    shippingProfileId: s.shippingProfileId ?? null,
  };
}
