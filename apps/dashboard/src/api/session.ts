import { useQuery, useSuspenseQuery, type QueryClient } from "@tanstack/react-query";
import type { Role, Session } from "@catalog/gateway/api-types";
import { qk } from "./client";
import * as endpoints from "./endpoints";

export const sessionQuery = {
  queryKey: qk.session,
  queryFn: () => endpoints.session.get(),
  staleTime: Infinity,
  retry: false,
} as const;

/** The signed-in user and org; only used below the authenticated layout, which loads it first. */
export function useSession(): Session {
  return useSuspenseQuery(sessionQuery).data;
}

export function ensureSession(queryClient: QueryClient): Promise<Session> {
  return queryClient.ensureQueryData(sessionQuery);
}

export const ROLE_LABELS: Record<Role, string> = {
  member: "Member",
  owner: "Owner",
  admin: "Platform operator",
};

export function useLegalStatus() {
  return useQuery({
    queryKey: qk.legal,
    queryFn: () => endpoints.legal.status(),
    staleTime: 60_000,
  });
}
