// The event types an endpoint can subscribe to (the gateway's WEBHOOK_EVENT_TYPES), with words.
export const WEBHOOK_EVENTS: { type: string; label: string }[] = [
  { type: "import.finished", label: "An import finished storing" },
  { type: "import.failed", label: "An import failed" },
  { type: "listing.published", label: "A listing was published" },
  { type: "listing.publish_failed", label: "A publish failed" },
  { type: "listing.synced", label: "A listing was updated by sync" },
  { type: "listing.sync_failed", label: "A sync update failed" },
  { type: "listing.ended", label: "A listing was ended" },
  { type: "listing.channel_report", label: "A channel reported on a listing" },
  { type: "product.source_changed", label: "A source re-check changed a product" },
];
