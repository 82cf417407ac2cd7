import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface FixturePage {
  body: string | Buffer;
  status?: number;
  contentType?: string;
  /** Answer only after this long, to play a slow site. */
  delayMs?: number;
  /** Answer only once this has settled, for a test that decides when the site answers. */
  gate?: Promise<unknown>;
  headers?: Record<string, string>;
}

/** Serves fixed pages on loopback, like a shop's website, for tests that fetch over HTTP. */
export async function startFixtureServer(
  pages: Record<string, FixturePage>,
): Promise<{ url: (path: string) => string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    hits.push(path);
    const page = pages[path];
    const send = () => {
      if (!page)
        return void response
          .writeHead(404, { "content-type": "text/html" })
          .end("<h1>Not found</h1>");
      response
        .writeHead(page.status ?? 200, {
          "content-type": page.contentType ?? "text/html; charset=utf-8",
          ...page.headers,
        })
        .end(page.body);
    };
    if (page?.delayMs) setTimeout(send, page.delayMs).unref();
    else if (page?.gate) void page.gate.then(send, send);
    else send();
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
