import fastify from "fastify";

// The baseline: as little as Fastify can do, served from its own process like the gateway.
const app = fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));

const shutdown = () => void app.close().then(() => process.exit(0));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 3001) });
