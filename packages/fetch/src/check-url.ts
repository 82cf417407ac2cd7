import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { addressRefusal, type ResolvedAddress, type UrlPolicy } from "./address-policy.js";
import { BlockedUrlError, FetchFailedError, InvalidUrlError } from "./errors.js";

export interface CheckedUrl {
  url: URL;
  /** The one address every connection for this URL must use (pinned; never re-resolved). */
  address: string;
  family: 4 | 6;
}

export const HOW_TO_FIX = "only public web addresses can be imported";

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const records = await lookup(hostname, { all: true, verbatim: true });
  return records.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
}

function parse(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidUrlError(raw, `"${raw}" is not a valid web address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidUrlError(url.href, `${url.href} is not an http(s) address`);
  }
  if (url.username || url.password) {
    // Credentials would be sent to whoever the URL names, and shop pages never need them.
    throw new InvalidUrlError(
      url.href,
      `${redact(url)} contains a user name or password; remove them from the address`,
    );
  }
  return url;
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

/** URL hostname without IPv6 brackets or a trailing dot, lower-cased: the name to resolve. */
export function bareHostname(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

function withDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  // getaddrinfo cannot be cancelled; the caller stops waiting and the lookup finishes unseen.
  return new Promise<T>((resolve, reject) => {
    // a DOMException, unless the caller gave its own
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Parses `raw`, refuses anything but credential-free http(s), resolves the host once and
 * refuses it if any address it resolves to is non-public under `policy`.
 * Throws InvalidUrlError, BlockedUrlError, or FetchFailedError when the name does not resolve.
 */
export async function checkPublicUrl(
  raw: string,
  policy: UrlPolicy,
  options: { signal?: AbortSignal } = {},
): Promise<CheckedUrl> {
  const url = parse(raw);
  // WHATWG URL has already turned 2130706433 / 0177.0.0.1 / 0x7f.1 into dotted IPv4.
  const hostname = bareHostname(url);
  const port = defaultPort(url);
  const literal = isIP(hostname);

  let addresses: ResolvedAddress[];
  if (literal) {
    // A literal never reaches a resolver, so it is judged here directly.
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else if (
    !policy.allowPrivate &&
    (hostname === "localhost" || hostname.endsWith(".localhost"))
  ) {
    // RFC 6761: always loopback, whatever a resolver says (local ingest resolves it normally).
    addresses = [{ address: "127.0.0.1", family: 4 }];
  } else {
    try {
      addresses = await withDeadline((policy.resolve ?? systemResolve)(hostname), options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const code = (error as { code?: string }).code ?? String(error);
      throw new FetchFailedError(
        url.href,
        `${hostname} could not be found (DNS lookup failed: ${code}); check the address`,
        undefined,
        { cause: error, transient: true },
      );
    }
    if (addresses.length === 0) {
      throw new FetchFailedError(
        url.href,
        `${hostname} could not be found (no DNS records); check the address`,
      );
    }
  }

  // Every record is checked, not just the one we will use: a name answering both a public and
  // a private address is a rebinding setup, never a shop.
  for (const { address } of addresses) {
    const reason = addressRefusal({ hostname, port, address }, policy);
    if (reason) {
      const how = literal ? `is ${reason}` : `resolves to ${reason} (${address})`;
      throw new BlockedUrlError(url.href, `${url.href} ${how}; ${HOW_TO_FIX}`, how);
    }
  }
  const pinned = addresses[0]!;
  return { url, address: pinned.address, family: pinned.family };
}
