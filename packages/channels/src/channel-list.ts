// The one list of channels. Adding one: its folder with a definition, a line here, and the
// value in the Prisma `Channel` enum (a test checks the two agree).
import type { ChannelName } from "./adapter.js";
import { amazonDefinition } from "./amazon/index.js";
import { ebayDefinition } from "./ebay/index.js";
import { etsyDefinition } from "./etsy/index.js";
import { shopifyDefinition } from "./shopify/index.js";
import { standinDefinition } from "./standin-definition.js";
import { woocommerceDefinition } from "./woocommerce/index.js";

/** Every channel, in the order lists show them (the stand-in last). */
export const CHANNEL_DEFINITIONS = [shopifyDefinition, ebayDefinition, etsyDefinition, woocommerceDefinition, amazonDefinition, standinDefinition] as const;

export const CHANNEL_NAMES: readonly ChannelName[] = CHANNEL_DEFINITIONS.map((d) => d.name);

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === "string" && (CHANNEL_NAMES as readonly string[]).includes(value);
}
