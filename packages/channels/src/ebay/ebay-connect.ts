// eBay's OAuth code grant: the seller signs in on eBay's authorize page, eBay sends them back
// through the app's RuName (registered with eBay to point at our callback), and the code is
// exchanged for a two-hour access token and an 18-month refresh token.
import type { ChannelContext } from "../channel-definition.js";
import { ConnectError, type ConnectFlow } from "../connect.js";
import { isChannelError } from "../errors.js";
import type { EbayApp } from "./ebay-env.js";
import { requestEbayToken } from "./ebay-token.js";

export function ebayConnect({ app }: ChannelContext<EbayApp>): ConnectFlow {
  return {
    channel: "ebay",
    missingConfiguration: () =>
      [
        !app.clientId && "EBAY_CLIENT_ID",
        !app.clientSecret && "EBAY_CLIENT_SECRET",
        !app.ruName && "EBAY_RU_NAME",
      ].filter((v): v is string => !!v),
    async start({ state }) {
      const url = new URL(app.authUrl);
      url.search = new URLSearchParams({
        client_id: app.clientId,
        response_type: "code",
        redirect_uri: app.ruName,
        scope: app.scopes,
        state,
      }).toString();
      return { url: url.toString(), pending: {} };
    },
    async finish({ params, signal }) {
      if (params.error)
        throw new ConnectError(403, `the eBay seller refused access (${params.error})`);
      if (!params.code) throw new ConnectError(400, "the callback carries no code");
      try {
        const credentials = await requestEbayToken(
          app,
          app.apiUrl,
          { grant_type: "authorization_code", code: params.code, redirect_uri: app.ruName },
          signal,
          15_000,
        );
        return {
          name: "eBay seller",
          externalId: null,
          baseUrl: app.apiUrl,
          credentials: { ...credentials },
          settings: {},
        };
      } catch (error) {
        if (isChannelError(error))
          throw new ConnectError(502, `eBay's token endpoint refused the code: ${error.message}`);
        throw error;
      }
    },
  };
}
