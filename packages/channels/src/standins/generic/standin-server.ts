// A local "marketplace" that speaks a small JSON REST contract, for tests, the demo and the
// benchmarks. Faults are set per store in-process or over /_control, so a test can drive a
// stand-in that runs in another process (a worker under test, a benchmark). It is deliberately
// lean per request (Maps, no framework) so it is never the bottleneck of a benchmark.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { controlReply, type ControlTarget } from "../kit/control-api.js";
import { countRoute, RateGate } from "../kit/rate-gate.js";
import {
  type InputProblem,
  parseListingInput,
  parseOfferPatch,
  type StandinFault,
  type StandinInspection,
  type StandinListing,
  StandinStore,
} from "./standin-store.js";

export interface StandinChannelOptions {
  host?: string;
  port?: number;
  /** A declared request rate per store and second (`RateGate`); absent: none. */
  rate?: number;
  /** The declared rate's clock (tests hold it still, so a slow machine cannot open a new second). */
  now?: () => number;
}

export interface StandinChannel {
  /** Base URL to put in a destination's baseUrl, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
  /** Listings and counters of a store (an unknown store is empty, not an error). */
  store(storeId: string): StandinInspection;
  /** null clears this store's fault. */
  setFault(storeId: string, fault: StandinFault | null): void;
  clearFaults(): void;
  /** Declares the request rate per store (null: none); over it answers 429 with Retry-After. */
  setRate(perSecond: number | null): void;
  readonly rate: number | null;
}

const MAX_BODY_BYTES = 1_000_000;
const BEARER = /^Bearer ([^\s:]+):(\S+)$/;
const LISTING_PATH = /^\/v1\/listings\/([^/]+)$/;
const PUBLIC_PATH = /^\/s\/([^/]+)\/listings\/([^/]+)$/;

type Reply = [status: number, body?: unknown, headers?: Record<string, string>];

const errorReply = (status: number, code: string, message: string, field?: string): Reply => [
  status,
  { error: { code, message, ...(field === undefined ? {} : { field }) } },
];
const problemReply = (status: number, code: string, p: InputProblem): Reply =>
  errorReply(status, code, p.message, p.field || undefined);
const isProblem = (value: object): value is InputProblem =>
  "message" in value && "field" in value && !("id" in value);

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw Object.assign(new Error(`malformed path segment ${part}`), { status: 400 });
  }
}

function send(res: http.ServerResponse, [status, body, headers]: Reply): void {
  if (res.destroyed) return;
  if (body === undefined) return void res.writeHead(status, headers).end();
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        return reject(Object.assign(new Error("body too large"), { status: 413 }));
      chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        resolve(size === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        reject(Object.assign(new Error("body is not valid JSON"), { status: 400 }));
      }
    });
    req.on("error", reject);
  });
}

export async function startStandinChannel(
  options: StandinChannelOptions = {},
): Promise<StandinChannel> {
  const stores = new Map<string, StandinStore>();
  const rateGate = new RateGate(options.rate, options.now);
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = "";
  let sequence = 0;
  const nextId = () => `sl_${(++sequence).toString(36)}`;
  const urlOf = (storeId: string, id: string) =>
    `${baseUrl}/s/${encodeURIComponent(storeId)}/listings/${id}`;
  const storeOf = (id: string) => {
    let store = stores.get(id);
    if (!store) stores.set(id, (store = new StandinStore(id, nextId, urlOf)));
    return store;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => (timers.delete(timer), resolve()), ms);
      timers.add(timer);
    });

  /**
   * Plays the store's fault; true when the request was answered (or its socket destroyed) by it.
   */
  async function playFault(
    fault: StandinFault,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<boolean> {
    switch (fault.kind) {
      case "slow":
        await sleep(fault.delayMs);
        return false;
      case "reset":
        req.socket.destroy();
        return true;
      case "error":
        send(res, errorReply(fault.status, "server_error", `stand-in fault: ${fault.status}`));
        return true;
      case "auth":
        send(res, errorReply(401, "unauthorized", "the access token was rejected"));
        return true;
      case "invalid":
        send(res, errorReply(422, "invalid", fault.message, fault.field));
        return true;
      case "throttle": {
        const seconds = fault.retryAfterSeconds;
        const headers: Record<string, string> = {};
        if (seconds !== undefined)
          headers["retry-after"] = fault.retryAfterAsDate
            ? new Date(Date.now() + seconds * 1000).toUTCString()
            : String(seconds);
        const [status, body] = errorReply(429, "throttled", "too many requests, slow down");
        send(res, [status, body, headers]);
        return true;
      }
    }
  }

  async function listingsApi(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    query: string,
  ): Promise<Reply | null> {
    const auth = BEARER.exec(req.headers.authorization ?? "");
    if (!auth)
      return errorReply(401, "unauthorized", "expected Authorization: Bearer <store>:<secret>");
    const store = storeOf(auth[1]!);
    const method = req.method ?? "GET";
    store.counts.requests += 1;
    countRoute(store.counts, `${method} ${LISTING_PATH.test(path) ? "/v1/listings/{id}" : path}`);
    const throttle = rateGate.take(store.id);
    if (throttle) store.counts.throttled += 1;
    const fault = throttle ?? store.takeFault();
    if (fault && (await playFault(fault, req, res))) return null;

    if (path === "/v1/listings") {
      if (method === "GET") {
        const sku = new URLSearchParams(query).get("sku");
        return [200, { items: sku === null ? [...store.listings.values()] : store.findBySku(sku) }];
      }
      if (method !== "POST")
        return errorReply(405, "method_not_allowed", `${method} is not allowed here`);
      const input = parseListingInput(await readJson(req));
      if (isProblem(input)) return problemReply(422, "invalid", input);
      const key = req.headers["idempotency-key"];
      const result = store.create(input, typeof key === "string" && key ? key : undefined);
      return "listing" in result ? [201, result.listing] : problemReply(409, "duplicate", result);
    }
    const id = LISTING_PATH.exec(path)?.[1];
    if (id === undefined) return errorReply(404, "not_found", `no route ${path}`);
    if (method === "GET") {
      const listing = store.listings.get(id);
      return listing
        ? [200, listing]
        : errorReply(404, "not_found", `listing ${id} does not exist`);
    }
    if (method === "DELETE")
      return store.remove(id)
        ? [204]
        : errorReply(404, "not_found", `listing ${id} does not exist`);
    if (method === "PATCH") {
      const patch = parseOfferPatch(await readJson(req));
      if (isProblem(patch)) return problemReply(422, "invalid", patch);
      const patched = store.patchOffer(id, patch);
      if (patched === undefined)
        return errorReply(404, "not_found", `listing ${id} does not exist`);
      return isProblem(patched) ? problemReply(422, "invalid", patched) : [200, patched];
    }
    if (method !== "PUT")
      return errorReply(405, "method_not_allowed", `${method} is not allowed here`);
    const input = parseListingInput(await readJson(req));
    if (isProblem(input)) return problemReply(422, "invalid", input);
    const updated: StandinListing | InputProblem | undefined = store.update(id, input);
    if (updated === undefined) return errorReply(404, "not_found", `listing ${id} does not exist`);
    return isProblem(updated) ? problemReply(409, "duplicate", updated) : [200, updated];
  }

  // The listing's public URL (what remoteUrl points at), so a demo link leads somewhere.
  async function publicPage(path: string): Promise<Reply> {
    const match = PUBLIC_PATH.exec(path);
    const listing = match ? stores.get(decodePart(match[1]!))?.listings.get(match[2]!) : undefined;
    return listing ? [200, listing] : errorReply(404, "not_found", "no such listing");
  }

  const server = http.createServer((req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const path = q === -1 ? raw : raw.slice(0, q);
    const query = q === -1 ? "" : raw.slice(q + 1);
    const handled = path.startsWith("/_control/")
      ? controlReply(control, req, path)
      : path.startsWith("/s/")
        ? publicPage(path)
        : listingsApi(req, res, path, query);
    handled.then(
      (reply) => reply && send(res, reply),
      (error: { status?: number; message?: string }) => {
        const status = error.status ?? 500;
        send(
          res,
          errorReply(
            status,
            status === 500 ? "server_error" : "bad_request",
            error.message ?? "unexpected failure",
          ),
        );
      },
    );
  });

  const channel: StandinChannel = {
    url: "",
    store: (storeId) =>
      stores.get(storeId)?.inspect() ?? {
        listings: [],
        counts: { create: 0, update: 0, requests: 0, throttled: 0, routes: {} },
        fault: null,
      },
    setFault: (storeId, fault) => storeOf(storeId).setFault(fault),
    clearFaults: () => stores.forEach((store) => store.setFault(null)),
    setRate: (perSecond) => rateGate.set(perSecond),
    get rate() {
      return rateGate.rate;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const control: ControlTarget = {
    store: (storeId) => channel.store(storeId),
    setFault: (storeId, fault) => channel.setFault(storeId, fault),
    clearFaults: () => channel.clearFaults(),
    setRate: (perSecond) => channel.setRate(perSecond),
    get rate() {
      return rateGate.rate;
    },
    forgetStore: (storeId) => void stores.delete(storeId),
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  channel.url = baseUrl = `http://${host}:${address.port}`;
  return channel;
}
