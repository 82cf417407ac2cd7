// Messages end up in front of merchants (the API answers 422 with them), so each one names the
// URL and says what to do differently, not just which check failed.

/** The URL points (directly, through DNS or through a redirect) at a non-public address. */
export class BlockedUrlError extends Error {
  override readonly name = "BlockedUrlError";
  constructor(
    readonly url: string,
    message: string,
    /** The bare why ("is a loopback address"), for callers that reword the message. */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** The URL is malformed, not http(s), or carries credentials. */
export class InvalidUrlError extends Error {
  override readonly name = "InvalidUrlError";
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/** The site was reached (or tried) but did not give a usable page. */
export class FetchFailedError extends Error {
  override readonly name = "FetchFailedError";
  /** Trying again later may work: no connection, a timeout, a 5xx, 408 or 429, a cut body. */
  readonly transient: boolean;
  constructor(
    readonly url: string,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown; transient?: boolean },
  ) {
    super(message, options);
    this.transient =
      options?.transient ??
      (status !== undefined && (status >= 500 || status === 408 || status === 429));
  }
}
