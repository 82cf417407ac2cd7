// A channel is one folder: a sixth channel defined only in a test fixture folder, added to a
// test-only list, shows up in the configuration, the routes, the OpenAPI document and the
// end-to-end suite's cases without any other file knowing it.
import { CHANNEL_DEFINITIONS, createChannelRegistry, type ChannelName } from "@catalog/channels";
import { CHANNEL_STANDINS } from "@catalog/channels/standins";
import { GatewayEnvSchema, gatewayEnvSchema, loadGatewayConfig } from "@catalog/config/gateway";
import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";
import { newKeyringSpec } from "@catalog/db";
import { createTestOrg } from "@catalog/testing";
import { dummyDefinition } from "../../../packages/channels/test/fixtures/dummy-channel/index.js";
import { dummyStandin } from "../../../packages/channels/test/fixtures/dummy-channel/dummy-standin.js";
import { channelCases } from "../../publish-worker/test/channel-cases.js";
import type { ChannelList } from "../src/api-types.js";
import { login, startGateway, type Gateway } from "./harness.js";

const channels = [...CHANNEL_DEFINITIONS, dummyDefinition];
const env = {
  CREDENTIALS_KEYS: newKeyringSpec(),
  DUMMY_CLIENT_ID: "dummy-app",
  DUMMY_API_URL: "https://market.dummy.example/",
};
let gw: Gateway;
let owner: string;

beforeAll(async () => {
  gw = await startGateway(env, { channels });
  const t = await createTestOrg(gw.db, "channel-module");
  owner = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(() => gw.close());

test("config: the dummy's variables are read and checked with the others, only where the list has it", () => {
  expect(Object.keys(gatewayEnvSchema(channels).properties)).toEqual(
    expect.arrayContaining(["DUMMY_CLIENT_ID", "DUMMY_API_URL", "SHOPIFY_CLIENT_ID"]),
  );
  expect(Object.keys(GatewayEnvSchema.properties)).not.toContain("DUMMY_API_URL");
  expect(gw.config.channels.apps.dummy).toEqual({
    clientId: "dummy-app",
    apiUrl: "https://market.dummy.example",
  });
  const worker = loadPublishWorkerConfig(
    { ...process.env, CREDENTIALS_KEYS: env.CREDENTIALS_KEYS, DUMMY_API_URL: "http://127.0.0.1:1" },
    channels,
  );
  expect(worker.channels.apps.dummy).toEqual({ clientId: "", apiUrl: "http://127.0.0.1:1" });
  expect(() => loadGatewayConfig({}, [dummyDefinition, dummyDefinition])).toThrow(
    /DUMMY_CLIENT_ID, which is already declared/,
  );
});

test("routes: the dummy is listed with its forms and connects through its own flow", async () => {
  const res = await gw.app.inject({
    method: "GET",
    url: "/api/channels",
    headers: { cookie: owner },
  });
  const dummy = res.json<ChannelList>().items.find((c) => c.channel === "dummy");
  expect(dummy).toMatchObject({
    displayName: "Dummy Market",
    configured: true,
    connectFields: [
      { name: "seller", label: "Seller handle", required: true, placeholder: "acme" },
    ],
    settingsFields: [
      { name: "region", label: "Region", required: true },
      { name: "fastShipping", required: false },
    ],
  });
  const start = await gw.app.inject({
    method: "GET",
    url: "/api/integrations/dummy/connect?seller=acme",
    headers: { cookie: owner },
  });
  expect(start.statusCode).toBe(302);
  expect(start.headers.location).toMatch(
    /^https:\/\/market\.dummy\.example\/authorize\?client_id=dummy-app&/,
  );
  const missing = await gw.app.inject({
    method: "GET",
    url: "/api/integrations/dummy/connect",
    headers: { cookie: owner },
  });
  expect(missing.statusCode).toBe(422);
});

test("OpenAPI: the integration routes document the dummy's name, connect field and callback parameter", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<{
    paths: Record<
      string,
      Record<
        string,
        { description?: string; parameters?: { name: string; in: string; description?: string }[] }
      >
    >;
  }>();
  const connect = doc.paths["/api/integrations/{channel}/connect"]!.get!;
  expect(connect.description).toContain("Dummy Market `seller`");
  expect(
    connect.parameters!.find((p) => p.in === "path" && p.name === "channel")?.description,
  ).toContain("dummy");
  const callback = doc.paths["/api/integrations/{channel}/callback"]!.get!;
  expect(callback.parameters!.find((p) => p.name === "dummy_grant")?.description).toMatch(
    /^Dummy Market: /,
  );
  expect(callback.parameters!.find((p) => p.name === "hmac")?.description).toMatch(/^Shopify: /);
});

test("the end-to-end suite has a case for the dummy when its stand-in is listed", () => {
  const cases = channelCases([...CHANNEL_STANDINS, dummyStandin]);
  expect(cases.map((c) => c.channel)).toEqual([
    "shopify",
    "ebay",
    "etsy",
    "woocommerce",
    "amazon",
    "dummy",
  ]);
  expect(cases.at(-1)).toMatchObject({ settings: { region: "north" }, variants: false });
});

test("settings: the dummy's schema checks a destination's settings, naming the setting", () => {
  const dummy = createChannelRegistry(gw.config.channels, undefined, channels).channel(
    "dummy" as ChannelName,
  );
  expect(dummy.checkSettings({})).toEqual(["region is required"]);
  expect(dummy.checkSettings({ region: "north", fastShipping: "yes" })).toEqual([
    'fastShipping must be true or false, not "yes"',
  ]);
  expect(dummy.checkSettings({ region: "north", fastShipping: "true" })).toEqual([]);
});
