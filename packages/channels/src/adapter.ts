// The contract between the publish worker and a sales channel. The worker loads everything from
// PostgreSQL (job payloads carry ids only), decrypts the destination's credentials and hands the
// adapter plain data; the adapter never touches the database, Redis or the queue. Every failure
// it reports is one of the classes in errors.ts, so the worker can decide retry / give up / wait.

import type { ChannelName } from "./channel-names.js";

export interface PublishableVariant {
  sku?: string | null;
  title?: string | null;
  priceAmount?: string | null;
  options?: Record<string, string>;
  gtin?: string | null;
  /** Units in stock; null or absent when unknown (then the product's `quantity` applies). */
  quantity?: number | null;
}

export interface PublishableProduct {
  id: string;
  sku: string | null;
  title: string;
  /**
   * The catalog's stored form: HTML cleaned against its allow-list (`@catalog/db/description`).
   * Channels that take HTML send it as it is; those that take text send `descriptionText` of it.
   */
  description: string | null;
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  /** Decimal string as stored (e.g. "19.9900"): never a float, so no cent is lost on the way. */
  priceAmount: string | null;
  priceCurrency: string | null;
  images: string[];
  availability?: string | null;
  /** Units in stock; null when unknown (channels then send what availability implies). */
  quantity?: number | null;
  variants: PublishableVariant[];
  attributes: Record<string, unknown>;
}

export interface DestinationTarget {
  id: string;
  channel: ChannelName;
  baseUrl: string | null;
  /** Already decrypted by the caller; never logged, never put in a job payload. */
  credentials: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export interface PublishInput {
  product: PublishableProduct;
  destination: DestinationTarget;
  /**
   * Remote id stored from an earlier successful publish: the adapter must update it, not create a
   * new listing.
   */
  remoteId: string | null;
  /** Aborted when the worker shuts down or the job is cancelled. */
  signal: AbortSignal;
  /**
   * Stable per (product, destination), so a create repeated after a crash is recognised by the
   * channel.
   */
  idempotencyKey: string;
  /**
   * Stores the listing's id as soon as the channel has assigned it, before any later step
   * (inventory, images, publishing an offer). A publish that fails after that point is retried
   * with this id as `remoteId`, so it updates the listing it made instead of making another:
   * the only guard on channels that have no idempotency keys and no lookup by SKU (Etsy).
   */
  saveRemoteId(remoteId: string, remoteUrl: string | null): Promise<void>;
}

export interface PublishOutcome {
  remoteId: string;
  remoteUrl: string | null;
}

/**
 * Credentials of channels whose access tokens expire (eBay, Etsy). Shopify offline tokens and
 * WooCommerce keys do not expire and carry no `expiresAt`.
 */
/** Prices and quantities of a live listing: the cheap route of a price- or stock-only change. */
export interface OfferUpdateInput {
  /** The product as it is now (the adapter sends only its prices and quantities). */
  product: PublishableProduct;
  destination: DestinationTarget;
  /** The live listing's remote id, as `publish` returned it. */
  remoteId: string;
  signal: AbortSignal;
}

/** Ends (delists) a live listing with the channel's documented delete or withdraw call. */
export interface EndListingInput {
  /** The SKUs the listing was published with (some channels address listings by SKU). */
  product: PublishableProduct;
  destination: DestinationTarget;
  remoteId: string;
  signal: AbortSignal;
}

export interface OAuthCredentials {
  accessToken: string;
  refreshToken?: string;
  /** When the access token stops working, in ms since the epoch. */
  expiresAt?: number;
  /** When the refresh token stops working, in ms since the epoch. */
  refreshExpiresAt?: number;
}

/**
 * A value a destination setting may take, from the seller's own account (a business policy, an
 * inventory location, a suggested category) or from the channel's fixed list (a marketplace).
 */
export interface SettingOption {
  /** What the setting is set to (an id, a key). */
  value: string;
  /** How the seller named it, or the channel's name for it. */
  label: string;
  /** What tells two alike apart (a category's path, a location's town), or null. */
  detail: string | null;
}

/** Asks for the choices of one setting (a field whose `choices` is "list" or "search"). */
export interface SettingsOptionsInput {
  /** Its settings may hold the form's unsaved values the choices depend on (eBay's marketplace). */
  destination: DestinationTarget;
  field: string;
  /** The words searched for ("search" fields); "" for lists. */
  query: string;
  signal: AbortSignal;
}

export interface ChannelAdapter {
  readonly channel: ChannelName;
  /**
   * Resolves on success; rejects only with RetryableChannelError, GiveUpChannelError or
   * ChannelWaitError.
   */
  publish(input: PublishInput): Promise<PublishOutcome>;
  /**
   * The channel's cheap route for a change of prices and quantities only (eBay's bulk price and
   * quantity update, Shopify's variant and inventory bulk mutations, Amazon's patch of the offer
   * attributes, Etsy's inventory update, WooCommerce's product update of those fields). Absent:
   * the worker sends a full `publish`. Same error classes as `publish`.
   */
  updateOffer?(input: OfferUpdateInput): Promise<void>;
  /**
   * Ends the listing on the channel with its documented delete or withdraw call (every channel
   * has one). A listing the channel no longer has (404) counts as ended: it resolves. Same error
   * classes as `publish`.
   */
  endListing(input: EndListingInput): Promise<void>;
  /**
   * Channels with expiring tokens: new credentials from the refresh token (the whole object the
   * caller will seal and store in place of the old one). The worker calls it shortly before
   * `expiresAt`, and once after a publish was refused with 401. Rejects with a
   * GiveUpChannelError of kind "auth" when the channel refuses the refresh token (the merchant
   * must connect again), or with the usual retry / wait errors.
   */
  refreshCredentials?(
    destination: DestinationTarget,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /**
   * The choices of a setting whose field offers them (`choices` in the settings schema), read
   * from the seller's account where the channel's API has them. Same error classes as `publish`.
   */
  settingsOptions?(input: SettingsOptionsInput): Promise<SettingOption[]>;
}
