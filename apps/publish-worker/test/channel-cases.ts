import {
  CHANNEL_STANDINS,
  type ChannelStandin,
  type ChannelStandinEntry,
  type ChannelTestCase,
  type StandinOptions,
} from "@catalog/channels/standins";
import type { ChannelName } from "@catalog/channels";

/**
 * How a merchant connects and sets up one channel in the end-to-end tests: its stand-in's entry,
 * flattened.
 */
export interface ChannelCase extends ChannelTestCase {
  channel: ChannelName;
  start: (options: StandinOptions) => Promise<ChannelStandin>;
}

/** One case per channel stand-in (a test passes a list with one more). */
export const channelCases = (
  standins: readonly ChannelStandinEntry[] = CHANNEL_STANDINS,
): ChannelCase[] => standins.map((s) => ({ channel: s.channel, start: s.start, ...s.testCase }));

export const CHANNEL_CASES: ChannelCase[] = channelCases();
