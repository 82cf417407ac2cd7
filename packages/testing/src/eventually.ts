/**
 * Retries `check` until it passes or `timeoutMs` runs out, for effects that arrive
 * asynchronously by design (change notifications, queued work).
 */
export async function eventually(check: () => Promise<void>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
