// The control API of every stand-in (the generic one and the four channels'), beside the
// channel's own routes, so the demo (or a test driving a stand-in in another process) can look at
// a store and make it misbehave without being in the stand-in's process:
//   GET    /_control/stores                 the store ids, oldest first (channel stand-ins)
//   GET    /_control/stores/:store          the store's listings and counts
//   DELETE /_control/stores/:store          forgets the store (generic stand-in)
//   POST   /_control/stores/:store/fault    a fault as JSON ({ kind: "throttle", retryAfterSeconds: 5, times: 1 }); 400 if malformed
//   DELETE /_control/stores/:store/fault    clears it
//   DELETE /_control/faults                 clears every store's
//   GET    /_control/violations             requests that broke the channel's contract (channel stand-ins)
//   GET    /_control/rate                   the declared request rate { perSecond } (null: none)
//   PUT    /_control/rate                   declares it ({ perSecond: 20 } or { perSecond: null }); 400 if malformed
//   POST   /_control/stores/:store/listings/:sku/suppress
//                                           the channel takes the listing down and notifies it (Amazon)
// Errors are { error: { code, message } }, as the generic stand-in answers everything.
import type { IncomingMessage } from "node:http";
import type { StandinFault } from "./channel-standin.js";
import { parseFault } from "./fault-book.js";
import { parseRate } from "./rate-gate.js";
import { BodyTooLarge, readBody, sendJson, type StandinHandler } from "./http.js";

const STORE_PATH = /^\/_control\/stores\/([^/]+)(\/fault)?$/;
const SUPPRESS_PATH = /^\/_control\/stores\/([^/]+)\/listings\/([^/]+)\/suppress$/;
const MAX_FAULT_BYTES = 64 * 1024;

/** What a stand-in offers the control API; routes for what it lacks answer 404. */
export interface ControlTarget {
  store(storeId: string): unknown;
  setFault(storeId: string, fault: StandinFault | null): void;
  clearFaults(): void;
  storeIds?(): string[];
  readonly violations?: readonly unknown[];
  forgetStore?(storeId: string): void;
  suppress?(storeId: string, sku: string): void;
  setRate?(perSecond: number | null): void;
  readonly rate?: number | null;
}

export type ControlReply = [status: number, body?: unknown];

const errorReply = (status: number, code: string, message: string): ControlReply => [
  status,
  { error: { code, message } },
];

async function readJson(request: IncomingMessage): Promise<unknown> {
  const body = await readBody(request, MAX_FAULT_BYTES);
  return body.length === 0 ? undefined : JSON.parse(body.toString("utf8"));
}

/** The answer to one request under /_control/. */
export async function controlReply(
  target: ControlTarget,
  request: IncomingMessage,
  path: string,
): Promise<ControlReply> {
  const method = request.method ?? "GET";
  if (path === "/_control/stores" && method === "GET" && target.storeIds)
    return [200, { stores: target.storeIds() }];
  if (path === "/_control/violations" && method === "GET" && target.violations)
    return [200, { violations: target.violations }];
  if (path === "/_control/faults" && method === "DELETE") return (target.clearFaults(), [204]);
  if (path === "/_control/rate" && target.setRate) {
    if (method === "GET") return [200, { perSecond: target.rate ?? null }];
    if (method !== "PUT")
      return errorReply(405, "method_not_allowed", `${method} is not allowed here`);
    let body: unknown;
    try {
      body = await readJson(request);
    } catch {
      return errorReply(400, "bad_request", "body is not valid JSON");
    }
    const rate = parseRate((body as { perSecond?: unknown } | undefined)?.perSecond);
    if (typeof rate === "string") return errorReply(400, "bad_rate", rate);
    target.setRate(rate);
    return [200, { perSecond: rate }];
  }
  const suppress = SUPPRESS_PATH.exec(path);
  if (suppress && method === "POST" && target.suppress) {
    try {
      target.suppress(decodeURIComponent(suppress[1]!), decodeURIComponent(suppress[2]!));
    } catch (error) {
      return errorReply(404, "not_found", (error as Error).message);
    }
    return [204];
  }
  const match = STORE_PATH.exec(path);
  if (!match) return errorReply(404, "not_found", `no route ${path}`);
  let storeId: string;
  try {
    storeId = decodeURIComponent(match[1]!);
  } catch {
    return errorReply(400, "bad_request", `malformed path segment ${match[1]}`);
  }
  if (!match[2]) {
    if (method === "GET") return [200, target.store(storeId)];
    if (method === "DELETE" && target.forgetStore) return (target.forgetStore(storeId), [204]);
  } else if (method === "POST") {
    let body: unknown;
    try {
      body = await readJson(request);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return errorReply(413, "too_large", `a fault is at most ${MAX_FAULT_BYTES} bytes`);
      return errorReply(400, "bad_request", "body is not valid JSON");
    }
    const fault = parseFault(body);
    if (typeof fault === "string") return errorReply(400, "bad_fault", fault);
    target.setFault(storeId, fault);
    return [200, { fault }];
  } else if (method === "DELETE") {
    target.setFault(storeId, null);
    return [204];
  }
  return errorReply(405, "method_not_allowed", `${method} is not allowed here`);
}

/**
 * The channel's own handler, with the control API in front of it. `target` is read per request (the
 * stand-in exists once its server does).
 */
export function withControl(
  target: () => ControlTarget,
  channelRoutes: StandinHandler,
): StandinHandler {
  return async (request, response, url) => {
    if (!url.pathname.startsWith("/_control/")) return channelRoutes(request, response, url);
    const [status, body] = await controlReply(target(), request, url.pathname);
    sendJson(response, status, body);
  };
}
