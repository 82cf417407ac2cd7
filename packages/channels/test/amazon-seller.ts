// What the Amazon tests share: the stand-in and the registry's Amazon channel for one test file
// (each test keeping Amazon's contract), a seller connected through the consent page, and the
// dry-run check. amazon.test.ts checks the connect flow itself.
import { channelsConfigFrom } from "./channels-env.js";
import {
  createChannelRegistry,
  type DestinationTarget,
  type PublishableProduct,
} from "../src/index.js";
import { startAmazonStandin, type ChannelStandin } from "../src/standins/index.js";

export const redirectUri = "https://catalog.example/api/integrations/amazon/callback";

export interface AmazonForTests {
  /** Set once the file's tests run. */
  standin: ChannelStandin;
  channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
  /** A seller connected through the consent page, with a product type chosen. */
  connectSeller: (productType?: string) => Promise<DestinationTarget & { storeId: string }>;
  /** The channel's dry-run check of one product for one destination. */
  preflight: (
    destination: DestinationTarget,
    p: PublishableProduct,
  ) => ReturnType<AmazonForTests["channel"]["preflight"]>;
}

/** Starts the stand-in before the file's tests and stops it after them. */
export function useAmazon(): AmazonForTests {
  const amazon: AmazonForTests = {
    standin: null!,
    channel: null!,
    async connectSeller(productType = "HOME") {
      const { url, pending } = await amazon.channel.connect!.start({
        state: "st-1",
        redirectUri,
        query: { marketplaceId: "ATVPDKIKX0DER" },
      });
      const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
      const account = await amazon.channel.connect!.finish({
        params: Object.fromEntries(back.searchParams),
        pending,
        redirectUri,
        signal: AbortSignal.timeout(3_000),
      });
      const sellerId = back.searchParams.get("selling_partner_id")!;
      return {
        id: `d-${sellerId}`,
        channel: "amazon",
        baseUrl: account.baseUrl,
        credentials: account.credentials,
        settings: { ...account.settings, productType },
        storeId: sellerId,
      };
    },
    preflight: (destination, p) =>
      amazon.channel.preflight({ product: p, destination, signal: AbortSignal.timeout(3_000) }),
  };
  beforeAll(async () => {
    amazon.standin = await startAmazonStandin({ callbackUrl: redirectUri });
    amazon.channel = createChannelRegistry(channelsConfigFrom(amazon.standin.env), {
      timeoutMs: 3_000,
    }).channel("amazon");
  });
  afterAll(() => amazon.standin.close());
  afterEach(() => {
    amazon.standin.clearFaults();
    expect(amazon.standin.violations).toEqual([]);
  });
  return amazon;
}
