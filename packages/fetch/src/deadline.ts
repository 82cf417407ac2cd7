/** A time budget for some requests, and the caller's own abort, as one signal. */
export interface Deadline {
  /** Aborts with the caller's reason when the caller's signal aborts, or `reason()` when time is up. */
  readonly signal: AbortSignal;
  /** True once the time ran out (not when the caller aborted). */
  readonly expired: boolean;
  /** Stops the clock and lets go of the caller's signal: call it when the work is done. */
  release(): void;
}

/**
 * A deadline of `ms` milliseconds, linked to `outer`. `AbortSignal.timeout` and `AbortSignal.any`
 * do the same but cannot be released: every timer fires after its work is long done (a
 * DOMException and an abort event each time) and every `any` registers itself on the caller's
 * signal, which a publish job paid twice per call. The clock does not keep the process alive.
 */
export function startDeadline(ms: number, reason: () => unknown, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(reason());
  }, ms);
  timer.unref();
  const follow = () => {
    clearTimeout(timer);
    controller.abort(outer!.reason);
  };
  if (outer?.aborted) follow();
  else outer?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    release() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", follow);
    },
  };
}

/** The reason of a deadline that ran out, as `AbortSignal.timeout` gives it. */
export const timeoutReason = (ms: number) => () =>
  new DOMException(`The operation timed out after ${ms} ms`, "TimeoutError");
