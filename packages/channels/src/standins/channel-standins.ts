// Every channel's stand-in, in the channel list's order: the demo process, run.sh, the browser
// tests' setup and the end-to-end suite iterate this list.
import { amazonStandin } from "./amazon-standin.js";
import type { ChannelStandinEntry } from "./channel-standin-entry.js";
import { ebayStandin } from "./ebay-standin.js";
import { etsyStandin } from "./etsy-standin.js";
import { shopifyStandin } from "./shopify-standin.js";
import { woocommerceStandin } from "./woocommerce-standin.js";

export const CHANNEL_STANDINS: readonly ChannelStandinEntry[] = [shopifyStandin, ebayStandin, etsyStandin, woocommerceStandin, amazonStandin];
