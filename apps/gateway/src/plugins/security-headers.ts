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
 * The headers helmet sets with `options`, worked out once by asking helmet itself: @fastify/helmet
 * builds helmet's middleware again for every request (its directives parsed, its headers
 * formatted) and adds two hooks to every request even when it is not global, one of them async,
 * for the same handful of constant strings.
 */
export async function helmetHeaders(
  options: FastifyHelmetOptions,
): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get("/", async () => "");
  const res = await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  return Object.fromEntries(
    Object.entries(res.headers)
      .filter(([name]) => !NOT_HELMETS.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * Helmet's headers on every answer: nosniff, HSTS (browsers heed it only over https), no framing,
 * no referrer, same-origin opener and resource policies, and a CSP that lets nothing load or frame
 * an API answer. They go into Fastify's own headers of the reply, which Node takes in one pass when
 * the answer is written (setting each on the raw response costs its checks twice, a few percent of a
 * cached read). A page of its own (the dashboard, plugins/dashboard.ts) works out its set once with
 * `helmetHeaders` and puts it in place of the API's with `reply.pageHeaders`; the OpenAPI page's
 * CSP is set by Swagger UI over this one (plugins/openapi.ts). Registered before every hook that
 * may answer early (rate limit, CORS, auth), so their answers carry the headers too.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = await helmetHeaders(API_HEADERS);
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    app.decorateReply("pageHeaders", function (this: FastifyReply, page: Record<string, string>) {
      for (const name of Object.keys(headers)) this.removeHeader(name);
      this.headers(page);
    });
  },
  { name: "security-headers" },
);

declare module "fastify" {
  interface FastifyReply {
    /** A page's own security headers (from `helmetHeaders`) in place of the API's. */
    pageHeaders(headers: Record<string, string>): void;
  }
}
