// add-destination: a store an operator already holds credentials for (a Shopify custom app's
// Admin API token, WooCommerce REST keys), without the merchant's OAuth round trip. The secret
// comes on stdin, never on the command line (where `ps` and shell history would show it); it is
// tried on the store before it is sealed with CREDENTIALS_KEYS and kept.
import { shopifyAccountFromToken, woocommerceAccountFromKeys, type ConnectedAccount } from "@catalog/channels";
import { connectDestination, findOrg, parseKeyring } from "@catalog/db";
import { UsageError, required, type Command } from "./commands-kit.js";

const CHECK_TIMEOUT_MS = 30_000;

export const addDestination: Command = {
  usage: "add-destination --org <id or name> --channel shopify --shop <shop>.myshopify.com  (the Admin API access token on stdin)\n"
    + "  add-destination --org <id or name> --channel woocommerce --store-url <https://store> --consumer-key <ck_...>  (the consumer secret on stdin)",
  async run(db, flags, readSecret, config) {
    if (!config.CREDENTIALS_KEYS) throw new UsageError("add-destination needs CREDENTIALS_KEYS in the environment (the same keys as the gateway and the publish workers)");
    const keyring = parseKeyring(config.CREDENTIALS_KEYS);
    const org = await findOrg(db, required(flags, "org"));
    const channel = required(flags, "channel");
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    let account: ConnectedAccount;
    if (channel === "shopify") {
      const shop = required(flags, "shop");
      account = await shopifyAccountFromToken(config.channels, { shop, accessToken: await readSecret() }, signal);
    } else if (channel === "woocommerce") {
      const storeUrl = required(flags, "store-url");
      const consumerKey = required(flags, "consumer-key");
      account = await woocommerceAccountFromKeys(config.channels, { storeUrl, consumerKey, consumerSecret: await readSecret() }, signal);
    } else {
      throw new UsageError(`--channel must be shopify or woocommerce (eBay and Etsy connect through /api/integrations/<channel>/connect), not "${channel}"`);
    }
    const { destination, reconnected } = await connectDestination(db, keyring, { orgId: org.id, channel, ...account });
    return {
      text: `${reconnected ? "Replaced the credentials of" : "Added"} ${channel} destination "${destination.name}" (${destination.id}) in org "${org.name}"`,
      json: { destination, reconnected },
    };
  },
};
