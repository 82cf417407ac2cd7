import { ConfigError } from "@catalog/config";
import { loadGatewayConfig } from "@catalog/config/gateway";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";

test("defaults apply and text from the environment becomes typed values", () => {
  const config = loadGatewayConfig({
    PORT: "4100",
    LAB_MODE: "true",
    CORS_ORIGINS: "https://a.test, https://b.test",
  });
  expect(config).toMatchObject({
    PORT: 4100,
    LAB_MODE: true,
    LOCAL_INGEST: false,
    RATE_LIMIT_MAX: 600,
  });
  expect(config.CORS_ORIGINS).toEqual(["https://a.test", "https://b.test"]);
});

test("bad values stop start-up with one message naming each bad variable", () => {
  expect(() =>
    loadGatewayConfig({ PORT: "eighty", LOG_LEVEL: "loud", RATE_LIMIT_MAX: "0" }),
  ).toThrow(ConfigError);
  try {
    loadGatewayConfig({ PORT: "eighty", LOG_LEVEL: "loud" });
  } catch (error) {
    expect((error as Error).message).toMatch(/PORT: must be integer/);
    expect((error as Error).message).toMatch(
      /LOG_LEVEL: must be equal to one of the allowed values/,
    );
  }
});

test("the publish worker's leases default to 5 s renewed every second; a heartbeat that does not fit twice in a lease stops start-up", () => {
  const env = { CREDENTIALS_KEYS: "k1:key" };
  expect(loadPublishWorkerConfig(env)).toMatchObject({
    JOB_LOCK_MS: 5_000,
    LEASE_HEARTBEAT_MS: 1_000,
  });
  expect(() =>
    loadPublishWorkerConfig({ ...env, JOB_LOCK_MS: "2000", LEASE_HEARTBEAT_MS: "1500" }),
  ).toThrow(/LEASE_HEARTBEAT_MS \(1500\) must be at most half of JOB_LOCK_MS \(2000\)/);
});

test("every process writes its Redis keys under the prefix as a cluster hash tag, and a prefix with braces stops start-up", () => {
  const env = { CREDENTIALS_KEYS: "k1:key", REDIS_PREFIX: "shop-eu", REDIS_CLUSTER: "true" };
  for (const load of [loadGatewayConfig, loadPublishWorkerConfig, loadImportWorkerConfig]) {
    expect(load(env)).toMatchObject({ redisKeyPrefix: "{shop-eu}", REDIS_CLUSTER: true });
    expect(load({ CREDENTIALS_KEYS: "k1:key" })).toMatchObject({
      redisKeyPrefix: "{catalog}",
      REDIS_CLUSTER: false,
    });
    expect(() => load({ ...env, REDIS_PREFIX: "{shop}" })).toThrow(
      /REDIS_PREFIX "\{shop\}" must not hold \{ or \}/,
    );
  }
});

test("the cookies' Secure flag follows PUBLIC_URL (https: Secure), and COOKIE_SECURE still decides when it is set", () => {
  expect(loadGatewayConfig({}).COOKIE_SECURE).toBe(false);
  expect(loadGatewayConfig({ PUBLIC_URL: "https://catalog.example.com" }).COOKIE_SECURE).toBe(true);
  expect(loadGatewayConfig({ PUBLIC_URL: "http://catalog.localhost" }).COOKIE_SECURE).toBe(false);
  expect(
    loadGatewayConfig({ PUBLIC_URL: "https://catalog.example.com", COOKIE_SECURE: "false" })
      .COOKIE_SECURE,
  ).toBe(false);
  expect(
    loadGatewayConfig({ PUBLIC_URL: "http://127.0.0.1:3000", COOKIE_SECURE: "true" }).COOKIE_SECURE,
  ).toBe(true);
});

test("TRUST_PROXY names the proxies by address or range; a hop count or anything else stops start-up", () => {
  expect(loadGatewayConfig({}).TRUST_PROXY).toBe(false);
  expect(loadGatewayConfig({ TRUST_PROXY: "uniquelocal" }).TRUST_PROXY).toEqual(["uniquelocal"]);
  expect(loadGatewayConfig({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.10,fd00::/8" }).TRUST_PROXY).toEqual(
    ["10.0.0.0/8", "192.0.2.10", "fd00::/8"],
  );
  for (const bad of ["1", "10.0.0.0/33", "ingress", "10.0.0.1/8/8"]) {
    expect(() => loadGatewayConfig({ TRUST_PROXY: bad })).toThrow(
      /TRUST_PROXY .* must be false, or the addresses or CIDR ranges of the proxies/,
    );
  }
});

test("the webhook sender's retry schedule defaults to Standard Webhooks' and must be a list of milliseconds", () => {
  expect(loadImportWorkerConfig({})).toMatchObject({
    WEBHOOK_RETRY_DELAYS_MS: "5000,300000,1800000,7200000,18000000,36000000,36000000",
    WEBHOOK_DISABLE_AFTER_MS: 5 * 24 * 3600_000,
    WEBHOOK_TIMEOUT_MS: 15_000,
    WEBHOOK_PRIVATE_URLS: false,
  });
  expect(loadImportWorkerConfig({ WEBHOOK_RETRY_DELAYS_MS: "10, 20,30" })).toMatchObject({
    WEBHOOK_RETRY_DELAYS_MS: "10, 20,30",
  });
  expect(() => loadImportWorkerConfig({ WEBHOOK_RETRY_DELAYS_MS: "5s,1m" })).toThrow(
    /WEBHOOK_RETRY_DELAYS_MS/,
  );
});
