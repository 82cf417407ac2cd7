import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { UrlPolicy } from "./address-policy.js";
import { checkPublicUrl, HOW_TO_FIX, type CheckedUrl } from "./check-url.js";
import { startDeadline } from "./deadline.js";
import { decodeHtml, looksLikeHtml, parseContentType, type ContentType } from "./decode-html.js";
import { BlockedUrlError, FetchFailedError, InvalidUrlError } from "./errors.js";
import { describeConnectionError, describeStatus } from "./failure-messages.js";
import { responsePinned } from "./pinned-connection.js";
import { decodeContent, readCapped } from "./read-body.js";

// Sites serve bot-looking agents error pages or nothing at all; a current desktop Chrome
// string gets the page a shopper would see.
export const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const DEFAULT_ACCEPT = ["text/html", "application/xhtml+xml"];
const DEFAULT_EXPECTED = "an HTML page";

export interface FetchPublicOptions {
  policy: UrlPolicy;
  /** Whole exchange, all redirects and the body included. Default 15 000. */
  timeoutMs?: number;
  /** Cap on the body, compressed and decompressed alike. Default 5 MB. */
  maxBytes?: number;
  /**
   * Accepted media types; "image/*" accepts any image. Default text/html and application/xhtml+xml.
   */
  accept?: string[];
  /** What the accepted types are, for the refusal's message. Default "an HTML page". */
  expected?: string;
  maxRedirects?: number;
  userAgent?: string;
  signal?: AbortSignal;
}

export interface FetchPublicResult {
  finalUrl: string;
  status: number;
  /** Media type without parameters, e.g. "text/html". */
  contentType: string;
  body: string;
  /** Every URL redirected to, in order (the start URL not included). */
  redirects: string[];
}

/** What fetchPublicBytes gives: the body as sent (decompressed), never decoded as text. */
export interface FetchPublicBytesResult extends Omit<FetchPublicResult, "body"> {
  bytes: Buffer;
}

interface Fetched extends Omit<FetchPublicResult, "body" | "contentType"> {
  contentType: ContentType | undefined;
  bytes: Buffer;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function send(
  checked: CheckedUrl,
  headers: OutgoingHttpHeaders,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  try {
    return await responsePinned(checked, { headers, signal });
  } catch (error) {
    throw signal.aborted ? error : describeConnectionError(checked.url.href, error);
  }
}

async function checkHop(
  target: string,
  from: string | undefined,
  policy: UrlPolicy,
  signal: AbortSignal,
): Promise<CheckedUrl> {
  try {
    return await checkPublicUrl(target, policy, { signal });
  } catch (error) {
    if (from && error instanceof BlockedUrlError) {
      throw new BlockedUrlError(
        error.url,
        `${from} redirects to ${error.url}, which ${error.reason}; ${HOW_TO_FIX}`,
        error.reason,
      );
    }
    if (from && error instanceof InvalidUrlError) {
      throw new InvalidUrlError(
        error.url,
        `${from} redirects to ${error.url}, which cannot be fetched: ${error.message}`,
      );
    }
    throw error;
  }
}

const acceptsType = (accept: string[], mediaType: string) =>
  accept.some(
    (type) =>
      type === mediaType || (type.endsWith("/*") && mediaType.startsWith(type.slice(0, -1))),
  );

async function fetchWithin(
  start: string,
  options: FetchPublicOptions,
  signal: AbortSignal,
): Promise<Fetched> {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const accept = (options.accept ?? DEFAULT_ACCEPT).map((t) => t.toLowerCase());
  const expected = options.expected ?? DEFAULT_EXPECTED;
  const headers: OutgoingHttpHeaders = {
    "user-agent": options.userAgent ?? DEFAULT_USER_AGENT,
    accept: `${accept.join(",")},*/*;q=0.8`,
    "accept-language": "en-US,en;q=0.9",
    "accept-encoding": "gzip, deflate, br",
  };
  const redirects: string[] = [];
  let current = start;
  let from: string | undefined;

  for (;;) {
    const checked = await checkHop(current, from, options.policy, signal);
    const url = checked.url.href;
    const response = await send(checked, headers, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;

    if (REDIRECT_STATUSES.has(status) && location) {
      response.destroy();
      let next: string;
      try {
        next = new URL(location, checked.url).href;
      } catch {
        throw new FetchFailedError(
          url,
          `${url} redirects to an invalid address (${location})`,
          status,
        );
      }
      if (redirects.length >= maxRedirects) {
        throw new FetchFailedError(
          start,
          `${start} redirected more than ${maxRedirects} times (last to ${next}); it may be a redirect loop`,
          status,
        );
      }
      redirects.push(next);
      from = url;
      current = next;
      continue;
    }
    if (status >= 400) {
      response.destroy();
      throw new FetchFailedError(url, describeStatus(url, status, response.statusMessage), status);
    }

    const contentType = parseContentType(response.headers["content-type"]);
    if (contentType && !acceptsType(accept, contentType.mediaType)) {
      response.destroy();
      throw new FetchFailedError(url, `${url} is not ${expected} (${contentType.mediaType})`);
    }
    const raw = await readCapped(response, url, maxBytes).catch((error: unknown) => {
      throw error instanceof FetchFailedError ? error : describeConnectionError(url, error);
    });
    const bytes = await decodeContent(raw, response.headers["content-encoding"], url, maxBytes);
    return { finalUrl: url, status, contentType, bytes, redirects };
  }
}

/** Runs one fetch under the overall deadline; the caller's own abort reason is rethrown as is. */
async function withDeadline(url: string, options: FetchPublicOptions): Promise<Fetched> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = startDeadline(
    timeoutMs,
    () =>
      new FetchFailedError(
        url,
        `${url} did not answer within ${timeoutMs} ms; the site may be down or very slow`,
        undefined,
        { transient: true },
      ),
    options.signal,
  );
  try {
    return await fetchWithin(url, options, deadline.signal);
  } catch (error) {
    // Aborting surfaces as assorted stream errors; the abort reason is the real story.
    if (deadline.signal.aborted) throw deadline.signal.reason;
    throw error;
  } finally {
    deadline.release();
  }
}

/**
 * GETs a public http(s) page: every hop is checked with checkPublicUrl and its connection
 * pinned to the checked address; redirects are followed by hand, bounded, and re-checked.
 * Throws BlockedUrlError, InvalidUrlError or FetchFailedError; the caller's own abort reason
 * is rethrown as is.
 */
export async function fetchPublic(
  url: string,
  options: FetchPublicOptions,
): Promise<FetchPublicResult> {
  const { contentType, bytes, ...fetched } = await withDeadline(url, options);
  const accept = (options.accept ?? DEFAULT_ACCEPT).map((t) => t.toLowerCase());
  // No Content-Type at all: accept it only if it plainly starts like HTML, as browsers sniff.
  if (!contentType && !(accept.includes("text/html") && looksLikeHtml(bytes))) {
    throw new FetchFailedError(
      fetched.finalUrl,
      `${fetched.finalUrl} is not ${options.expected ?? DEFAULT_EXPECTED} (no content type)`,
    );
  }
  return {
    ...fetched,
    contentType: contentType?.mediaType ?? "text/html",
    body: decodeHtml(bytes, contentType),
  };
}

/**
 * fetchPublic's checks for a file that is not text (an image): the bytes, which must come with an
 * accepted Content-Type.
 */
export async function fetchPublicBytes(
  url: string,
  options: FetchPublicOptions & { accept: string[]; expected: string },
): Promise<FetchPublicBytesResult> {
  const { contentType, ...fetched } = await withDeadline(url, options);
  if (!contentType)
    throw new FetchFailedError(
      fetched.finalUrl,
      `${fetched.finalUrl} is not ${options.expected} (no content type)`,
    );
  return { ...fetched, contentType: contentType.mediaType };
}
