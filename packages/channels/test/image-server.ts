import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Serves the same PNG at /<n>.png (any other path is 404), on loopback, keeping the paths asked
 * for.
 */
export async function startImageServer(
  png: Buffer,
): Promise<{ url: (path: string) => string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "/");
    if (/^\/\d+\.png$/.test(request.url ?? ""))
      response.writeHead(200, { "content-type": "image/png" }).end(png);
    else response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
