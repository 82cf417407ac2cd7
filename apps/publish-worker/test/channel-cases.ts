import type { ChannelName } from "@catalog/channels";
import { startEbayStandin, startEtsyStandin, startShopifyStandin, startWoocommerceStandin, type ChannelStandin, type StandinOptions } from "@catalog/channels/standins";
import { randomBytes } from "node:crypto";

/** How a merchant connects and sets up one channel in the end-to-end tests. */
export interface ChannelCase {
  channel: Exclude<ChannelName, "standin">;
  start(options: StandinOptions): Promise<ChannelStandin>;
  /** The connect request's query for a new store on the stand-in. */
  connectQuery(standin: ChannelStandin): Record<string, string> | Promise<Record<string, string>>;
  /** Settings the merchant sets after connecting (PATCH /api/destinations), or null. */
  settings: Record<string, string | number> | null;
  /** Products carry variants with options. */
  variants: boolean;
  /** Access tokens expire and are refreshed. */
  expiringTokens: boolean;
}

export const CHANNEL_CASES: ChannelCase[] = [
  {
    channel: "shopify", start: startShopifyStandin, variants: true, expiringTokens: false, settings: null,
    connectQuery: () => ({ shop: `acme-${randomBytes(3).toString("hex")}.myshopify.com` }),
  },
  {
    channel: "ebay", start: startEbayStandin, variants: true, expiringTokens: true, connectQuery: () => ({}),
    settings: {
      marketplaceId: "EBAY_US", categoryId: "20625", merchantLocationKey: "warehouse-1",
      paymentPolicyId: "pay-1", returnPolicyId: "ret-1", fulfillmentPolicyId: "ful-1",
    },
  },
  {
    channel: "etsy", start: startEtsyStandin, variants: true, expiringTokens: true, connectQuery: () => ({}),
    settings: { taxonomyId: 1633, readinessStateId: 7 },
  },
  {
    channel: "woocommerce", start: startWoocommerceStandin, variants: true, expiringTokens: false, settings: null,
    connectQuery: (standin) => ({ storeUrl: (standin as ChannelStandin & { createStore(): { storeUrl: string } }).createStore().storeUrl }),
  },
];
