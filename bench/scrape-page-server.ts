// The shop for bench/scrape-bench.ts: the shared corpus's product pages, decompressed once at
// start, served as static HTML at /p/0 ... /p/<PAGES - 1> (page n is corpus page n mod count,
// corpus pages in file-name order). Plain node:http, no compression, no per-request work
// beyond writing the bytes, so the server is never what the bench measures.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import { corpusDir, listPageFiles } from "../packages/extract/test/support/corpus-accuracy.js";

const pageCount = Number(process.env.PAGES ?? 500);
const files = listPageFiles().sort();
if (files.length === 0) throw new Error(`no pages under ${corpusDir().pathname}`);
const bodies = files.map((file) => gunzipSync(readFileSync(new URL(file, corpusDir()))));

const server = createServer((request, response) => {
  const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
  const n = match ? Number(match[1]) : -1;
  if (request.url === "/ready") {
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  } else if (n >= 0 && n < pageCount) {
    const body = bodies[n % bodies.length] as Buffer;
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length })
      .end(body);
  } else {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found");
  }
});
server.keepAliveTimeout = 30_000;

const shutdown = () => server.close(() => process.exit(0));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
server.listen(Number(process.env.PORT ?? 3002), process.env.HOST ?? "127.0.0.1");
