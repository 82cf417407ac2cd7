import { GiveUpChannelError, type ChannelAdapter } from "@catalog/channels";
import type { loadDestinationTarget } from "@catalog/db";
import { freshCredentials, type RefreshDeps } from "./credential-refresh.js";
import type { PublishMetrics } from "./metrics.js";

export type LoadedDestination = NonNullable<Awaited<ReturnType<typeof loadDestinationTarget>>>;

/**
 * One channel call (a publish, an offer update, an end) with credentials that are fresh
 * (refreshed shortly before they expire), and once more with refreshed ones when the channel
 * refuses the token with 401.
 */
export async function callWithCredentials<T>(
  deps: RefreshDeps & { metrics: PublishMetrics },
  adapter: ChannelAdapter,
  destination: LoadedDestination,
  callSignal: AbortSignal,
  call: (target: LoadedDestination) => Promise<T>,
): Promise<T> {
  const gone = () =>
    new GiveUpChannelError("the destination was disconnected", {
      channel: destination.channel,
      kind: "validation",
    });
  const timed = (target: LoadedDestination) =>
    deps.metrics.timeCall(destination.channel, () => call(target));
  const target = await freshCredentials(deps, adapter, destination, callSignal);
  if (!target) throw gone();
  try {
    return await timed(target);
  } catch (error) {
    const refused =
      error instanceof GiveUpChannelError && error.kind === "auth" && error.status === 401;
    if (!refused || !adapter.refreshCredentials) throw error;
    const refreshed = await freshCredentials(deps, adapter, target, callSignal, true);
    if (!refreshed) throw gone();
    return timed(refreshed);
  }
}
