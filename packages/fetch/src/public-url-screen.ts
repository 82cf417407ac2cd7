import { checkPublicUrl } from "./check-url.js";
import type { UrlPolicy } from "./address-policy.js";
import { BlockedUrlError } from "./errors.js";

/** How long one host's lookup may take before its URLs are judged without it. */
const LOOKUP_TIMEOUT_MS = 5_000;

export interface PublicUrlScreen {
  /** Why `raw` may not be kept (the page URL policy), or null when it may. */
  refusal(raw: string): Promise<string | null>;
}

/**
 * The page URL policy for URLs we store rather than fetch (product images, which dashboards
 * render in merchants' browsers and channels download): only credential-free http(s), and no
 * host that is, or resolves to, a non-public address. Each distinct scheme and host is resolved
 * once per screen, however many URLs name it, so make one screen per import. A name that does not
 * resolve (or not in time) cannot point anywhere private now, so its URLs are kept.
 */
export function createPublicUrlScreen(policy: UrlPolicy): PublicUrlScreen {
  const hosts = new Map<string, Promise<string | null>>();
  const judgeHost = (origin: string) =>
    checkPublicUrl(`${origin}/`, policy, { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) }).then(
      () => null,
      (error: unknown) => (error instanceof BlockedUrlError ? error.reason : null),
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
