// The channels as the gateway, the publish worker and the CLI use them: each listed definition
// built once with the configuration, so none of them imports a channel folder.
import type { TObject, TSchema } from "typebox";
import type { ChannelAdapter } from "./adapter.js";
import type { ChannelName } from "./channel-names.js";
import type {
  AnyChannelDefinition,
  ChannelContext,
  ChannelRateLimit,
} from "./channel-definition.js";
import { fieldsOf, type ChannelField } from "./channel-fields.js";
import { CHANNEL_DEFINITIONS } from "./channel-list.js";
import type { ChannelsConfig } from "./channels-config.js";
import type { ChannelReport } from "./channel-notifications.js";
import type { ConnectedAccount, ConnectFlow } from "./connect.js";
import { GiveUpChannelError, isChannelError } from "./errors.js";
import {
  problemOf,
  settingsProblem,
  type PreflightInput,
  type PreflightProblem,
} from "./preflight.js";
import { checkSettings as checkSettingsAgainst } from "./settings-check.js";

export interface ChannelOptions {
  /** Budget of one publish (all its requests), and of one token refresh. */
  timeoutMs: number;
}

/**
 * One channel, built: how to publish, how a merchant connects, which destination settings it needs.
 */
export interface Channel {
  channel: ChannelName;
  displayName: string;
  adapter: ChannelAdapter;
  /** null for channels that are only added by an operator (the stand-in). */
  connect: ConnectFlow | null;
  /**
   * Problems with a destination's settings, each naming the setting; empty when publishing can
   * start.
   */
  checkSettings(settings: Record<string, unknown>): string[];
  /**
   * Everything a publish of the product to the destination would be refused for before (or, for
   * a channel with a validating mode, at) the channel: the settings' problems, then the
   * product's. Creates nothing; empty means the channel's own checks are the only ones left.
   */
  preflight(input: PreflightInput): Promise<PreflightProblem[]>;
  /** What a merchant names before connecting (the connect request's query), from `connectQuery`. */
  connectFields: ChannelField[];
  /** The destination settings publishing reads, from the settings schema. */
  settingsFields: ChannelField[];
  connectQuery: TObject;
  callbackQuery: TObject;
  /** Adding a store from credentials an operator holds (the CLI), or null. */
  operatorAccount: {
    flags: Record<string, string>;
    secret: string;
    create(
      flags: Record<string, string>,
      secret: string,
      signal: AbortSignal,
    ): Promise<ConnectedAccount>;
  } | null;
  /**
   * The limit the publish worker's rate gate holds each destination to (in publishes), or null for
   * the worker's setting.
   */
  rateLimit: ChannelRateLimit | null;
  /** Taking the channel's own notifications about listings, or null when it sends none. */
  notifications: {
    /** Empty while the operator has not set it (then none are taken). */
    secret: string;
    secretVariable: string;
    body: TSchema;
    read: (body: unknown) => ChannelReport;
  } | null;
}

export interface ChannelRegistry {
  channel(name: ChannelName): Channel;
  /** Every channel, in the list's order (the stand-in last). */
  channels(): Channel[];
  adapter(name: ChannelName): ChannelAdapter;
}

function build(
  definition: AnyChannelDefinition,
  config: ChannelsConfig,
  options: ChannelOptions,
): Channel {
  const checkSettings = (settings: Record<string, unknown>) => {
    const { value, problems } = checkSettingsAgainst(definition.settings, settings);
    return problems.length > 0 ? problems : (definition.settingsRules?.(value) ?? []);
  };
  if (!(definition.name in config.apps))
    throw new Error(`the configuration was read without channel ${definition.name}`);
  const context: ChannelContext<unknown> = {
    app: config.apps[definition.name],
    publicUrl: config.publicUrl,
    allowPrivateStoreUrls: config.allowPrivateStoreUrls,
    timeoutMs: options.timeoutMs,
  };
  const operator = definition.operatorAccount;
  return {
    channel: definition.name as ChannelName,
    displayName: definition.displayName,
    adapter: definition.adapter(context),
    connect: definition.connect?.(context) ?? null,
    checkSettings,
    async preflight(input) {
      const problems = checkSettings(input.destination.settings).map(settingsProblem);
      try {
        problems.push(...((await definition.preflight?.(context, input)) ?? []));
      } catch (error) {
        if (error instanceof GiveUpChannelError) problems.push(problemOf(error));
        else if (isChannelError(error))
          problems.push({
            field: "destination",
            message: `${definition.displayName} could not check it now: ${error.message}`,
          });
        else throw error;
      }
      // A setting the hook names again (a channel's own settings parser) is listed once.
      return problems.filter(
        (p, n) => problems.findIndex((q) => q.field === p.field && q.message === p.message) === n,
      );
    },
    connectFields: fieldsOf(definition.connectQuery),
    settingsFields: fieldsOf(definition.settings),
    connectQuery: definition.connectQuery,
    callbackQuery: definition.callbackQuery,
    operatorAccount: operator
      ? {
          flags: operator.flags,
          secret: operator.secret,
          create: (flags, secret, signal) => operator.create(context, flags, secret, signal),
        }
      : null,
    rateLimit: definition.rateLimit ?? null,
    notifications: definition.notifications
      ? { ...definition.notifications, secret: definition.notifications.secret(context.app) }
      : null,
  };
}

export function createChannelRegistry(
  config: ChannelsConfig,
  options: ChannelOptions = { timeoutMs: 10_000 },
  definitions: readonly AnyChannelDefinition[] = CHANNEL_DEFINITIONS,
): ChannelRegistry {
  const channels = new Map(definitions.map((d) => [d.name, build(d, config, options)]));
  const channel = (name: ChannelName) => {
    const found = channels.get(name);
    // Give up rather than retry: no amount of retrying makes a missing adapter appear.
    if (!found)
      throw new GiveUpChannelError(`publishing to ${name} is not supported`, {
        channel: name,
        kind: "validation",
      });
    return found;
  };
  return {
    channel,
    channels: () => [...channels.values()],
    adapter: (name) => channel(name).adapter,
  };
}
