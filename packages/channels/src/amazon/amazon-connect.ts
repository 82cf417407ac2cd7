// Amazon's website authorization workflow: the seller consents on Seller Central
// (`/apps/authorize/consent?application_id=...&state=...`, plus `version=beta` while the app is a
// draft), Amazon sends them back with `state`, `selling_partner_id` and `spapi_oauth_code`, and
// the code is exchanged at LWA for a refresh token (and a first access token).
import type { ChannelContext } from "../channel-definition.js";
import { ConnectError, type ConnectFlow } from "../connect.js";
import { isChannelError } from "../errors.js";
import type { AmazonApp } from "./amazon-env.js";
import { requestLwaToken } from "./amazon-token.js";

const MARKETPLACE = /^[A-Z0-9]{10,16}$/;

export function amazonConnect({ app }: ChannelContext<AmazonApp>): ConnectFlow {
  return {
    channel: "amazon",
    missingConfiguration: () =>
      [
        !app.clientId && "AMAZON_LWA_CLIENT_ID",
        !app.clientSecret && "AMAZON_LWA_CLIENT_SECRET",
        !app.appId && "AMAZON_APP_ID",
      ].filter((v): v is string => !!v),
    async start({ state, redirectUri, query }) {
      const marketplaceId = query.marketplaceId?.trim() || app.marketplaceId;
      if (!MARKETPLACE.test(marketplaceId))
        throw new ConnectError(
          422,
          `marketplaceId must be an Amazon marketplace id such as ATVPDKIKX0DER, not "${marketplaceId}"`,
        );
      const url = new URL(`${app.sellerCentralUrl}/apps/authorize/consent`);
      url.search = new URLSearchParams({
        application_id: app.appId,
        state,
        redirect_uri: redirectUri,
        ...(app.draft ? { version: "beta" } : {}),
      }).toString();
      return { url: url.toString(), pending: { marketplaceId } };
    },
    async finish({ params, pending, redirectUri, signal }) {
      if (params.error)
        throw new ConnectError(403, `the Amazon seller refused access (${params.error})`);
      const code = params.spapi_oauth_code;
      const sellerId = params.selling_partner_id;
      if (!code || !sellerId)
        throw new ConnectError(
          400,
          "the callback carries no spapi_oauth_code or selling_partner_id",
        );
      try {
        const credentials = await requestLwaToken(
          app,
          { grant_type: "authorization_code", code, redirect_uri: redirectUri },
          signal,
          15_000,
        );
        if (!credentials.refreshToken)
          throw new ConnectError(502, "Amazon's token endpoint gave no refresh token");
        return {
          name: `Amazon seller ${sellerId}`,
          externalId: sellerId,
          baseUrl: app.apiUrl,
          credentials: { ...credentials, sellingPartnerId: sellerId },
          settings: { sellerId, marketplaceId: pending.marketplaceId ?? app.marketplaceId },
        };
      } catch (error) {
        if (isChannelError(error))
          throw new ConnectError(502, `Amazon's token endpoint refused the code: ${error.message}`);
        throw error;
      }
    },
  };
}
