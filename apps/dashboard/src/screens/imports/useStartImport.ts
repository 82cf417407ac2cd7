import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { Import } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";

/**
 * Starts an import with `start`, then opens it: pending until the import's page is open, so the
 * button keeps saying what is happening.
 */
export function useStartImport<Vars>(start: (vars: Vars) => Promise<Import>) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: start,
    onSuccess: async (created) => {
      queryClient.setQueryData(qk.imports.detail(created.id), created);
      void queryClient.invalidateQueries({
        queryKey: qk.imports.all,
        exact: false,
        refetchType: "none",
      });
      await navigate({ to: "/imports/$id", params: { id: created.id }, search: {} });
    },
  });
}
