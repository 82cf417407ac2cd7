export interface DependencyHealth {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/** `work`, or a rejection "no answer within <timeoutMs> ms" if it has not settled by then. */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a dependency check with a deadline, so a hung connection reads as down, not as a hung probe.
 */
export async function probe(
  check: () => Promise<unknown>,
  timeoutMs = 2000,
): Promise<DependencyHealth> {
  const started = performance.now();
  try {
    await withDeadline(check(), timeoutMs);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: (error as Error).message,
    };
  }
}
