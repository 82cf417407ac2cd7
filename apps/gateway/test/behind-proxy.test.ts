// The gateway behind an ingress: every request arrives from the proxy's address (here the
// injected requests' 127.0.0.1), which names the client in X-Forwarded-For and the scheme and
// host the browser used in X-Forwarded-Proto and -Host.
import { createTestOrg } from "@catalog/testing";
import { errorOf, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";

const gateways: Gateway[] = [];
afterAll(() => Promise.all(gateways.map((g) => g.close())));

async function gateway(env: Record<string, string>) {
  const gw = await startGateway({ REDIS_PREFIX: privatePrefix("proxy"), ...env });
  gateways.push(gw);
  return gw;
}

/**
 * A request as the ingress forwards it: the client's own X-Forwarded-For (if it sent one), then the
 * address the ingress saw.
 */
const forwarded = (clientAddress: string, sentByClient?: string) => ({
  "x-forwarded-for": sentByClient ? `${sentByClient}, ${clientAddress}` : clientAddress,
});

test("behind a trusted proxy, clients with different addresses get separate budgets, and none can pick its own by writing X-Forwarded-For", async () => {
  const gw = await gateway({ TRUST_PROXY: "127.0.0.1", RATE_LIMIT_MAX: "2" });
  const get = (headers: Record<string, string>) =>
    gw.app.inject({ method: "GET", url: "/api/products", headers }).then((r) => r.statusCode);
  const codes = [
    await get(forwarded("203.0.113.1")),
    await get(forwarded("203.0.113.1")),
    await get(forwarded("203.0.113.1")),
    // A second client behind the same ingress has a budget of its own...
    await get(forwarded("203.0.113.2")),
    await get(forwarded("203.0.113.2")),
    // ...and the first one cannot get a fresh one by naming another address itself.
    await get(forwarded("203.0.113.1", "198.51.100.7")),
  ];
  expect(codes).toEqual([401, 401, 429, 401, 401, 429]);
});

test("behind a trusted proxy, failed logins count against the client's address, not the proxy's", async () => {
  const gw = await gateway({ TRUST_PROXY: "127.0.0.1", LOGIN_ADDRESS_RATE_LIMIT_MAX: "3" });
  const t = await createTestOrg(gw.db, "proxy-logins");
  const login = (address: string, password: string, sentByClient?: string) =>
    gw.app.inject({
      method: "POST",
      url: "/api/auth/session",
      headers: forwarded(address, sentByClient),
      payload: { email: t.member.email, password },
    });
  for (let i = 0; i < 3; i++)
    expect((await login("203.0.113.1", "wrong-password")).statusCode).toBe(401);
  const spent = await login("203.0.113.1", "wrong-password", "198.51.100.7");
  expect(spent.statusCode).toBe(429);
  expect(errorOf(spent)).toMatch(/3 failed logins from this address/);
  // Another user behind the same ingress signs in.
  expect((await login("203.0.113.2", t.member.password)).statusCode).toBe(200);
});

test("without TRUST_PROXY the proxy's address is the client: X-Forwarded-For is ignored", async () => {
  const gw = await gateway({ RATE_LIMIT_MAX: "2" });
  const codes: number[] = [];
  for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
    codes.push(
      (await gw.app.inject({ method: "GET", url: "/api/products", headers: forwarded(address) }))
        .statusCode,
    );
  }
  expect(codes).toEqual([401, 401, 429]);
});

test("behind a TLS ingress, a dashboard at the public https origin passes the Origin check", async () => {
  const gw = await gateway({ TRUST_PROXY: "127.0.0.1", PUBLIC_URL: "https://catalog.example" });
  const headers = {
    origin: "https://catalog.example",
    host: "gateway:3000",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "catalog.example",
  };
  const res = await gw.app.inject({ method: "DELETE", url: "/api/auth/session", headers });
  // Past the Origin check to the session check: no session here.
  expect(res.statusCode).toBe(401);
  const foreign = await gw.app.inject({
    method: "DELETE",
    url: "/api/auth/session",
    headers: { ...headers, origin: "https://elsewhere.example" },
  });
  expect(foreign.statusCode).toBe(403);
});
