import { PassThrough } from "node:stream";
import fp from "fastify-plugin";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RedisClient } from "@catalog/queue";
import { ServiceError, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { loadRunView } from "./run-view.js";
import { RunWatchers } from "./run-watchers.js";

/** How often a followed run is read again. */
const POLL_MS = 1_000;
/** A comment this often keeps proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/**
 * Open streams per session on one gateway instance: a tab left open per run is fine, a leak is not.
 */
export const MAX_STREAMS_PER_SESSION = 5;

export interface RunEvents {
  watchers: RunWatchers;
  /** Streams open now, on every session. */
  readonly open: number;
  /**
   * Answers the run's event stream (server-sent events) until the run is finished or the client
   * leaves.
   */
  stream(request: FastifyRequest, reply: FastifyReply, runId: string): Promise<FastifyReply>;
}

declare module "fastify" {
  interface FastifyInstance {
    runEvents: RunEvents;
  }
}

const event = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;

/**
 * Live publish runs as server-sent events: `event: run` with the whole run JSON once at the
 * start and whenever it changes, a `: heartbeat` comment every 15 s, and `event: end` once the
 * run is finished (then the stream closes). Registered once at the root, so /api and /api/v1
 * share the pollers and the per-session limit; streams end when the gateway closes.
 */
export const runEventsPlugin = fp(
  async (
    app: FastifyInstance,
    { db, redis, redisPrefix }: { db: Db; redis: RedisClient; redisPrefix: string },
  ) => {
    const watchers = new RunWatchers(
      (orgId, runId) => loadRunView(db, redis, redisPrefix, orgId, runId),
      POLL_MS,
      app.log,
    );
    const perSession = new Map<string, number>();
    const closers = new Set<() => void>();

    const release = (sessionId: string) => {
      const n = (perSession.get(sessionId) ?? 1) - 1;
      if (n <= 0) perSession.delete(sessionId);
      else perSession.set(sessionId, n);
    };

    async function stream(
      request: FastifyRequest,
      reply: FastifyReply,
      runId: string,
    ): Promise<FastifyReply> {
      const principal = principalOf(request);
      const orgId = principal.org.id;
      const sessionId = principal.sessionId;
      if ((perSession.get(sessionId) ?? 0) >= MAX_STREAMS_PER_SESSION) {
        throw new ServiceError(
          429,
          `this session already follows ${MAX_STREAMS_PER_SESSION} publish runs live: close one of them (or poll GET /api/publish-runs/${runId})`,
          { "retry-after": "5" },
        );
      }
      // Before the stream opens, so an unknown run is a plain 404.
      const first = await watchers.current(orgId, runId);
      perSession.set(sessionId, (perSession.get(sessionId) ?? 0) + 1);

      const out = new PassThrough();
      let closed = false;
      let unsubscribe = () => {};
      const heartbeat = setInterval(() => out.write(": heartbeat\n\n"), HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        release(sessionId);
        closers.delete(close);
        out.end();
      };
      const send = (run: { finished: boolean }, json: string) => {
        if (closed) return;
        out.write(event("run", json));
        if (run.finished) {
          out.write(event("end", JSON.stringify({ id: runId })));
          close();
        }
      };
      closers.add(close);
      // The client left (tab closed, navigation): stop reading the run for it at once.
      reply.raw.on("close", close);
      send(first, JSON.stringify(first));
      if (!closed) unsubscribe = watchers.watch(orgId, runId, first, send);

      return (
        reply
          .header("content-type", "text/event-stream; charset=utf-8")
          .header("cache-control", "no-cache, no-transform")
          // Proxies such as nginx buffer responses unless told not to.
          .header("x-accel-buffering", "no")
          .send(out)
      );
    }

    app.decorate("runEvents", {
      watchers,
      get open() {
        return closers.size;
      },
      stream,
    });
    // Open streams would hold the server's close until their runs finish.
    app.addHook("preClose", async () => {
      for (const close of [...closers]) close();
      watchers.close();
    });
  },
  { name: "run-events" },
);
