// The channel stand-ins' control API over HTTP: what the demo (or a stand-in in another process)
// offers to look at a store's listings and to make it misbehave on demand.
import { channelsConfigFrom } from "./channels-env.js";
import { ChannelWaitError, createChannelRegistry } from "../src/index.js";
import {
  startEbayStandin,
  startEtsyStandin,
  startShopifyStandin,
  startWoocommerceStandin,
  type ChannelStandin,
} from "../src/standins/index.js";
import { failureOf } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";

const starts: [string, () => Promise<ChannelStandin>][] = [
  ["shopify", () => startShopifyStandin({ contract: false })],
  ["ebay", () => startEbayStandin({ contract: false })],
  ["etsy", () => startEtsyStandin({ contract: false })],
  ["woocommerce", () => startWoocommerceStandin({ contract: false })],
];

test.each(starts)(
  "%s: stores are listed, a malformed fault is refused with the reason, a malformed store name is 400, unknown routes are 404",
  async (_name, start) => {
    const standin = await start();
    try {
      expect(await (await fetch(`${standin.url}/_control/stores`)).json()).toEqual({
        stores: standin.storeIds(),
      });
      const bad = await fetch(`${standin.url}/_control/stores/s1/fault`, {
        method: "POST",
        body: JSON.stringify({ kind: "error", status: 418 }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        error: { code: "bad_fault", message: "fault.status must be 500, 502 or 503" },
      });
      expect(
        (
          await fetch(`${standin.url}/_control/stores/s1/fault`, {
            method: "POST",
            body: "{not json",
          })
        ).status,
      ).toBe(400);
      expect((await fetch(`${standin.url}/_control/nothing`)).status).toBe(404);
      expect((await fetch(`${standin.url}/_control/stores/%E0%A4%A`)).status).toBe(400);
      expect(await (await fetch(`${standin.url}/_control/violations`)).json()).toEqual({
        violations: [],
      });
    } finally {
      await standin.close();
    }
  },
);

test("a fault set over HTTP is played to the adapter in the channel's shape; the store's listings are visible", async () => {
  const standin = await startWoocommerceStandin({ contract: false });
  try {
    const channel = createChannelRegistry(channelsConfigFrom(standin.env), {
      timeoutMs: 3_000,
    }).channel("woocommerce");
    const { storeId, storeUrl, consumerKey, consumerSecret } = standin.createStore();
    const dest = {
      id: "d",
      channel: "woocommerce" as const,
      baseUrl: storeUrl,
      credentials: { consumerKey, consumerSecret },
      settings: {},
    };
    const set = await fetch(`${standin.url}/_control/stores/${storeId}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "throttle", retryAfterSeconds: 7, times: 1 }),
    });
    expect(set.status).toBe(200);
    const throttled = await failureOf(
      channel.adapter.publish(publishInput(dest, product({ variants: [] }))),
    );
    expect(throttled).toBeInstanceOf(ChannelWaitError);
    expect((throttled as ChannelWaitError).retryAfterMs).toBe(7_000);
    const published = await channel.adapter.publish(
      publishInput(dest, product({ variants: [], title: "Jug" })),
    );
    const seen = (await (await fetch(`${standin.url}/_control/stores/${storeId}`)).json()) as {
      listings: { id: string; title: string }[];
      counts: { create: number };
    };
    expect(seen.listings).toEqual([
      expect.objectContaining({ id: published.remoteId, title: "Jug" }),
    ]);
    expect(seen.counts.create).toBe(1);
    await fetch(`${standin.url}/_control/stores/${storeId}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "error", status: 503 }),
    });
    expect((await fetch(`${standin.url}/_control/faults`, { method: "DELETE" })).status).toBe(204);
    await channel.adapter.publish(
      publishInput(dest, product({ variants: [], title: "Jug" }), { remoteId: published.remoteId }),
    );
  } finally {
    await standin.close();
  }
});
