// Amazon's listing notifications (Notifications API): LISTINGS_ITEM_STATUS_CHANGED (is the item
// buyable, discoverable, deleted) and LISTINGS_ITEM_ISSUES_CHANGE (the severities of its open
// issues and the enforcement actions taken, e.g. LISTING_SUPPRESSED). Amazon delivers them to an
// SQS queue the seller's app subscribes; an operator forwards each message's body here (an
// EventBridge pipe from the queue to an API destination, or any small relay), with the secret in
// AMAZON_NOTIFICATIONS_SECRET as `Authorization: Bearer`. Only the fields we read are described;
// others pass. The issues themselves are not in the notification: the listing's page on Seller
// Central, or "Check first" (Amazon's validation preview), says what they are.
import { Type, type Static } from "typebox";
import type { ChannelNotifications, ChannelReport } from "../channel-notifications.js";
import type { AmazonApp } from "./amazon-env.js";

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Names = (description: string) =>
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description });
const Metadata = Type.Object({ NotificationId: Type.Optional(Type.String({ maxLength: 200 })) });
const Common = {
  NotificationVersion: Type.String({ maxLength: 20 }),
  PayloadVersion: Type.String({ maxLength: 20 }),
  EventTime: Type.String({
    format: "date-time",
    description: "When the change happened; an older notification never replaces a newer one",
  }),
  NotificationMetadata: Metadata,
};
const Listing = {
  SellerId: Text("The selling partner id (the destination's seller)"),
  MarketplaceId: Type.Optional(
    Text("The marketplace; a destination set to another marketplace is not concerned"),
  ),
  Sku: Text("The SKU: a listing's own, or one of its variants'"),
};

const StatusChange = Type.Object(
  {
    ...Common,
    // The schema's enum says ..._CHANGED, its own example and Amazon's documentation ..._CHANGE:
    // both are taken.
    NotificationType: Type.Union([
      Type.Literal("LISTINGS_ITEM_STATUS_CHANGED"),
      Type.Literal("LISTINGS_ITEM_STATUS_CHANGE"),
    ]),
    Payload: Type.Object({
      ...Listing,
      Status: Names("BUYABLE, DISCOVERABLE, DELETED: what is absent is not the case"),
    }),
  },
  { title: "Listings Item Status Change Notification" },
);

const IssuesChange = Type.Object(
  {
    ...Common,
    NotificationType: Type.Literal("LISTINGS_ITEM_ISSUES_CHANGE"),
    Payload: Type.Object({
      ...Listing,
      Severities: Names("NONE, WARNING, ERROR"),
      EnforcementActions: Type.Optional(
        Names(
          "e.g. LISTING_SUPPRESSED, SEARCH_SUPPRESSED, ATTRIBUTE_SUPPRESSED, CATALOG_ITEM_REMOVED",
        ),
      ),
    }),
  },
  { title: "Listings Item Issues Change Notification" },
);

export const AmazonNotificationSchema = Type.Union([StatusChange, IssuesChange]);
type AmazonNotification = Static<typeof AmazonNotificationSchema>;

function read(body: unknown): ChannelReport {
  const n = body as AmazonNotification;
  const { SellerId, MarketplaceId, Sku } = n.Payload;
  const settingsMatch: Record<string, string> = MarketplaceId
    ? { marketplaceId: MarketplaceId }
    : {};
  const report = { externalId: SellerId, sku: Sku, at: new Date(n.EventTime), settingsMatch };
  if (n.NotificationType !== "LISTINGS_ITEM_ISSUES_CHANGE")
    return { ...report, status: n.Payload.Status };
  return {
    ...report,
    issues: {
      severities: n.Payload.Severities,
      enforcementActions: n.Payload.EnforcementActions ?? [],
    },
  };
}

export const amazonNotifications: ChannelNotifications<AmazonApp> = {
  secret: (app) => app.notificationsSecret,
  secretVariable: "AMAZON_NOTIFICATIONS_SECRET",
  body: AmazonNotificationSchema,
  read,
};
