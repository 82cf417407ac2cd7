// A channel is one module: its folder exports one ChannelDefinition holding everything the rest
// of the service needs to know about it, and channel-list.ts names the definitions. Config,
// the gateway's routes and OpenAPI text, the CLI and the end-to-end suite read them from there.
import type { Static, TObject } from "typebox";
import type { ChannelAdapter } from "./adapter.js";
import type { ChannelName } from "./channel-names.js";
import type { ChannelNotifications } from "./channel-notifications.js";
import type { ConnectedAccount, ConnectFlow } from "./connect.js";
import type { PreflightInput, PreflightProblem } from "./preflight.js";

/** What a channel's adapter and connect flow are built with. */
export interface ChannelContext<App> {
  /** This channel's part of the configuration, read from its `env`. */
  app: App;
  /**
   * Where browsers reach the gateway (callbacks are
   * `<publicUrl>/api/integrations/<channel>/callback`).
   */
  publicUrl: string;
  /** Store addresses on private or loopback networks are allowed (development and tests). */
  allowPrivateStoreUrls: boolean;
  /** Budget of one publish (all its requests), and of one token refresh. */
  timeoutMs: number;
}

/**
 * A store an operator already holds credentials for, added without the merchant's round trip (the
 * CLI's add-destination).
 */
export interface OperatorAccount<App> {
  /** Command-line flags it needs, each with what it holds (`shop`: "<shop>.myshopify.com"). */
  flags: Record<string, string>;
  /** What the operator types on stdin (never on the command line). */
  secret: string;
  /** Checks the credentials on the store and gives what is sealed and stored. */
  create(
    context: ChannelContext<App>,
    flags: Record<string, string>,
    secret: string,
    signal: AbortSignal,
  ): Promise<ConnectedAccount>;
}

/**
 * A channel's documented request limit for one destination account (Amazon: per selling
 * partner), as the publish worker's rate gate holds it. The gate counts publishes (jobs), not
 * requests: it is asked once before each job is taken, and a publish may make several requests
 * (Amazon: a GET lookup and a put or patch for the parent and for each child). So a channel
 * states it in publishes per second, sized conservatively from its request limit divided by the
 * requests a typical publish makes; the channel's 429 stays the backstop for larger publishes
 * and goes through the existing wait machinery (ChannelWaitError).
 */
export interface ChannelRateLimit {
  /** Publishes a destination may start in one second (the gate's one-second window). */
  perSecond: number;
  /**
   * Most publishes in any short stretch. The gate's windows are fixed seconds, so two windows
   * back to back can let two windows' worth through at their edge: each window allows
   * min(perSecond, floor(burst / 2)) (at least one), which keeps any two adjacent windows
   * within `burst`.
   */
  burst: number;
}

export interface ChannelDefinition<
  Name extends string = string,
  Env extends TObject = TObject,
  App = unknown,
> {
  /** The Prisma `Channel` enum's value (a test checks the enum against the list). */
  name: Name;
  /** How people name the channel ("Shopify", "eBay"). */
  displayName: string;
  /**
   * Its environment variables, with defaults; merged into the gateway's and the publish worker's.
   */
  env: Env;
  /** Its part of the configuration, from its variables (already checked against `env`). */
  app(env: Static<Env>): App;
  /**
   * A destination's settings: PATCH /api/destinations is refused (422, naming each setting) and a
   * publish gives up before any call while they do not match; the dashboard's form is drawn
   * from it (`title` is the label, `description` the help, `examples[0]` the placeholder).
   */
  settings: TObject;
  /**
   * Checks one setting against another, which the schema cannot say; each problem names its
   * setting.
   */
  settingsRules?(settings: Static<TObject>): string[];
  /**
   * What a publish of this product to this destination would be refused for, without creating
   * anything (POST /api/products/publish with dryRun). Settings are checked before it, against
   * `settings` and `settingsRules`; this names the product's problems, with the same functions
   * the adapter gives up with before its first call (a GiveUpChannelError thrown here is
   * reported as a problem too). A channel with a validating mode of its own (Amazon's
   * putListingsItem with mode=VALIDATION_PREVIEW) may call it here, through its adapter, with
   * `input.signal`. Without it, only the settings are checked.
   */
  preflight?(
    context: ChannelContext<App>,
    input: PreflightInput,
  ): Promise<PreflightProblem[]> | PreflightProblem[];
  /**
   * The connect request's query: what a merchant names before connecting (drawn as the connect
   * form).
   */
  connectQuery: TObject;
  /** The parameters the channel puts on our callback (documented in the OpenAPI text). */
  callbackQuery: TObject;
  adapter(context: ChannelContext<App>): ChannelAdapter;
  /** Absent for channels only an operator adds (the stand-in). */
  connect?(context: ChannelContext<App>): ConnectFlow;
  operatorAccount?: OperatorAccount<App>;
  /**
   * The channel's limit for each destination account, which the publish worker's rate gate holds
   * that channel's destinations to in place of DESTINATION_RATE_PER_SECOND. Counted in
   * publishes (jobs), not requests: see ChannelRateLimit. Absent: the worker's setting applies.
   */
  rateLimit?: ChannelRateLimit;
  /**
   * Notifications the channel sends about listings on its own (Amazon's status and issues changes).
   */
  notifications?: ChannelNotifications<App>;
}

/** Any channel's definition, as lists hold them. */
export type AnyChannelDefinition = ChannelDefinition<string, TObject, unknown>;

/**
 * Infers the definition's name, variables and configuration, so its parts are checked against each
 * other.
 */
export const defineChannel = <const Name extends string, Env extends TObject, App>(
  definition: ChannelDefinition<Name, Env, App>,
) => definition;

/** The definition's name, typed as a channel of the list (test-only lists may hold others). */
export const channelNameOf = (definition: { name: string }) => definition.name as ChannelName;
