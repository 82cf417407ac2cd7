// What the stand-ins entry knows of each channel: how to start its stand-in and how the
// end-to-end suite connects and sets up a store on it. Each channel's *-standin.ts exports one
// entry; channel-standins.ts lists them.
import type { ChannelName } from "../channel-names.js";
import type { ChannelStandin } from "./kit/channel-standin.js";
import type { StandinOptions } from "./kit/standin-options.js";

/** How a merchant connects and sets up one channel in the end-to-end tests. */
export interface ChannelTestCase {
  /** The connect request's query for a new store on the stand-in. */
  connectQuery: (
    standin: ChannelStandin,
  ) => Record<string, string> | Promise<Record<string, string>>;
  /** Settings the merchant sets after connecting (PATCH /api/destinations), or null. */
  settings: Record<string, string | number> | null;
  /** Products carry variants with options. */
  variants: boolean;
  /** Access tokens expire and are refreshed. */
  expiringTokens: boolean;
}

export interface ChannelStandinEntry {
  channel: ChannelName;
  /**
   * `callbackUrl` is where its authorize page returns when the channel names the redirect by alias
   * (eBay's RuName).
   */
  start: (options: StandinOptions) => Promise<ChannelStandin>;
  testCase: ChannelTestCase;
  /**
   * What a person types in the connect form to reach a store on the stand-in at `url` (printed by
   * the demo).
   */
  connectHint?(url: string): string;
}
