// The plumbing every stand-in shares: a loopback server whose handler errors become 500s,
// bounded body reading, JSON answers, and the fault kinds that look the same on every channel
// (slow answers, reset connections), so each stand-in renders only its channel's own shapes.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StandinFault } from "./channel-standin.js";

const MAX_BODY_BYTES = 20 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(`body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(body === undefined ? undefined : JSON.stringify(body));
}

export function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location }).end();
}

export type StandinHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) => Promise<void>;

export async function startLoopbackServer(
  handler: StandinHandler,
  options: { host?: string; port?: number } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://standin.local");
    handler(request, response, url).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      const tooLarge = error instanceof BodyTooLarge;
      sendJson(response, tooLarge ? 413 : 500, {
        error: tooLarge
          ? "request body too large"
          : `stand-in failure: ${(error as Error).message}`,
      });
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays what a fault looks like on every channel: `slow` waits and lets the request go on
 * (null); `reset` destroys the socket ("handled"). Any other fault is returned for the
 * channel to answer in its own shape.
 */
export async function playCommonFault(
  fault: StandinFault | null,
  response: ServerResponse,
): Promise<StandinFault | "handled" | null> {
  if (!fault) return null;
  if (fault.kind === "slow") {
    await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    return null;
  }
  if (fault.kind === "reset") {
    response.socket?.destroy();
    return "handled";
  }
  return fault;
}

/** Form or query parameters as a plain object (the last value of a repeated key wins). */
export const paramsOf = (search: URLSearchParams): Record<string, string> =>
  Object.fromEntries(search.entries());
