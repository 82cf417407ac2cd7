// GET /api/destinations/settings-options: the choices of one setting of a store (eBay's business
// policies, inventory locations, categories for typed words), asked of the channel with the
// store's own credentials, refreshed first when they are about to expire or the channel refuses
// them (an eBay access token lives two hours). A channel's failure is a 502 in words, which the
// form shows beside the field it lets the merchant type instead.
import type { Static } from "typebox";
import {
  isChannelError,
  type ChannelFailure,
  type ChannelField,
  type ChannelRegistry,
  type SettingOption,
} from "@catalog/channels";
import { callWithCredentials } from "@catalog/channels/credentials";
import {
  invalid,
  isUuid,
  loadDestinationTarget,
  notFound,
  ServiceError,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import type { RedisClient } from "@catalog/queue";
import type { SettingsOptionsQuerySchema, SettingsOptionsSchema } from "./schemas.js";

/** A channel that does not answer within this long is reported as not answering. */
const OPTIONS_TIMEOUT_MS = 15_000;
/** Fewer characters than this find too much to be useful (and eBay refuses empty words). */
const MIN_SEARCH = 2;

export interface SettingsOptionsDeps {
  db: Db;
  channels: ChannelRegistry;
  /** Opens the store's credentials; null when the gateway holds no keys (then 503). */
  keyring: CredentialKeyring | null;
  /** Where the lock of a token refresh is held, shared with the publish workers. */
  redis: RedisClient;
  redisPrefix: string;
}

export async function settingsOptions(
  deps: SettingsOptionsDeps,
  orgId: string,
  query: Static<typeof SettingsOptionsQuerySchema>,
  signal: AbortSignal,
): Promise<Static<typeof SettingsOptionsSchema>> {
  if (!isUuid(query.id)) throw notFound("destination");
  const row = await deps.db.destinationAccount.findFirst({
    where: { id: query.id, orgId, disconnectedAt: null },
    select: { channel: true },
  });
  if (!row) throw notFound("destination");
  const channel = deps.channels.channel(row.channel);
  const field = channel.settingsFields.find((f) => f.name === query.field);
  if (!field) throw invalid(`${channel.displayName} has no setting named ${query.field}`);
  const { adapter } = channel;
  if (!field.choices || !adapter.settingsOptions)
    throw invalid(`${channel.displayName} offers no choices for ${field.label}: type it in`);
  const ask = adapter.settingsOptions.bind(adapter);
  const words = (query.q ?? "").trim();
  if (field.choices === "search" && words.length < MIN_SEARCH)
    throw invalid(`q: type at least ${MIN_SEARCH} characters to search for a ${field.label}`);
  if (!deps.keyring)
    throw new ServiceError(
      503,
      "this server holds no credential keys (CREDENTIALS_KEYS), so it cannot ask the store",
    );
  const target = await loadDestinationTarget(deps.db, deps.keyring, query.id);
  if (!target) throw notFound("destination");
  const settings = query.marketplaceId
    ? { ...target.settings, marketplaceId: query.marketplaceId }
    : target.settings;
  const callSignal = AbortSignal.any([signal, AbortSignal.timeout(OPTIONS_TIMEOUT_MS)]);
  const refresh = {
    db: deps.db,
    redis: deps.redis,
    prefix: deps.redisPrefix,
    keyring: deps.keyring,
    channelTimeoutMs: OPTIONS_TIMEOUT_MS,
  };
  let options: SettingOption[];
  try {
    options = await callWithCredentials(refresh, adapter, target, callSignal, (fresh) =>
      ask({
        destination: { ...fresh, settings },
        field: field.name,
        query: words,
        signal: callSignal,
      }),
    );
  } catch (error) {
    if (isChannelError(error))
      throw new ServiceError(502, refusal(channel.displayName, field, error));
    throw error;
  }
  return { field: field.name, choices: field.choices, options };
}

/** Why the channel gave no choices, in a merchant's words. */
function refusal(name: string, field: ChannelField, error: ChannelFailure): string {
  const what = `${name} did not list your ${field.label.toLowerCase()} choices`;
  if (error.outcome === "wait") return `${what}: it asked us to slow down, try again in a minute`;
  if (error.outcome === "give-up" && error.kind === "auth")
    return `${what}: it refused this store's access, connect the store again`;
  if (error.outcome === "give-up") return `${what}: ${error.channelMessage}`;
  return `${what}: it ${error.status ? `answered with an error (${error.status})` : "did not answer"}, try again later`;
}
