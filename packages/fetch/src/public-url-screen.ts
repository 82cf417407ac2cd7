import { checkPublicUrl } from "./check-url.js";
import type { UrlPolicy } from "./address-policy.js";
import { BlockedUrlError, FetchFailedError } from "./errors.js";

/** How long one host's lookup may take before its URLs are refused. */
const LOOKUP_TIMEOUT_MS = 5_000;

export interface PublicUrlScreen {
  /** Why `raw` may not be kept (the page URL policy), or null when it may. */
  refusal(raw: string): Promise<string | null>;
}

/** Why a host whose lookup failed is refused: the resolver's code, or that it took too long. */
function lookupFailure(error: unknown): string {
  if (error instanceof FetchFailedError) {
    // check-url's failed lookup carries the resolver's error as its cause; no cause: no records.
    const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
    const detail =
      cause === undefined
        ? "no DNS records"
        : `DNS lookup failed: ${String(cause.code ?? cause.message)}`;
    return `has a host that could not be found (${detail})`;
  }
  if (error instanceof Error && error.name === "TimeoutError")
    return `has a host whose DNS lookup took more than ${LOOKUP_TIMEOUT_MS / 1000} s`;
  return `could not be checked (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * The page URL policy for URLs we store rather than fetch (product images, which dashboards
 * render in merchants' browsers and channels download): only credential-free http(s), and no
 * host that is, or resolves to, a non-public address. Each distinct scheme and host is resolved
 * once per screen, however many URLs name it, so make one screen per import. A host that cannot
 * be resolved (no records, a failed lookup, no answer in time) is refused too: what it will point
 * to once a channel or a browser asks is unknown.
 */
export function createPublicUrlScreen(policy: UrlPolicy): PublicUrlScreen {
  const hosts = new Map<string, Promise<string | null>>();
  const judgeHost = (origin: string) =>
    checkPublicUrl(`${origin}/`, policy, { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) }).then(
      () => null,
      (error: unknown) => (error instanceof BlockedUrlError ? error.reason : lookupFailure(error)),
    );
  return {
    async refusal(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return "is not a valid web address";
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") return "is not an http(s) address";
      if (url.username || url.password) return "contains a user name or password";
      const origin = `${url.protocol}//${url.host}`;
      let verdict = hosts.get(origin);
      if (!verdict) hosts.set(origin, (verdict = judgeHost(origin)));
      return verdict;
    },
  };
}
