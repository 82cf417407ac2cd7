// What a publish that ended without success needs before it can succeed, recorded with it
// (sync_logs.failure) so that the dashboard words it for a merchant and a run retries only what a
// retry can change.
import { apiFieldName, type GiveUpChannelError } from "@catalog/channels";
import type { FailureRecord } from "@catalog/db";

/** A channel's give-up: its credentials refused, its settings incomplete, or the product's data. */
export function giveUpFailure(error: GiveUpChannelError): FailureRecord {
  const field = error.field === undefined ? null : apiFieldName(error.field);
  if (error.kind === "auth") return { kind: "access", field: null, reason: error.channelMessage };
  const store = field !== null && (field === "settings" || field.startsWith("settings."));
  const address = field === "baseUrl";
  return {
    kind: store ? "settings" : address ? "access" : "product",
    field,
    reason: error.channelMessage,
  };
}

/** Out of attempts on outages, timeouts or a breaker that stayed open: time can change it. */
export const TEMPORARY: FailureRecord = { kind: "temporary", field: null, reason: null };
