import {
  GiveUpChannelError,
  type ChannelAdapter,
  type PublishableProduct,
  type PublishOutcome,
} from "@catalog/channels";
import { callWithCredentials, type LoadedDestination } from "@catalog/channels/credentials";
import { OUT_OF_STOCK, rememberRemoteId, type StartedAttempt } from "@catalog/db";
import { startDeadline, timeoutReason } from "@catalog/fetch/public";
import { channelView, outOfStock, viewChange, type ChannelView } from "./channel-view.js";
import type { ProcessorDeps } from "./processor-deps.js";

// What a job does on the channel, by its sync log's kind: `publish` lists (or fully updates) the
// product, `update` carries a change to a live listing by the cheapest route the change allows,
// `end` ends the listing. The caller records the result.

/** The listing is live with what the channel now has. */
export interface Listed {
  kind: "listed";
  outcome: PublishOutcome;
  view: ChannelView;
  /** What the job did when it was not a plain publish. */
  note: string | null;
}

/** The listing ended on the channel. */
export interface Ended {
  kind: "ended";
  reason: string;
  note: string | null;
}

export type JobResult = Listed | Ended;

export const NOTHING_CHANGED = "nothing the channel receives changed";
export const OFFER_ONLY = "prices and quantities only";
export const FULL_UPDATE = "full update";

interface JobContext {
  deps: ProcessorDeps;
  started: StartedAttempt;
  destination: LoadedDestination;
  product: PublishableProduct;
  signal: AbortSignal;
}

export function runListingJob(ctx: JobContext): Promise<JobResult> {
  switch (ctx.started.syncLog.kind) {
    case "end":
      return end(ctx, ctx.started.syncLog.trigger ?? "ended");
    case "update":
      return update(ctx);
    default:
      return publish(ctx, null);
  }
}

function channelOf(ctx: JobContext) {
  const adapter = ctx.deps.channels.adapter(ctx.destination.channel);
  const { channel } = ctx.destination;
  const timeoutMs = ctx.deps.channelTimeoutMs;
  /** One channel call (credentials refreshed as needed) within the channel's time budget. */
  const call = async <T>(fn: (target: LoadedDestination, signal: AbortSignal) => Promise<T>) => {
    const deadline = startDeadline(timeoutMs, timeoutReason(timeoutMs), ctx.signal);
    try {
      return await callWithCredentials(
        ctx.deps,
        adapter,
        ctx.destination,
        deadline.signal,
        (target) => ctx.deps.metrics.timeCall(channel, () => fn(target, deadline.signal)),
      );
    } finally {
      deadline.release();
    }
  };
  return { adapter, call };
}

/**
 * A full publish. The listing's remote id is stored the moment the channel assigns it, so a
 * failure in a later step of a multi-step publish is retried as an update of that listing. A
 * listing that ended is listed anew.
 */
async function publish(ctx: JobContext, note: string | null): Promise<Listed> {
  const { deps, started } = ctx;
  const { syncLog, listing } = started;
  const { adapter, call } = channelOf(ctx);
  const view = channelView(ctx.product);
  const outcome = await call((target, signal) =>
    adapter.publish({
      product: ctx.product,
      destination: target,
      remoteId: listing.endedReason === null ? listing.remoteId : null,
      idempotencyKey: listing.id,
      signal,
      saveRemoteId: async (remoteId, remoteUrl) => {
        listing.remoteId = remoteId;
        listing.endedReason = null;
        await rememberRemoteId(deps.db, syncLog, remoteId, remoteUrl);
      },
    }),
  );
  return { kind: "listed", outcome, view, note };
}

async function update(ctx: JobContext): Promise<JobResult> {
  const { listing } = ctx.started;
  if (ctx.destination.outOfStockPolicy === "endAndRelist" && outOfStock(ctx.product))
    return end(ctx, OUT_OF_STOCK);
  const view = channelView(ctx.product);
  const change = viewChange(listing.syncedView, view);
  const remote = { remoteId: listing.remoteId!, remoteUrl: listing.remoteUrl };
  if (change === "none") return { kind: "listed", outcome: remote, view, note: NOTHING_CHANGED };
  const { adapter, call } = channelOf(ctx);
  if (change === "offer" && adapter.updateOffer) {
    const updateOffer = adapter.updateOffer.bind(adapter);
    await call((target, signal) =>
      updateOffer({ product: ctx.product, destination: target, remoteId: remote.remoteId, signal }),
    );
    return { kind: "listed", outcome: remote, view, note: OFFER_ONLY };
  }
  return publish(ctx, FULL_UPDATE);
}

async function end(ctx: JobContext, reason: string): Promise<Ended> {
  const { listing } = ctx.started;
  if (!listing.remoteId) return { kind: "ended", reason, note: "never listed on the channel" };
  const { adapter, call } = channelOf(ctx);
  const endListing = endingOf(adapter);
  const remoteId = listing.remoteId;
  await call((target, signal) =>
    endListing({ product: ctx.product, destination: target, remoteId, signal }),
  );
  return { kind: "ended", reason, note: null };
}

function endingOf(adapter: ChannelAdapter): NonNullable<ChannelAdapter["endListing"]> {
  if (!adapter.endListing)
    throw new GiveUpChannelError(`the ${adapter.channel} channel cannot end listings`, {
      channel: adapter.channel,
      kind: "validation",
    });
  return adapter.endListing.bind(adapter);
}
