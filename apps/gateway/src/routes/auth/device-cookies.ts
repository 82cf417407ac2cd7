// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signs in to an account gets a cookie, signed with a server secret and bound to that account,
// that lets it sign in there again however many failures others spent from its address; its own
// failures have a budget of their own (login-limiter.ts, `fromDevice`).
import { hkdfSync, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CredentialKeyring } from "@catalog/db";
import { accountKey } from "./login-limiter.js";

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_COOKIE_TTL_SECONDS = 180 * 24 * 3600;

/**
 * The secrets @fastify/cookie signs with (the first signs, all verify): one derived (HKDF) from
 * each of CREDENTIALS_KEYS, so every instance of a deployment shares them, a rotated-out key's
 * cookies stay valid while that key is listed, and the credentials keys themselves never sign
 * anything. Without CREDENTIALS_KEYS (tests, a bare local run) a random secret of this process:
 * its device cookies hold on this process until it restarts, elsewhere they are simply absent.
 */
export function deviceCookieSecrets(keyring: CredentialKeyring | null): Buffer[] {
  if (!keyring) return [randomBytes(32)];
  return [...keyring.byId.values()].map((key) =>
    Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "catalog-service device cookies", 32)),
  );
}

/** One cookie per account, so a browser shared by several users keeps each one's standing. */
const cookieName = (account: string) => `device_${account.slice(0, 16)}`;

export interface DeviceCookies {
  /**
   * The id of the device cookie this browser holds for the login's account, when it is valid
   * (signed by us, for this account, not expired).
   */
  read(request: FastifyRequest, email: string): string | null;
  /** Gives the browser a new device cookie for the account it just signed in to. */
  issue(reply: FastifyReply, email: string): void;
}

/** The cookie holds `<account>.<id>.<expiry>`, signed; `secure` as the session cookie's. */
export function deviceCookies(secure: boolean): DeviceCookies {
  return {
    read(request, email) {
      const account = accountKey(email);
      const cookie = request.cookies[cookieName(account)];
      if (!cookie) return null;
      const { valid, value } = request.unsignCookie(cookie);
      if (!valid || value === null) return null;
      const [bound, id, expiry, ...rest] = value.split(".");
      if (bound !== account || !id || rest.length > 0 || !(Number(expiry) * 1000 > Date.now()))
        return null;
      return id;
    },
    issue(reply, email) {
      const account = accountKey(email);
      const id = randomBytes(16).toString("base64url");
      const expiry = Math.floor(Date.now() / 1000) + DEVICE_COOKIE_TTL_SECONDS;
      // Only the sign-in route reads it: sent on /api paths, by this site's own pages only.
      reply.setCookie(cookieName(account), `${account}.${id}.${expiry}`, {
        signed: true,
        httpOnly: true,
        sameSite: "strict",
        path: "/api",
        secure,
        maxAge: DEVICE_COOKIE_TTL_SECONDS,
      });
    },
  };
}
