// How a merchant connects a store: the gateway owns sessions, the single-use `state`, sealing
// and storing; a channel's ConnectFlow only knows its own authorize URL, how to check its
// callback and how to turn a code (or delivered keys) into credentials. Flows touch no database.
import type { ChannelName } from "./channel-names.js";

/**
 * A connect request or callback the merchant (or the channel) got wrong: the gateway answers
 * `status` with `message`.
 */
export class ConnectError extends Error {
  override readonly name = "ConnectError";
  constructor(
    readonly status: 400 | 401 | 403 | 422 | 502 | 503,
    message: string,
  ) {
    super(message);
  }
}

export interface ConnectStartInput {
  /** Single-use, unguessable; the flow must send it to the channel and expect it back. */
  state: string;
  /** Our callback: `<PUBLIC_URL>/api/integrations/<channel>/callback`. */
  redirectUri: string;
  /**
   * The connect request's query string (for example `shop` for Shopify, `storeUrl` for
   * WooCommerce).
   */
  query: Record<string, string>;
}

export interface ConnectRedirect {
  /** The channel's authorize page the merchant's browser is sent to. */
  url: string;
  /**
   * Kept server-side with the state and handed back to `finish` (PKCE verifier, shop domain, store
   * URL). Never sent to the browser.
   */
  pending: Record<string, string>;
}

export interface ConnectFinishInput {
  /**
   * The callback's query string (GET), or the keys a channel delivered server-to-server
   * (WooCommerce's POST), as strings.
   */
  params: Record<string, string>;
  pending: Record<string, string>;
  redirectUri: string;
  signal: AbortSignal;
}

/** What the gateway seals and stores as a new destination account. */
export interface ConnectedAccount {
  name: string;
  externalId: string | null;
  baseUrl: string;
  credentials: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export interface ConnectFlow {
  readonly channel: ChannelName;
  /**
   * Which configuration variables are missing for this channel (empty when it can be connected).
   */
  missingConfiguration(): string[];
  /**
   * Checks the connect request and builds the authorize URL; throws ConnectError(422) for bad
   * input.
   */
  start(input: ConnectStartInput): Promise<ConnectRedirect>;
  /**
   * Checks the callback (signature, `error` parameters) and exchanges the code for tokens.
   * A refusal by the merchant or a bad signature is a ConnectError (403/401); the channel's
   * token endpoint failing is a ConnectError(502) with the channel's words.
   */
  finish(input: ConnectFinishInput): Promise<ConnectedAccount>;
  /**
   * WooCommerce only: the channel POSTs the keys to our callback from its own server, and the
   * merchant's browser comes back separately. The state arrives in this parameter of that POST.
   */
  readonly deliveredStateParam?: string;
}
