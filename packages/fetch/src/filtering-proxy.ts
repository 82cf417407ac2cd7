import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import type { UrlPolicy } from "./address-policy.js";
import { checkPublicUrl, type CheckedUrl } from "./check-url.js";
import { BlockedUrlError, InvalidUrlError } from "./errors.js";
import { requestPinned } from "./pinned-connection.js";

// Chromium reaches the network only through this proxy (--proxy-server), because redirects,
// subresources, workers and iframes escape Playwright's request routing. Each request and
// tunnel is checked with the same checkPublicUrl as fetchPublic and pinned to the checked
// address; redirects are passed back to Chromium, which sends the next hop here again.

export interface FilteringProxy {
  /** http://127.0.0.1:port, for --proxy-server. */
  url: string;
  /** Recent refusals, newest last ("target (reason)"), for logs and tests. */
  blocked: string[];
  close(): Promise<void>;
}

export interface FilteringProxyOptions {
  /** Inbound connections held at once; each carries at most one upstream. Default 256. */
  maxConnections?: number;
  /** Idle limit for every socket, inbound, upstream and tunnel. Default 30 000. */
  idleTimeoutMs?: number;
  /** How many refusals `blocked` keeps. Default 100. */
  blockedLogSize?: number;
}

// Per-connection headers a proxy must not pass on (RFC 9110 §7.6.1).
const HOP_BY_HOP = [
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];
export const BLOCKED_HEADER = "x-blocked-by";
export const BLOCKED_HEADER_VALUE = "catalog-filtering-proxy";

function endToEnd<T extends http.IncomingHttpHeaders>(headers: T): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name) && !named.includes(name))
      out[name] = value;
  }
  return out;
}

function refusalStatus(error: unknown): [number, string] {
  if (error instanceof BlockedUrlError) return [403, "Forbidden"];
  if (error instanceof InvalidUrlError) return [400, "Bad Request"];
  return [502, "Bad Gateway"];
}

export async function startFilteringProxy(
  policy: UrlPolicy,
  options: FilteringProxyOptions = {},
): Promise<FilteringProxy> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const logSize = options.blockedLogSize ?? 100;
  const sockets = new Set<Duplex>();
  const blocked: string[] = [];

  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const check = async (
    target: string,
    asUrl: string,
  ): Promise<CheckedUrl | [number, string, string]> => {
    try {
      // getaddrinfo has no timeout of its own.
      return await checkPublicUrl(asUrl, policy, { signal: AbortSignal.timeout(idleTimeoutMs) });
    } catch (error) {
      const [status, text] = refusalStatus(error);
      const message = error instanceof Error ? error.message : String(error);
      if (status !== 502) {
        blocked.push(`${target} (${error instanceof BlockedUrlError ? error.reason : message})`);
        if (blocked.length > logSize) blocked.shift();
      }
      return [status, text, message];
    }
  };

  const forward = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const target = req.url ?? "";
    if (!/^http:\/\//i.test(target)) {
      // Only plain http comes as an absolute-form request; https arrives as CONNECT.
      res
        .writeHead(400, { "content-type": "text/plain" })
        .end("forward proxy: absolute http:// URLs only\n");
      return;
    }
    const checked = await check(target, target);
    if (Array.isArray(checked)) {
      const [status, , message] = checked;
      res
        .writeHead(status, { "content-type": "text/plain", [BLOCKED_HEADER]: BLOCKED_HEADER_VALUE })
        .end(`${message}\n`);
      return;
    }
    const upstream = requestPinned(checked, {
      method: req.method ?? "GET",
      headers: endToEnd(req.headers),
      idleTimeoutMs,
    });
    upstream.on("socket", track);
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { "content-type": "text/plain" }).end(`could not reach ${target}\n`);
    });
    // A client that goes away takes its upstream with it.
    res.on("close", () => upstream.destroy());
    req.on("error", () => upstream.destroy());
    req.pipe(upstream);
  };

  const tunnel = async (req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> => {
    client.on("error", () => client.destroy());
    const target = req.url ?? "";
    const hostPort = /^(\[[0-9a-f:.]+\]|[^\s:/@[\]]+):(\d{1,5})$/i.exec(target);
    const checked = hostPort
      ? await check(target, `https://${target}/`)
      : ([400, "Bad Request", "bad CONNECT target"] as [number, string, string]);
    if (Array.isArray(checked)) {
      const [status, text] = checked;
      client.end(
        `HTTP/1.1 ${status} ${text}\r\n${BLOCKED_HEADER}: ${BLOCKED_HEADER_VALUE}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    const upstream = net.connect({ host: checked.address, port: Number(hostPort?.[2]) });
    track(upstream);
    upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (connected) client.destroy();
      else client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
    upstream.on("close", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  };

  const server = http.createServer();
  server.maxConnections = options.maxConnections ?? 256;
  server.on("connection", (socket: net.Socket) => {
    track(socket);
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
  });
  server.on("request", (req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    tunnel(req, client, head).catch(() => client.destroy());
  });
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    blocked,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
