// Notifications a channel sends on its own about listings it holds (Amazon's listing status and
// issues changes): the gateway takes them at POST /api/integrations/<channel>/notifications,
// authenticated by a shared secret, and records what they say on the matching listings.
import type { TSchema } from "typebox";

/** What one notification says about one SKU of a seller's listings. */
export interface ChannelReport {
  /** The seller as the destination's externalId holds it (Amazon: the selling partner id). */
  externalId: string;
  /** The SKU the notification is about: a listing's own (remoteId) or one of its variants'. */
  sku: string;
  /** When the change happened at the channel; an older report never replaces a newer one. */
  at: Date;
  /** Settings a destination must hold for the report to be about it (Amazon: the marketplace). */
  settingsMatch: Record<string, string>;
  /** The listing's states at the channel, as it names them (BUYABLE, DISCOVERABLE, DELETED). */
  status?: string[];
  /**
   * The severities of the listing's open issues (NONE, WARNING, ERROR), and what the channel did
   * about them.
   */
  issues?: { severities: string[]; enforcementActions: string[] };
}

export interface ChannelNotifications<App> {
  /**
   * The shared secret senders carry as `Authorization: Bearer <secret>`; empty: the channel takes
   * none.
   */
  secret(app: App): string;
  /** The variable that holds it, for the 404 that says how to turn notifications on. */
  secretVariable: string;
  /** The notifications accepted (the route's body schema, shown in the OpenAPI text). */
  body: TSchema;
  /** What a notification matching `body` says. */
  read(body: unknown): ChannelReport;
}
