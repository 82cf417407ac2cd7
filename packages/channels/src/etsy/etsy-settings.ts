// What an Etsy listing needs besides the product: the shop (set when the merchant connects), the
// taxonomy node, and the processing profile (readiness state) every offering must name.
const WHO_MADE = ["i_did", "someone_else", "collective"];
const WHEN_MADE = ["made_to_order", "2020_2026", "2010_2019", "2007_2009", "before_2007", "2000_2006", "1990s", "1980s", "1970s", "1960s", "1950s", "1940s", "1930s", "1920s", "1910s", "1900s", "1800s", "1700s", "before_1700"];

export interface EtsySettings {
  shopId: string;
  taxonomyId: number;
  readinessStateId: number;
  whoMade: string;
  whenMade: string;
  shippingProfileId: number | null;
}

const integer = (value: unknown) => {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
};

export function checkEtsySettings(settings: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const required = (name: string, what: string) => {
    if (integer(settings[name])) return;
    const given = settings[name] !== undefined && settings[name] !== null && settings[name] !== "";
    problems.push(given ? `${name} must be a positive integer (${what}), not ${JSON.stringify(settings[name])}` : `${name} is required: ${what} (a positive integer)`);
  };
  required("shopId", "the shop's id, set when the shop is connected");
  required("taxonomyId", "the Etsy taxonomy node id of the listings");
  required("readinessStateId", "the id of the shop's processing profile");
  if (settings.whoMade !== undefined && !WHO_MADE.includes(String(settings.whoMade))) problems.push(`whoMade must be one of ${WHO_MADE.join(", ")}`);
  if (settings.whenMade !== undefined && !WHEN_MADE.includes(String(settings.whenMade))) problems.push(`whenMade must be one of Etsy's periods, e.g. made_to_order`);
  if (settings.shippingProfileId !== undefined && !integer(settings.shippingProfileId)) problems.push("shippingProfileId must be a positive integer");
  return problems;
}

/** The settings with defaults; call after checkEtsySettings found nothing. */
export function etsySettings(settings: Record<string, unknown>): EtsySettings {
  return {
    shopId: String(integer(settings.shopId)),
    taxonomyId: integer(settings.taxonomyId)!,
    readinessStateId: integer(settings.readinessStateId)!,
    whoMade: String(settings.whoMade ?? "i_did"),
    whenMade: String(settings.whenMade ?? "made_to_order"),
    shippingProfileId: integer(settings.shippingProfileId),
  };
}
