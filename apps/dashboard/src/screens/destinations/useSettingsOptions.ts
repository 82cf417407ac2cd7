import { useQuery } from "@tanstack/react-query";
import { ApiError, errorMessage } from "../../api/client";
import * as endpoints from "../../api/endpoints";

/** How long a store's choices are kept before they are asked again (a policy added meanwhile). */
const FRESH_MS = 5 * 60_000;

/**
 * A setting's choices from the store's account (GET /api/destinations/settings-options), asked
 * once per marketplace and words; a failure is shown, not retried: the field can be typed.
 */
export function useSettingsOptions(
  destinationId: string,
  field: string,
  {
    q = "",
    marketplaceId = "",
    enabled = true,
  }: { q?: string; marketplaceId?: string; enabled?: boolean },
) {
  return useQuery({
    queryKey: ["settings-options", destinationId, field, marketplaceId, q],
    queryFn: () =>
      endpoints.destinations.settingsOptions(destinationId, field, {
        q: q || undefined,
        marketplaceId: marketplaceId || undefined,
      }),
    enabled,
    staleTime: FRESH_MS,
    retry: false,
  });
}

/**
 * Why the choices could not be listed: a channel's refusal (502) starts with its own name, spelt
 * as it spells it ("eBay did not list..."); anything else reads as a sentence.
 */
export const channelRefusal = (error: unknown) =>
  error instanceof ApiError && error.status === 502 ? error.message : errorMessage(error);
