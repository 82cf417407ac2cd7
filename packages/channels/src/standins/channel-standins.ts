// Every channel's stand-in, in the channel list's order: the demo process, run.sh, the browser
// tests' setup and the end-to-end suite iterate this list.
// Each lives in its channel's folder (<channel>/<channel>-standin.ts), which the folder's index.ts
// never imports.
import { amazonStandin } from "../amazon/amazon-standin.js";
import { ebayStandin } from "../ebay/ebay-standin.js";
import { etsyStandin } from "../etsy/etsy-standin.js";
import { shopifyStandin } from "../shopify/shopify-standin.js";
import { woocommerceStandin } from "../woocommerce/woocommerce-standin.js";
import type { ChannelStandinEntry } from "./channel-standin-entry.js";

export const CHANNEL_STANDINS: readonly ChannelStandinEntry[] = [
  shopifyStandin,
  ebayStandin,
  etsyStandin,
  woocommerceStandin,
  amazonStandin,
];
