import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { ServiceError, openSession, revokeSession, type Db, type SessionPrincipal } from "@catalog/db";
import { SESSION_COOKIE, principalOf } from "../../plugins/auth.js";
import { rateLimitExceeded } from "../../plugins/rate-limit.js";
import { errorResponses } from "../../schemas/common.js";
import { LoginBodySchema, SessionSchema } from "./schemas.js";

export interface AuthRoutesOptions {
  db: Db;
  sessionTtlSeconds: number;
  cookieSecure: boolean;
  loginRateLimit: { max: number; windowSeconds: number };
}

const view = (p: SessionPrincipal) => ({ user: p.user, org: p.org });

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, options) => {
  const { db } = options;
  const tags = ["auth"];
  // Login attempts have their own, stricter budget, counted per address and account once the
  // body is parsed: guessing one account's password is slowed without locking out everyone
  // behind the same address.
  const checkLogin = app.createRateLimit({
    max: options.loginRateLimit.max,
    timeWindow: options.loginRateLimit.windowSeconds * 1000,
    keyGenerator: (request) => `login:${request.ip}:${String((request.body as { email?: unknown }).email).trim().toLowerCase()}`,
  });

  app.post("/auth/session", {
    preHandler: async (request) => {
      const limit = await checkLogin(request);
      if (!limit.isAllowed && limit.isExceeded) throw rateLimitExceeded(limit.max, limit.ttlInSeconds);
    },
    schema: {
      tags,
      summary: "Sign in: opens a server-side session and sets its cookie",
      body: LoginBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 422, 429) },
    },
  }, async (request, reply) => {
    const opened = await openSession(db, request.body.email, request.body.password, options.sessionTtlSeconds);
    if (!opened) throw new ServiceError(401, "wrong email or password");
    reply.setCookie(SESSION_COOKIE, opened.token, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: options.cookieSecure,
      maxAge: options.sessionTtlSeconds,
    });
    return view(opened.principal);
  });

  app.get("/auth/session", {
    onRequest: app.requireSession,
    schema: { tags, summary: "The signed-in user and org", security: [{ session: [] }], response: { 200: SessionSchema, ...errorResponses(401) } },
  }, async (request) => view(principalOf(request)));

  app.delete("/auth/session", {
    onRequest: app.requireSession,
    schema: { tags, summary: "Sign out: revokes the session server-side", security: [{ session: [] }], response: { 204: Type.Null(), ...errorResponses(401) } },
  }, async (request, reply) => {
    await revokeSession(db, principalOf(request).sessionId);
    await app.caches.sessionEnded();
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return reply.code(204).send(null);
  });
};
