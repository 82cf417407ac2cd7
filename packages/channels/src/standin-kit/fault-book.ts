import type { StandinFault } from "./channel-standin.js";

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
export function retryAfterHeader(fault: Extract<StandinFault, { kind: "throttle" }>): Record<string, string> {
  if (fault.retryAfterSeconds === undefined) return {};
  const value = fault.retryAfterAsDate ? new Date(Date.now() + fault.retryAfterSeconds * 1000).toUTCString() : String(fault.retryAfterSeconds);
  return { "retry-after": value };
}
