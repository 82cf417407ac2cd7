// Every failure the popup can meet, as one message a merchant can act on, and what to offer
// next. Pure (no chrome.*, no fetch), so each case is unit-tested.

export type UserErrorKind =
  | "unpaired" // no pairing stored
  | "unauthorized" // the key is unknown or was revoked
  | "rateLimited" // the service's 429: wait until retryAt
  | "unreachable" // offline, wrong address, service down
  | "restricted" // a page Chrome keeps extensions away from
  | "notReady" // the page has not finished loading, or the capture failed
  | "rejected" // a 4xx the user can fix (422 naming a field, 413 too big)
  | "server"; // a 5xx

export interface UserError {
  kind: UserErrorKind;
  message: string;
  /** When a rate-limited request may be tried again (ms since the epoch). */
  retryAt?: number;
}

const sentence = (text: string) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

/** Retry-After is seconds or an HTTP date; anything else means "in a minute". */
export function retryAtFrom(retryAfter: string | null, now: number): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return now + Math.ceil(seconds) * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(now, date);
  }
  return now + 60_000;
}

/** "in 5 s", "in 2 min", "in 1 h": how long until a retry, rounded up. */
export function waitText(retryAt: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  return `in ${Math.ceil(minutes / 60)} h`;
}

/**
 * Failures worth the same request again: the network, a wait, the service's own trouble, a page
 * still loading.
 */
export function retryable(error: UserError): boolean {
  return (
    error.kind === "unreachable" ||
    error.kind === "rateLimited" ||
    error.kind === "server" ||
    error.kind === "notReady"
  );
}

/**
 * An answer that was not 2xx: the service's `{ error }` text where it gave one, without the
 * request field it starts with for API clients ("urls[2]: http://... is a loopback address").
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  retryAfter: string | null,
  now: number,
): UserError {
  const raw =
    body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string"
      ? (body as { error: string }).error
      : null;
  const unprefixed = raw?.replace(/^[a-z]+(\[\d+\])+: /i, "") ?? null;
  const said =
    unprefixed && /^https?:\/\//i.test(unprefixed) ? `the page ${unprefixed}` : unprefixed;
  if (status === 401) {
    return {
      kind: "unauthorized",
      message:
        "The service no longer accepts this extension's key (it was revoked, or the service was reset). Create a key in the dashboard's Extension keys screen and pair again.",
    };
  }
  if (status === 429) {
    const retryAt = retryAtFrom(retryAfter, now);
    const whose =
      said && /channel|asked to wait/i.test(said)
        ? sentence(said)
        : "The service is receiving too many requests from you";
    return {
      kind: "rateLimited",
      message: `${whose}. Try again ${waitText(retryAt, now)}.`,
      retryAt,
    };
  }
  if (status >= 500) {
    return {
      kind: "server",
      message: `The service could not do this right now (HTTP ${status})${said ? `: ${said}` : ""}. Try again in a moment.`,
    };
  }
  if (status === 413)
    return {
      kind: "rejected",
      message: said ? sentence(said) : "This page is too large to send to the service.",
    };
  return {
    kind: "rejected",
    message: said ? sentence(said) : `The service refused the request (HTTP ${status}).`,
  };
}

/** fetch() itself failed: offline, a wrong address, or the service is not running. */
export function errorFromNetwork(serviceUrl: string, online: boolean): UserError {
  return {
    kind: "unreachable",
    message: online
      ? `The service at ${serviceUrl} did not answer. Check that it is running and that the address is right.`
      : "You are offline. Connect to the internet and try again.",
  };
}

export const UNPAIRED: UserError = {
  kind: "unpaired",
  message: "Pair the extension with your catalog service first.",
};

export const RESTRICTED: UserError = {
  kind: "restricted",
  message:
    "Chrome doesn't let extensions read this page (browser pages, the Web Store and other extensions). Open a shop's product page and try again.",
};

export function captureFailed(reason: string): UserError {
  return {
    kind: "notReady",
    message: `The page could not be read (${reason}). Reload it, wait until it has loaded, and try again.`,
  };
}
