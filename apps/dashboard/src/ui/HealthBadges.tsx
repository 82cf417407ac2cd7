import type { Destination } from "@catalog/gateway/api-types";
import { StatusBadge } from "./StatusBadge";

const HEALTH_LABELS: Record<Destination["health"], string> = {
  ok: "Healthy",
  degraded: "Degraded",
  down: "Down",
};

/**
 * A store's health wherever stores are listed: "Needs setup" in amber while settings its channel
 * requires are missing (publishing there fails until they are set), never a green "Healthy"
 * beside it; a degraded or down store says so too.
 */
export function HealthBadges({
  health,
  missing,
}: {
  health: Destination["health"];
  /** The required settings it lacks (`missingSettings`). */
  missing: string[];
}) {
  const needsSetup = missing.length > 0;
  return (
    <>
      {needsSetup ? <StatusBadge status="needsSetup" label="Needs setup" tone="warn" /> : null}
      {needsSetup && health === "ok" ? null : (
        <StatusBadge status={health} label={HEALTH_LABELS[health]} />
      )}
    </>
  );
}
