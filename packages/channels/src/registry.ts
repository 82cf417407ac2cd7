// The one place that maps a destination's channel to its adapter, so the publish worker never
// imports a channel folder directly. Adapters are stateless, hence shared.
import type { ChannelAdapter, ChannelName } from "./adapter.js";
import { GiveUpChannelError } from "./errors.js";
import { createStandinAdapter } from "./standin/standin-adapter.js";

const adapters = new Map<ChannelName, ChannelAdapter>();

export function adapterFor(channel: ChannelName): ChannelAdapter {
  let adapter = adapters.get(channel);
  if (!adapter && channel === "standin") adapters.set(channel, (adapter = createStandinAdapter()));
  // Give up rather than retry: no amount of retrying makes a missing adapter appear.
  if (!adapter) throw new GiveUpChannelError(`publishing to ${channel} is not supported yet`, { channel, kind: "validation" });
  return adapter;
}
