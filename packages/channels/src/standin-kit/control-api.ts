// The control API every channel stand-in serves beside the channel's own routes, shaped like the
// generic stand-in's, so the demo (or a test driving a stand-in in another process) can look at
// a store and make it misbehave without being in the stand-in's process:
//   GET    /_control/stores                 the store ids, oldest first
//   GET    /_control/stores/:store          { listings, counts }
//   POST   /_control/stores/:store/fault    a fault as JSON ({ kind: "throttle", retryAfterSeconds: 5, times: 1 }); 400 if malformed
//   DELETE /_control/stores/:store/fault    clears it
//   DELETE /_control/faults                 clears every store's
//   GET    /_control/violations             requests that broke the channel's contract
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ChannelStandin } from "./channel-standin.js";
import { parseFault } from "./fault-book.js";
import { readBody, sendJson, type StandinHandler } from "./http.js";

const STORE_PATH = /^\/_control\/stores\/([^/]+)(\/fault)?$/;

async function control(standin: ChannelStandin, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  const method = request.method ?? "GET";
  if (path === "/_control/stores" && method === "GET") return sendJson(response, 200, { stores: standin.storeIds() });
  if (path === "/_control/violations" && method === "GET") return sendJson(response, 200, { violations: standin.violations });
  if (path === "/_control/faults" && method === "DELETE") return (standin.clearFaults(), sendJson(response, 204, undefined));
  const match = STORE_PATH.exec(path);
  if (!match) return sendJson(response, 404, { error: `no control route ${method} ${path}` });
  const store = decodeURIComponent(match[1]!);
  if (!match[2] && method === "GET") return sendJson(response, 200, standin.store(store));
  if (match[2] && method === "POST") {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(request, 64 * 1024)).toString("utf8"));
    } catch {
      return sendJson(response, 400, { error: "the fault must be JSON" });
    }
    const fault = parseFault(body);
    if (typeof fault === "string") return sendJson(response, 400, { error: fault });
    standin.setFault(store, fault);
    return sendJson(response, 200, { fault });
  }
  if (match[2] && method === "DELETE") return (standin.setFault(store, null), sendJson(response, 204, undefined));
  sendJson(response, 405, { error: `${method} is not allowed on ${path}` });
}

/** The channel's own handler, with the control API in front of it. `standin` is read per request (it exists once the server does). */
export function withControl(standin: () => ChannelStandin, channelRoutes: StandinHandler): StandinHandler {
  return async (request, response, url) => {
    if (url.pathname.startsWith("/_control/")) return control(standin(), request, response, url.pathname);
    return channelRoutes(request, response, url);
  };
}
