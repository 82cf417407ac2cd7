export interface DependencyHealth {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/** Runs a dependency check with a deadline, so a hung connection reads as down, not as a hung probe. */
export async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<DependencyHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
