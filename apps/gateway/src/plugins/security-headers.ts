import fp from "fastify-plugin";
import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";

/** The API answers data, never a page: nothing may load into it or frame it. */
const API_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  xFrameOptions: { action: "deny" },
};

/** Headers every answer has whatever sets them: not helmet's. */
const NOT_HELMETS = new Set(["content-type", "content-length", "date", "connection", "keep-alive"]);

/**
 * The headers helmet sets with `options`, worked out once: @fastify/helmet builds helmet's
 * middleware again for every request (its directives parsed, its headers formatted), a few
 * percent of a cached read's CPU for the same handful of constant strings.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get("/", async () => "");
  const res = await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  return Object.entries(res.headers)
    .filter(([name]) => !NOT_HELMETS.has(name))
    .map(([name, value]) => [name, String(value)]);
}

/**
 * Helmet's headers on every answer: nosniff, HSTS (browsers heed it only over https), no framing,
 * no referrer, same-origin opener and resource policies, and a CSP that lets nothing load or frame
 * an API answer. They go into Fastify's own headers of the reply, which Node takes in one pass when
 * the answer is written (setting each on the raw response costs its checks twice, a few percent of a
 * cached read). A page of its own (the dashboard, plugins/dashboard.ts) calls `pageHeaders`, which
 * sets helmet's for it instead; the OpenAPI page's CSP is set by Swagger UI over this one
 * (plugins/openapi.ts). Registered before every hook that may answer early (rate limit, CORS,
 * auth), so their answers carry the headers too.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = Object.fromEntries(await helmetHeaders(API_HEADERS));
    // `global: false`: the plugin only provides `reply.helmet(...)`.
    await app.register(helmet, { ...API_HEADERS, global: false });
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    app.decorateReply("pageHeaders", function (this: FastifyReply, options: FastifyHelmetOptions) {
      for (const name of Object.keys(headers)) this.removeHeader(name);
      return this.helmet(options);
    });
  },
  { name: "security-headers" },
);

declare module "fastify" {
  interface FastifyReply {
    /** Helmet's headers with `options` in place of the API's (a page the browser shows). */
    pageHeaders(options: FastifyHelmetOptions): ReturnType<FastifyReply["helmet"]>;
  }
}
