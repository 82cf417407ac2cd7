// What every channel's local stand-in offers to tests, the demo and benchmarks, whatever the
// channel's wire format: listings per store, counters, faults on demand played in the channel's
// own error and throttling shapes, an authorize page that approves at once (or denies once), and
// the contract violations it saw when started with the channel's published contract.
import type { ChannelName } from "../../channel-names.js";
import type { ContractViolation } from "../contract/contract-check.js";

export type StandinFault =
  | { kind: "slow"; delayMs: number; times?: number }
  | { kind: "error"; status: 500 | 502 | 503; times?: number }
  /**
   * retryAfterSeconds absent: no Retry-After header at all; retryAfterAsDate: send it as an
   * HTTP-date.
   */
  | { kind: "throttle"; retryAfterSeconds?: number; retryAfterAsDate?: boolean; times?: number }
  | { kind: "reset"; times?: number }
  | { kind: "auth"; times?: number }
  | { kind: "invalid"; message: string; field?: string; times?: number };

/**
 * A listing as the stand-in holds it, in channel-neutral terms for assertions; `raw` is the
 * channel's own record.
 */
export interface ListingSummary {
  id: string;
  sku: string | null;
  title: string;
  /** Decimal string as the channel keeps it ("19.99"). */
  priceAmount: string | null;
  variantSkus: string[];
  imageCount: number;
  /**
   * The listing's description exactly as the channel received it (HTML or text, as the channel
   * takes it), or null.
   */
  description: string | null;
  /** 1 on create, +1 per update. */
  version: number;
  /** Units the listing offers (its first variant's when it has variants), or null if unknown. */
  quantity: number | null;
  raw: unknown;
}

export interface StandinCounts {
  /** Listings created (an idempotent replay is not a create). */
  create: number;
  /** Writes to an existing listing. */
  update: number;
  /**
   * Every API request that named this store, faulted ones included (authorize and token requests
   * excluded).
   */
  requests: number;
  /**
   * Requests per route of the channel's API, counted once the store and route are known
   * (faulted and throttled ones included): `"POST /bulk_update_price_quantity"`, or a GraphQL
   * document's root field (`"productSet"`).
   */
  routes: Record<string, number>;
}

export interface ChannelStandin {
  readonly channel: ChannelName;
  /** Where it listens, http://127.0.0.1:<port>. */
  readonly url: string;
  /**
   * The environment that points the gateway and the publish worker at this stand-in (base URLs,
   * client id and secret).
   */
  readonly env: Record<string, string>;
  /**
   * Stores that exist, oldest first: an authorization creates one (its id is the destination's
   * externalId or shop).
   */
  storeIds(): string[];
  store(storeId: string): { listings: ListingSummary[]; counts: StandinCounts };
  /**
   * Faults apply to the store's API requests; `times` plays the fault that many times, absent =
   * until cleared.
   */
  setFault(storeId: string, fault: StandinFault | null): void;
  clearFaults(): void;
  /** The next authorization answers `error=access_denied` instead of a code. */
  denyNextAuthorization(): void;
  /**
   * Every access token of the store stops working (401) until refreshed; no-op for channels whose
   * tokens do not expire.
   */
  expireAccessTokens(storeId: string): void;
  /**
   * Declares the channel's request rate per store (null: none): a request over it is throttled
   * in the channel's shape (429 with Retry-After).
   */
  setRate(perSecond: number | null): void;
  readonly rate: number | null;
  /** Requests that broke the channel's published contract (only when started with it). */
  readonly violations: ContractViolation[];
  close(): Promise<void>;
}
