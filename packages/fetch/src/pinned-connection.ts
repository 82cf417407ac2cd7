import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { bareHostname, type CheckedUrl } from "./check-url.js";

// Connections are opened by name (so TLS SNI, certificate checks and Host stay the site's
// name) but the name is answered only with the address checkPublicUrl approved: no second DNS
// answer can move the connection elsewhere (DNS rebinding). A literal IP skips the lookup and
// connects to itself, which is exactly the address that was checked.

export function pinnedLookup(hostname: string, address: string, family: 4 | 6): LookupFunction {
  return (name, options, callback) => {
    if (name.replace(/\.$/, "").toLowerCase() !== hostname) {
      const error = Object.assign(
        new Error(`connection pinned to ${hostname} was asked for ${name}`),
        { code: "EPINNED" },
      );
      callback(error, "", 0);
    } else if (options.all) {
      callback(null, [{ address, family }]);
    } else {
      callback(null, address, family);
    }
  };
}

export interface PinnedRequestOptions {
  method?: string;
  headers?: http.OutgoingHttpHeaders;
  signal?: AbortSignal;
  /** Socket inactivity limit; the caller's signal bounds the whole exchange. */
  idleTimeoutMs?: number;
}

/** Starts a request to `checked.url` over a fresh connection pinned to `checked.address`. */
export function requestPinned(
  checked: CheckedUrl,
  options: PinnedRequestOptions = {},
): http.ClientRequest {
  const { url } = checked;
  const hostname = bareHostname(url);
  const transport = url.protocol === "https:" ? https : http;
  const request = transport.request({
    protocol: url.protocol,
    host: hostname,
    port: url.port ? Number(url.port) : undefined,
    path: `${url.pathname}${url.search}`,
    method: options.method ?? "GET",
    headers: { ...options.headers, host: url.host },
    lookup: pinnedLookup(hostname, checked.address, checked.family),
    // No pooling: a kept-alive socket must never carry a request checked for another target.
    agent: false,
    signal: options.signal,
  });
  if (options.idleTimeoutMs) {
    request.setTimeout(options.idleTimeoutMs, () =>
      request.destroy(Object.assign(new Error("socket idle timeout"), { code: "ETIMEDOUT" })),
    );
  }
  return request;
}

/**
 * Sends a request (with `body`, if any) over a pinned connection and resolves with the answer's
 * head. Rejects with the socket's own error, or with the abort reason when `options.signal`
 * aborted.
 */
export function responsePinned(
  checked: CheckedUrl,
  options: PinnedRequestOptions & { body?: Buffer } = {},
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = requestPinned(checked, options);
    request.once("response", resolve);
    // `on`, not `once`: the socket can fail again after the response began; reject is idempotent.
    request.on("error", (error) =>
      reject(options.signal?.aborted ? (options.signal.reason as Error) : error),
    );
    request.end(options.body);
  });
}
