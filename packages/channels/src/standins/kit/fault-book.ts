import type { StandinFault } from "./channel-standin.js";

const FAULT_KINDS = new Set(["slow", "error", "throttle", "reset", "auth", "invalid"]);

/** A fault sent over HTTP (the control API), or what is wrong with it. */
export function parseFault(value: unknown): StandinFault | string {
  if (!value || typeof value !== "object") return "fault must be a JSON object";
  const f = value as Record<string, unknown>;
  if (typeof f.kind !== "string" || !FAULT_KINDS.has(f.kind))
    return `fault.kind must be one of ${[...FAULT_KINDS].join(", ")}`;
  const isCount = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) >= 0);
  if (!isCount(f.times)) return "fault.times must be a non-negative integer";
  if (f.kind === "slow" && !(Number.isFinite(f.delayMs) && (f.delayMs as number) >= 0))
    return "fault.delayMs must be a number >= 0";
  if (f.kind === "error" && ![500, 502, 503].includes(f.status as number))
    return "fault.status must be 500, 502 or 503";
  if (f.kind === "throttle" && !isCount(f.retryAfterSeconds))
    return "fault.retryAfterSeconds must be a non-negative integer";
  if (f.kind === "invalid" && typeof f.message !== "string")
    return "fault.message must be a string";
  return f as unknown as StandinFault;
}

/** Faults per store, each played `times` times (or until cleared). */
export class FaultBook {
  private readonly faults = new Map<string, StandinFault>();

  set(storeId: string, fault: StandinFault | null): void {
    if (fault) this.faults.set(storeId, { ...fault });
    else this.faults.delete(storeId);
  }

  clear(): void {
    this.faults.clear();
  }

  /** The store's fault, if any, without counting it down. */
  peek(storeId: string): StandinFault | null {
    return this.faults.get(storeId) ?? null;
  }

  /** The fault this request of the store must play, counting it down. */
  take(storeId: string): StandinFault | null {
    const fault = this.faults.get(storeId);
    if (!fault) return null;
    if (fault.times !== undefined) {
      if (fault.times <= 1) this.faults.delete(storeId);
      else fault.times -= 1;
    }
    return fault;
  }
}

/** The Retry-After header a throttle fault asks for (none when it gives no seconds). */
export function retryAfterHeader(
  fault: Extract<StandinFault, { kind: "throttle" }>,
): Record<string, string> {
  if (fault.retryAfterSeconds === undefined) return {};
  const value = fault.retryAfterAsDate
    ? new Date(Date.now() + fault.retryAfterSeconds * 1000).toUTCString()
    : String(fault.retryAfterSeconds);
  return { "retry-after": value };
}
