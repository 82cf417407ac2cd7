// The one list of channels. Adding one: its name in channel-names.ts (and the value in the
// Prisma `Channel` enum: a test checks the two agree), its folder with a definition, a line here.
import type { AnyChannelDefinition } from "./channel-definition.js";
import type { CHANNEL_NAMES } from "./channel-names.js";
import { amazonDefinition } from "./amazon/index.js";
import { ebayDefinition } from "./ebay/index.js";
import { etsyDefinition } from "./etsy/index.js";
import { shopifyDefinition } from "./shopify/index.js";
import { standinDefinition } from "./standin-definition.js";
import { woocommerceDefinition } from "./woocommerce/index.js";

/**
 * One definition for each name, at its place: a name without its definition, or a definition named
 * otherwise, does not compile.
 */
type DefinitionPerName<Names extends readonly string[]> = {
  readonly [I in keyof Names]: AnyChannelDefinition & { name: Names[I] };
};

/** Every channel's definition, in the order of CHANNEL_NAMES. */
export const CHANNEL_DEFINITIONS = [
  shopifyDefinition,
  ebayDefinition,
  etsyDefinition,
  woocommerceDefinition,
  amazonDefinition,
  standinDefinition,
] as const satisfies DefinitionPerName<typeof CHANNEL_NAMES>;
