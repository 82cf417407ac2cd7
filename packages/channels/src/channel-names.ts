// The names of the channels, and nothing else: a leaf every other module may import (it imports
// nothing), so naming a channel never pulls in a channel's code. The Prisma `Channel` enum holds
// the same values and channel-list.ts one definition per name, in this order (both checked:
// test/prisma-enum.test.ts, and the list's type).

/** Every channel, in the order lists show them (the stand-in last). */
export const CHANNEL_NAMES = [
  "shopify",
  "ebay",
  "etsy",
  "woocommerce",
  "amazon",
  "standin",
] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === "string" && (CHANNEL_NAMES as readonly string[]).includes(value);
}
