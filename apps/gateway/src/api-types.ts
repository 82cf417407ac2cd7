// The gateway's request and response shapes as TypeScript types, for clients in this repository
// (the dashboard, the browser extension). Derived from the same TypeBox schemas that validate
// requests and generate the OpenAPI document, so a changed shape breaks the client's type check.
// Schema modules only: they import nothing but `typebox` and each other, so a browser build can
// type-check against them.
import type { Static } from "typebox";
import type {
  SessionSchema,
  LoginBodySchema,
  PasswordResetAnswerSchema,
  PasswordResetCheckSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  PasswordResetRequestedSchema,
  PasswordResetUsableSchema,
} from "./routes/auth/schemas.js";
import type { ColumnsAnswerSchema } from "./routes/imports/columns-schemas.js";
import type {
  ColumnMappingSchema,
  ImportMappingListSchema,
  ImportMappingSchema,
  SaveImportMappingBodySchema,
} from "./routes/import-mappings/schemas.js";
import type {
  ChannelInfoSchema,
  ChannelListSchema,
  ChannelFieldSchema,
} from "./routes/channels/schemas.js";
import type {
  DestinationListSchema,
  DestinationPatchSchema,
  DestinationSchema,
  DisconnectedSchema,
  SettingsOptionsSchema,
  UpdatedDestinationSchema,
} from "./routes/destinations/schemas.js";
import type {
  CreatedExtensionKeySchema,
  CreateExtensionKeyBodySchema,
  ExtensionKeyListSchema,
  ExtensionKeySchema,
} from "./routes/extension-keys/schemas.js";
import type { ExtensionMeSchema, IngestResultSchema } from "./routes/extension/schemas.js";
import type {
  ApiTokenListSchema,
  ApiTokenSchema,
  CreateApiTokenBodySchema,
  CreatedApiTokenSchema,
} from "./routes/api-tokens/schemas.js";
import type { UnpublishBodySchema, UnpublishResponseSchema } from "./routes/unpublish/schemas.js";
import type {
  DocumentImportResultSchema,
  UrlImportResultSchema,
} from "./routes/one-shot-import/schemas.js";
import type {
  CreateUrlImportBodySchema,
  ImportRowSchema,
  ImportSchema,
  StoreImportBodySchema,
} from "./routes/imports/schemas.js";
import type { ConnectedSchema } from "./routes/integrations/schemas.js";
import type {
  LegalRecordSchema,
  LegalStatusSchema,
  LegalTextSchema,
  SignBodySchema,
} from "./routes/legal/schemas.js";
import type {
  HistoryEntrySchema,
  ProductDeletingSchema,
  ProductDetailSchema,
  ProductForceDeletedSchema,
  ProductListItemSchema,
  ProductListQuerySchema,
  ProductListSchema,
} from "./routes/products/schemas.js";
import type { ExtensionPreviewSchema, ListingItemSchema } from "./schemas/page-preview.js";
import type {
  MoneySchema,
  ProductFieldsSchema,
  ProductPatchSchema,
  ProductSchema,
} from "./schemas/product.js";
import type {
  PublishRunSchema,
  RetryResultSchema,
  RunSummarySchema,
} from "./routes/publish-runs/schemas.js";
import type {
  PublishBodySchema,
  PublishCheckSchema,
  PublishResponseSchema,
} from "./routes/publish/schemas.js";
import type { SyncLogListSchema, SyncLogSchema } from "./routes/sync-logs/schemas.js";
import type { WatchBodySchema } from "./routes/source-watch/schemas.js";
import type { WatchSchema } from "./schemas/watch.js";
import type { ActionResultSchema, ActionSchema, SystemSchema } from "./routes/system/schemas.js";
import type {
  CreateWebhookBodySchema,
  CreatedWebhookSchema,
  UpdateWebhookBodySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from "./routes/webhooks/schemas.js";

export interface List<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}
export interface ApiError {
  error: string;
}

export type LoginBody = Static<typeof LoginBodySchema>;
export type Session = Static<typeof SessionSchema>;
export type Role = Session["user"]["role"];
export type PasswordResetRequest = Static<typeof PasswordResetRequestSchema>;
export type PasswordResetConfirm = Static<typeof PasswordResetConfirmSchema>;
export type PasswordResetRequested = Static<typeof PasswordResetRequestedSchema>;
export type PasswordResetAnswer = Static<typeof PasswordResetAnswerSchema>;
export type PasswordResetCheck = Static<typeof PasswordResetCheckSchema>;
export type PasswordResetUsable = Static<typeof PasswordResetUsableSchema>;

export type Money = Static<typeof MoneySchema>;
export type Product = Static<typeof ProductSchema>;
export type ProductFields = Static<typeof ProductFieldsSchema>;
export type ProductListItem = Static<typeof ProductListItemSchema>;
/** GET /api/products's query: search, filters, order, page. */
export type ProductListQuery = Static<typeof ProductListQuerySchema>;
/** A catalog page: a `List` with the cursors of the pages beside it. */
export type ProductList = Static<typeof ProductListSchema>;
export type ProductDetail = Static<typeof ProductDetailSchema>;
/** DELETE /api/products/:id of a product with live listings (202). */
export type ProductDeleting = Static<typeof ProductDeletingSchema>;
/** DELETE /api/products/:id?force=true (200). */
export type ProductForceDeleted = Static<typeof ProductForceDeletedSchema>;
export type ProductPatch = Static<typeof ProductPatchSchema>;
export type HistoryEntry = Static<typeof HistoryEntrySchema>;
export type Watch = Static<typeof WatchSchema>;
export type WatchBody = Static<typeof WatchBodySchema>;

export type UrlImportResult = Static<typeof UrlImportResultSchema>;
export type DocumentImportResult = Static<typeof DocumentImportResultSchema>;
export type Import = Static<typeof ImportSchema>;
export type ImportRow = Static<typeof ImportRowSchema>;
export type ColumnsPreview = Static<typeof ColumnsAnswerSchema>;
export type ColumnMapping = Static<typeof ColumnMappingSchema>;
export type ImportMapping = Static<typeof ImportMappingSchema>;
export type ImportMappingList = Static<typeof ImportMappingListSchema>;
export type SaveImportMappingBody = Static<typeof SaveImportMappingBodySchema>;
export type CreateUrlImportBody = Static<typeof CreateUrlImportBodySchema>;
export type StoreImportBody = Static<typeof StoreImportBodySchema>;

export type PublishBody = Static<typeof PublishBodySchema>;
export type PublishResponse = Static<typeof PublishResponseSchema>;
export type UnpublishBody = Static<typeof UnpublishBodySchema>;
export type UnpublishResponse = Static<typeof UnpublishResponseSchema>;
/** POST /api/products/publish with `dryRun: true`. */
export type PublishCheck = Static<typeof PublishCheckSchema>;
export type PublishRun = Static<typeof PublishRunSchema>;
export type PublishRunSummary = Static<typeof RunSummarySchema>;
export type RetryResult = Static<typeof RetryResultSchema>;
export type SyncLog = Static<typeof SyncLogSchema>;
export type SyncLogList = Static<typeof SyncLogListSchema>;

export type Destination = Static<typeof DestinationSchema>;
export type DestinationList = Static<typeof DestinationListSchema>;
export type DestinationPatch = Static<typeof DestinationPatchSchema>;
export type UpdatedDestination = Static<typeof UpdatedDestinationSchema>;
export type SettingsOptions = Static<typeof SettingsOptionsSchema>;
export type Disconnected = Static<typeof DisconnectedSchema>;
export type Connected = Static<typeof ConnectedSchema>;
export type ChannelInfo = Static<typeof ChannelInfoSchema>;
export type ChannelList = Static<typeof ChannelListSchema>;
export type ChannelField = Static<typeof ChannelFieldSchema>;

export type LegalRecord = Static<typeof LegalRecordSchema>;
export type LegalStatus = Static<typeof LegalStatusSchema>;
export type LegalText = Static<typeof LegalTextSchema>;
export type SignBody = Static<typeof SignBodySchema>;

export type ExtensionKey = Static<typeof ExtensionKeySchema>;
export type ExtensionKeyList = Static<typeof ExtensionKeyListSchema>;
export type CreateExtensionKeyBody = Static<typeof CreateExtensionKeyBodySchema>;
export type CreatedExtensionKey = Static<typeof CreatedExtensionKeySchema>;
export type ApiToken = Static<typeof ApiTokenSchema>;
export type ApiTokenList = Static<typeof ApiTokenListSchema>;
export type CreateApiTokenBody = Static<typeof CreateApiTokenBodySchema>;
export type CreatedApiToken = Static<typeof CreatedApiTokenSchema>;

export type ExtensionMe = Static<typeof ExtensionMeSchema>;
export type ExtensionPreview = Static<typeof ExtensionPreviewSchema>;
export type IngestResult = Static<typeof IngestResultSchema>;
export type ListingItem = Static<typeof ListingItemSchema>;

export type SystemView = Static<typeof SystemSchema>;
export type SystemAction = Static<typeof ActionSchema>;
export type SystemActionResult = Static<typeof ActionResultSchema>;

export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;
export type WebhookEndpointList = Static<typeof WebhookEndpointListSchema>;
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;
export type UpdateWebhookBody = Static<typeof UpdateWebhookBodySchema>;
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;
export type WebhookDeliveryList = Static<typeof WebhookDeliveryListSchema>;
