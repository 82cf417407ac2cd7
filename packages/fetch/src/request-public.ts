// One API request to an address a merchant gave us (a WooCommerce store), for a process that
// talks to it long after the address was first checked: the host is checked again on every
// request and the connection pinned to the checked address, so a DNS change cannot turn the
// store's name into a way into our own network. Redirects are not followed; the caller sees them.
import type { IncomingHttpHeaders } from "node:http";
import type { UrlPolicy } from "./address-policy.js";
import { checkPublicUrl } from "./check-url.js";
import { responsePinned } from "./pinned-connection.js";
import { readCapped, readUpTo } from "./read-body.js";

export interface PublicRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  policy: UrlPolicy;
  /** Bounds the whole exchange. */
  signal: AbortSignal;
  /** Cap on the answer's body. Default 5 MB. */
  maxBytes?: number;
  /** Instead of the cap: read at most this many bytes of the answer, drop the rest, no error. */
  truncateAt?: number;
}

export interface PublicAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Throws BlockedUrlError or InvalidUrlError when the address is refused, FetchFailedError when
 * its name does not resolve or the answer is over the cap, and the socket's own error (with its
 * `code`) when the connection fails; the caller's abort reason when `signal` aborts.
 */
export async function requestPublic(request: PublicRequest): Promise<PublicAnswer> {
  const checked = await checkPublicUrl(request.url, request.policy, { signal: request.signal });
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers = {
    ...request.headers,
    ...(body ? { "content-length": String(body.length) } : {}),
  };
  const response = await responsePinned(checked, {
    method: request.method,
    headers,
    signal: request.signal,
    body,
  });
  const answer =
    request.truncateAt === undefined
      ? await readCapped(response, checked.url.href, request.maxBytes ?? 5 * 1024 * 1024)
      : await readUpTo(response, request.truncateAt);
  return { status: response.statusCode ?? 0, headers: response.headers, body: answer };
}
