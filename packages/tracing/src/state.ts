import { context, propagation, trace } from "@opentelemetry/api";
import type { TracerProvider } from "@opentelemetry/sdk-trace";

// The running SDK, kept on globalThis so that every copy of this module (the `--import` register
// module's and the application's) sees the same one.
const KEY = Symbol.for("catalog.tracing.provider");
type Holder = { [KEY]?: TracerProvider };

export function runningProvider(): TracerProvider | undefined {
  return (globalThis as Holder)[KEY];
}

export function setRunningProvider(provider: TracerProvider | undefined): void {
  (globalThis as Holder)[KEY] = provider;
}

/** Whether this process traces (the SDK was started): the cheap check the hot paths make. */
export function tracing(): boolean {
  return runningProvider() !== undefined;
}

/**
 * Ends tracing, sending the spans not yet exported: a process's last step before it exits. Does
 * nothing when the process does not trace.
 */
export async function stopTracing(): Promise<void> {
  const provider = runningProvider();
  if (!provider) return;
  setRunningProvider(undefined);
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}
