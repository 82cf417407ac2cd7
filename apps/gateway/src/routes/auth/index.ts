import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import { Type } from "typebox";
import {
  ServiceError,
  openSession,
  revokeSession,
  type Db,
  type Role,
  type SessionPrincipal,
} from "@catalog/db";
import { SESSION_COOKIE, principalOf } from "../../plugins/auth.js";
import { errorResponses, type SameNames } from "../../schemas/common.js";
import { deviceCookies } from "./device-cookies.js";
import { createLoginLimiter, type LoginBudgets } from "./login-limiter.js";
import { LoginBodySchema, SessionSchema, type ROLE_NAMES } from "./schemas.js";

const rolesMatch: SameNames<Role, (typeof ROLE_NAMES)[number]> = true;
void rolesMatch;

export interface AuthRoutesOptions {
  db: Db;
  sessionTtlSeconds: number;
  cookieSecure: boolean;
  redis: RedisClient;
  // `redisPrefix`, not `prefix`: Fastify reads a plugin option named `prefix` as the routes' URL
  // prefix.
  redisPrefix: string;
  loginBudgets: LoginBudgets;
}

const view = (p: SessionPrincipal) => ({ user: p.user, org: p.org });

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, options) => {
  const { db } = options;
  const tags = ["auth"];
  // Failed logins have their own budgets, per address and account (guessing one account's
  // password) and per address across accounts (spraying many); successful ones cost nothing. A
  // browser with a device cookie for the account has its own budget instead of the address's.
  const limiter = createLoginLimiter(
    options.redis,
    options.redisPrefix,
    options.loginBudgets,
    app.log,
  );
  const devices = deviceCookies(options.cookieSecure);

  app.post(
    "/auth/session",
    {
      schema: {
        tags,
        operationId: "createSession",
        security: [],
        summary: "Sign in: opens a server-side session and sets its cookie",
        description:
          "Sets the session cookie and a device cookie for the account. Failed logins are limited (429 with Retry-After) " +
          "per address and per address and account; a browser that sends the device cookie of an earlier sign-in to the same account " +
          "is limited by that cookie's own budget instead, so others' failures from its address do not lock it out.",
        body: LoginBodySchema,
        response: { 200: SessionSchema, ...errorResponses(400, 401, 422, 429) },
      },
    },
    async (request, reply) => {
      const device = devices.read(request, request.body.email);
      const attempt = device
        ? await limiter.fromDevice(device)
        : await limiter.fromAddress(request.ip, request.body.email);
      // Only a wrong email or password spends the failure budget, not a success or our own fault.
      const opened = await openSession(
        db,
        request.body.email,
        request.body.password,
        options.sessionTtlSeconds,
      ).catch(async (error: unknown) => {
        await attempt.notFailed();
        throw error;
      });
      if (!opened) throw new ServiceError(401, "wrong email or password");
      await attempt.notFailed();
      reply.setCookie(SESSION_COOKIE, opened.token, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: options.cookieSecure,
        maxAge: options.sessionTtlSeconds,
      });
      devices.issue(reply, request.body.email);
      return view(opened.principal);
    },
  );

  app.get(
    "/auth/session",
    {
      onRequest: app.requireSession,
      schema: {
        tags,
        operationId: "getSession",
        summary: "The signed-in user and org",
        security: [{ session: [] }],
        response: { 200: SessionSchema, ...errorResponses(401) },
      },
    },
    async (request) => view(principalOf(request)),
  );

  app.delete(
    "/auth/session",
    {
      onRequest: app.requireSession,
      schema: {
        tags,
        operationId: "deleteSession",
        summary: "Sign out: revokes the session server-side",
        security: [{ session: [] }],
        response: { 204: Type.Null(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await revokeSession(db, principalOf(request).sessionId);
      await app.caches.sessionEnded();
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.code(204).send(null);
    },
  );
};
