// Queries several screens share.
import { useQuery } from "@tanstack/react-query";
import type { Destination } from "@catalog/gateway/api-types";
import { qk } from "./client";
import * as endpoints from "./endpoints";

export function useDestinations(options: { refetchInterval?: number } = {}) {
  return useQuery({ queryKey: qk.destinations, queryFn: () => endpoints.destinations.list(), staleTime: 30_000, ...options });
}

/** "Demo stand-in store" for a destination id, or the channel and a short id when it is gone. */
export function destinationLabel(destinations: Destination[] | undefined, id: string, channel?: string): string {
  const found = destinations?.find((d) => d.id === id);
  if (found) return found.name;
  return channel ? `${channelName(channel)} (${id.slice(0, 8)})` : id.slice(0, 8);
}

const CHANNEL_NAMES: Record<string, string> = {
  shopify: "Shopify", ebay: "eBay", etsy: "Etsy", woocommerce: "WooCommerce", standin: "Stand-in",
};

export function channelName(channel: string): string {
  return CHANNEL_NAMES[channel] ?? channel;
}
