// The three outcomes a channel failure can have for the publish pipeline (design habit 8):
//   retry   -> RetryableChannelError: backoff with jitter, counts in the destination's breaker;
//   give up -> GiveUpChannelError: no retry, no breaker count, the channel's message shown to the user;
//   wait    -> ChannelWaitError: pause the whole destination for retryAfterMs, no attempt spent.
// Messages always name the channel ("standin answered 503: ..."), since they reach sync logs and
// the dashboard, where several destinations sit side by side.
import type { ChannelName } from "./channel-names.js";

export type ChannelOutcome = "retry" | "give-up" | "wait";

export const MIN_WAIT_MS = 1_000;
export const MAX_WAIT_MS = 3_600_000;
/** Used when a channel says "wait" without saying (readably) how long. */
export const DEFAULT_WAIT_MS = 30_000;

interface ChannelErrorOptions {
  channel: ChannelName;
  status?: number;
  cause?: unknown;
}

export abstract class ChannelError extends Error {
  abstract readonly outcome: ChannelOutcome;
  readonly channel: ChannelName;
  /** HTTP status the channel answered, when it answered at all. */
  readonly status: number | undefined;

  constructor(message: string, options: ChannelErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.channel = options.channel;
    this.status = options.status;
  }
}

/** 5xx, timeout, connection refused or reset: the same request may well succeed later. */
export class RetryableChannelError extends ChannelError {
  override readonly name = "RetryableChannelError";
  readonly outcome = "retry" as const;
}

export type GiveUpKind = "validation" | "auth";

/** The channel refused the content (validation) or the credentials (auth): retrying cannot help. */
export class GiveUpChannelError extends ChannelError {
  override readonly name = "GiveUpChannelError";
  readonly outcome = "give-up" as const;
  readonly kind: GiveUpKind;
  /** The channel's own words, without our prefix, for showing next to the product. */
  readonly channelMessage: string;
  /** The offending field when the channel (or our pre-check) names one. */
  readonly field: string | undefined;

  constructor(
    message: string,
    options: ChannelErrorOptions & { kind: GiveUpKind; channelMessage?: string; field?: string },
  ) {
    super(message, options);
    this.kind = options.kind;
    this.channelMessage = options.channelMessage ?? message;
    this.field = options.field;
  }
}

/** The channel asked us to slow down (429, Retry-After, "throttled"): pause the destination. */
export class ChannelWaitError extends ChannelError {
  override readonly name = "ChannelWaitError";
  readonly outcome = "wait" as const;
  /**
   * Always within [MIN_WAIT_MS, MAX_WAIT_MS]: a zero wait would spin, a huge one would strand the
   * queue.
   */
  readonly retryAfterMs: number;

  constructor(message: string, options: ChannelErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.retryAfterMs = clampWait(options.retryAfterMs);
  }
}

export type ChannelFailure = RetryableChannelError | GiveUpChannelError | ChannelWaitError;

export function isChannelError(error: unknown): error is ChannelFailure {
  return error instanceof ChannelError;
}

export function clampWait(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_WAIT_MS;
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.ceil(ms)));
}
