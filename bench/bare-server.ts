import { readFileSync } from "node:fs";
import fastify from "fastify";

// The ceilings: as little as Fastify can do, served from its own process like the gateway. `/` is
// a hello-world; `/page` sends a body captured from the gateway (BARE_BODY_FILE: a cached catalog
// page as the gateway sends it), pre-built as a Buffer with the gateway's content type, so the
// gap to the gateway is what the gateway does per request, not the bytes it sends.
const app = fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));

const bodyFile = process.env.BARE_BODY_FILE;
if (bodyFile) {
  const body = readFileSync(bodyFile);
  const contentType = process.env.BARE_BODY_TYPE ?? "application/json; charset=utf-8";
  app.get("/page", (_request, reply) => {
    reply.header("content-type", contentType).send(body);
  });
}

const shutdown = () => void app.close().then(() => process.exit(0));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 3001) });
