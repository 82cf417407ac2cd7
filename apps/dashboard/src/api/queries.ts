// Queries several screens share.
import { useQuery } from "@tanstack/react-query";
import type { Destination } from "@catalog/gateway/api-types";
import { useChannels } from "./channels";
import { qk } from "./client";
import * as endpoints from "./endpoints";

export function useDestinations(options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: qk.destinations,
    queryFn: () => endpoints.destinations.list(),
    staleTime: 30_000,
    ...options,
  });
}

export type ChannelNamer = (channel: string) => string;

/** "Demo stand-in store" for a destination id, or the channel and a short id when it is gone. */
export function destinationLabel(
  destinations: Destination[] | undefined,
  id: string,
  channel?: string,
  channelName: ChannelNamer = (c) => c,
): string {
  const found = destinations?.find((d) => d.id === id);
  if (found) return found.name;
  return channel ? `${channelName(channel)} (${id.slice(0, 8)})` : id.slice(0, 8);
}

/**
 * A channel's name for people ("eBay"), from GET /api/channels' displayNames; the channel itself
 * until they load.
 */
export function useChannelName(): ChannelNamer {
  const names = useChannels().data?.displayNames;
  return (channel) => names?.[channel] ?? channel;
}
