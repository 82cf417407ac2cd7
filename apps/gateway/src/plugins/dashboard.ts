import { access } from "node:fs/promises";
import { join } from "node:path";
import fp from "fastify-plugin";
import fastifyStatic from "@fastify/static";
import type { FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { acceptsHtml } from "../accept.js";
import { helmetHeaders } from "./security-headers.js";

/** Hashed file names change with their content, so a browser may keep them for good (a year). */
const ASSET_MAX_AGE_MS = 31_536_000_000;
/**
 * Files Vite copies as they are (favicon, robots.txt): same name across builds, so kept briefly.
 */
const PUBLIC_FILE_CACHE = "public, max-age=3600";

// The dashboard's page gets helmet's headers (plugins/security-headers.ts) with a CSP of its own:
// scripts, styles and API calls from this origin only; images come from wherever the catalog's
// products keep them (merchants' shops, often plain http) and data URLs. Nothing may frame the
// dashboard (clickjacking).
const PAGE_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", "https:", "http:", "data:"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: "same-origin" },
  xFrameOptions: { action: "deny" },
};

/** Paths that belong to the API and the operators: never the dashboard, even for a browser. */
const SERVER_PATHS = /^\/(api|docs|healthz|readyz|metrics)(\/|$)/;
/** A last segment with an extension names a file, not a dashboard screen. */
const FILE_PATH = /\/[^/]*\.[^/]+$/;

const NO_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard has not been built</h1>
<p>Build it with <code>pnpm dashboard:build</code>, then reload this page. The API is available under <a href="/docs">/docs</a>.</p>
</body></html>
`;

/**
 * Serves the dashboard's build (`dir`, DASHBOARD_DIR) at `/`: hashed `/assets/*` cached for a year
 * (brotli or gzip when the build compressed them), `index.html` never cached, and every other GET a
 * browser makes outside the API and the operators' paths answered with `index.html`, so the
 * dashboard's router can show that screen. Anything else keeps the API's JSON 404. Without a build,
 * HTML requests get a 503 page that says how to build it; the build is looked for on each request,
 * so building while the gateway runs needs no restart.
 */
export const dashboardPlugin = fp(
  async (app: FastifyInstance, { dir }: { dir: string }) => {
    const pageHeaders = await helmetHeaders(PAGE_HEADERS);
    await app.register(fastifyStatic, {
      root: join(dir, "assets"),
      prefix: "/assets/",
      index: false,
      // "public, max-age=31536000, immutable"; sendFile below passes cacheControl: false and sets
      // its own.
      maxAge: ASSET_MAX_AGE_MS,
      // The build writes .br and .gz beside each script and stylesheet
      // (apps/dashboard/scripts/compress-assets.mjs): sent as the browser's Accept-Encoding allows
      // (Vary: Accept-Encoding), else the file itself.
      preCompressed: true,
      immutable: true,
      suppressWarning: true,
    });

    const index = async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.pageHeaders(pageHeaders);
      // A new build must reach every browser at once: index.html names the current assets.
      reply.header("cache-control", "no-store");
      const built = await access(join(dir, "index.html")).then(
        () => true,
        () => false,
      );
      if (!built) return reply.code(503).type("text/html; charset=utf-8").send(NO_BUILD_PAGE);
      return reply.sendFile("index.html", dir, { cacheControl: false });
    };

    const hidden = { schema: { hide: true } };
    app.get("/", hidden, index);
    app.get("/index.html", hidden, index);
    // Only what no other route matched comes here (find-my-way prefers every static path).
    app.get("/*", hidden, async (request, reply) => {
      const path = request.url.split("?")[0] ?? "/";
      if (SERVER_PATHS.test(path)) return reply.callNotFound();
      if (FILE_PATH.test(path)) {
        reply.header("cache-control", PUBLIC_FILE_CACHE);
        let file: string;
        try {
          file = decodeURIComponent(path.slice(1));
        } catch {
          return reply.callNotFound();
        }
        // Dotfiles (a stray .env, an editor's state) are never part of the build.
        if (file.split(/[\\/]/).some((segment) => segment.startsWith(".")))
          return reply.callNotFound();
        // send refuses paths that leave `dir` and dotfiles; a missing file is the JSON 404.
        return reply.sendFile(file, dir, { cacheControl: false });
      }
      if (!acceptsHtml(request.headers.accept)) return reply.callNotFound();
      return index(request, reply);
    });
  },
  { name: "dashboard", dependencies: ["errors", "security-headers"] },
);
