// What the source watch needs from PostgreSQL (issue 29), also a subpath of its own
// (`@catalog/db/source-watch`) so that the import worker loads the client and these, not the
// whole package.
export { createDb, type Db } from "../client.js";
export { watchViewOf, type WatchView } from "./watch-view.js";
export * from "./product-watch.js";
export * from "./source-recheck.js";
export { recordWebhookEvent } from "../webhooks/webhook-events.js";
export { type PublishJobRecord } from "../publishing/publish-requests.js";
