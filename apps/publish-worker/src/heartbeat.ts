/**
 * Renews what a worker holds in Redis (a destination lease, a job's lock, a per-product lock)
 * every `everyMs` until stopped. The time to live of those stays short, so a worker that dies
 * frees them soon; a live worker keeps them as long as it needs. A beat still running when the
 * next is due is not doubled; one that fails is reported and the next runs on time.
 */
export function startHeartbeat(
  everyMs: number,
  beat: () => Promise<unknown>,
  onError: (err: unknown) => void,
): { stop(): void } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    beat()
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
