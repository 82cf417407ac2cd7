import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Destination, DestinationPatch } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useToast } from "../../ui/toast-context";

/**
 * PATCH a destination (settings or name); when saved, the list is reloaded, a toast says `saved`,
 * and `onDone` closes the form.
 */
export function useUpdateDestination(
  d: Destination,
  saved: (patch: DestinationPatch) => string,
  onDone: () => void,
) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (patch: DestinationPatch) => endpoints.destinations.update(d.id, patch),
    onSuccess: async (_updated, patch) => {
      await queryClient.invalidateQueries({ queryKey: qk.destinations });
      toast.notify(saved(patch), "ok");
      onDone();
    },
  });
}
