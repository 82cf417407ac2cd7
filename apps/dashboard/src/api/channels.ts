import { useQuery } from "@tanstack/react-query";
import { qk } from "./client";
import * as endpoints from "./endpoints";

/** GET /api/channels: each channel's connect and settings fields (rarely changes). */
export function useChannels() {
  return useQuery({
    queryKey: qk.channels,
    queryFn: () => endpoints.channels.list(),
    staleTime: 5 * 60_000,
  });
}
