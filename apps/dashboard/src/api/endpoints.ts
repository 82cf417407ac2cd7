// Typed calls to the gateway, one per route the dashboard uses. Types come from the gateway's
// TypeBox schemas (type-only import), so a changed response shape fails `pnpm typecheck`.
import type {
  CreateWebhookBody,
  CreatedWebhook,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  CreatedExtensionKey,
  ApiTokenList,
  CreateApiTokenBody,
  CreatedApiToken,
  DestinationList,
  ExtensionKeyList,
  HistoryEntry,
  LegalRecord,
  LegalStatus,
  LegalText,
  List,
  LoginBody,
  PasswordResetAnswer,
  PasswordResetCheck,
  PasswordResetConfirm,
  PasswordResetRequest,
  PasswordResetRequested,
  PasswordResetUsable,
  ProductDetail,
  ProductList,
  ProductListQuery,
  ProductPatch,
  Product,
  PublishBody,
  PublishCheck,
  PublishResponse,
  ProductDeleting,
  Session,
  SyncLogList,
  Watch,
  WatchBody,
  SystemAction,
  SystemActionResult,
  SystemView,
  SettingsOptions,
  ChannelList,
  PublishRun,
  PublishRunSummary,
  Import,
  ImportRow,
  DestinationPatch,
  UpdatedDestination,
  Disconnected,
  RetryResult,
  StoreImportBody,
  UnpublishBody,
  UnpublishResponse,
} from "@catalog/gateway/api-types";
import { api, type Query } from "./client";
import type {
  ColumnMapping,
  ColumnsPreview,
  ImportMappingBody,
  ImportMappingTemplate,
} from "./column-types";

/** A file's upload options; `mapping` reads its columns as given, "automatic" skips templates. */
export interface FileOptions {
  currency?: string | undefined;
  encoding?: string | undefined;
  mapping?: ColumnMapping | "automatic" | undefined;
}

/** The text parts go before the file (the gateway reads them first); each only when given. */
function fileForm(file: Blob, name: string, options: FileOptions): FormData {
  const form = new FormData();
  if (options.currency) form.append("currency", options.currency);
  if (options.encoding) form.append("encoding", options.encoding);
  if (options.mapping)
    form.append(
      "mapping",
      options.mapping === "automatic" ? "automatic" : JSON.stringify(options.mapping),
    );
  form.append("file", file, name);
  return form;
}

export const session = {
  get: () => api<Session>("/api/auth/session", { allow401: true }),
  signIn: (body: LoginBody) =>
    api<Session>("/api/auth/session", { method: "POST", body, allow401: true }),
  signOut: () => api<void>("/api/auth/session", { method: "DELETE", allow401: true }),
  /** Asks for an emailed link to choose a new password (202 whether or not the address is known). */
  requestPasswordReset: (body: PasswordResetRequest) =>
    api<PasswordResetRequested>("/api/auth/password-reset", {
      method: "POST",
      body,
      allow401: true,
    }),
  /** Until when an emailed link can set a password (400/410 when it cannot). */
  checkPasswordReset: (body: PasswordResetCheck) =>
    api<PasswordResetUsable>("/api/auth/password-reset/check", {
      method: "POST",
      body,
      allow401: true,
    }),
  /** Sets the new password with the link's token; every session of the user ends. */
  confirmPasswordReset: (body: PasswordResetConfirm) =>
    api<PasswordResetAnswer>("/api/auth/password-reset/confirm", {
      method: "POST",
      body,
      allow401: true,
    }),
};

export const products = {
  list: (query: ProductListQuery, signal?: AbortSignal) =>
    api<ProductList>("/api/products", { query, signal }),
  get: (id: string) => api<ProductDetail>(`/api/products/${encodeURIComponent(id)}`),
  history: (id: string, page = 1) =>
    api<List<HistoryEntry>>(`/api/products/${encodeURIComponent(id)}/history`, {
      query: { page, pageSize: 20 },
    }),
  update: (id: string, patch: ProductPatch) =>
    api<Product>(`/api/products/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }),
  /** Undefined (204) when removed at once; the listings being ended when it had live ones (202). */
  remove: (id: string) =>
    api<ProductDeleting | undefined>(`/api/products/${encodeURIComponent(id)}`, {
      method: "DELETE",
    }),
  publish: (body: PublishBody) =>
    api<PublishResponse>("/api/products/publish", { method: "POST", body }),
  unpublish: (body: UnpublishBody) =>
    api<UnpublishResponse>("/api/products/unpublish", { method: "POST", body }),
  watch: (id: string, body: WatchBody) =>
    api<Watch>(`/api/products/${encodeURIComponent(id)}/watch`, { method: "PUT", body }),
  checkSource: (id: string) =>
    api<{ queued: true }>(`/api/products/${encodeURIComponent(id)}/watch/check`, {
      method: "POST",
      body: {},
    }),
};

export const destinations = {
  list: () => api<DestinationList>("/api/destinations"),
  update: (id: string, patch: DestinationPatch) =>
    api<UpdatedDestination>("/api/destinations", { method: "PATCH", query: { id }, body: patch }),
  disconnect: (id: string) =>
    api<Disconnected>("/api/destinations", { method: "DELETE", query: { id } }),
  /** A setting's choices from the store's account; `q` for search fields. */
  settingsOptions: (id: string, field: string, more: { q?: string; marketplaceId?: string } = {}) =>
    api<SettingsOptions>("/api/destinations/settings-options", {
      query: { id, field, ...more },
    }),
};

/** Where the browser goes (a full page load, not fetch) to start connecting a store. */
export function connectUrl(channel: string, params: Record<string, string>): string {
  const qs = new URLSearchParams(params).toString();
  return `/api/integrations/${encodeURIComponent(channel)}/connect${qs ? `?${qs}` : ""}`;
}

export const channels = {
  list: () => api<ChannelList>("/api/channels"),
};

export const syncLogs = {
  list: (query: Query) => api<SyncLogList>("/api/sync-logs", { query }),
};

export const legal = {
  status: () => api<LegalStatus>("/api/legal/status"),
  sign: (document: LegalRecord["type"]) =>
    api<LegalRecord>("/api/legal/sign", { method: "POST", body: { document } }),
  document: (document: string, version?: string) =>
    api<LegalText>(`/api/legal/documents/${encodeURIComponent(document)}`, {
      query: { version },
    }),
};

export const apiTokens = {
  list: () => api<ApiTokenList>("/api/api-tokens"),
  create: (body: CreateApiTokenBody) =>
    api<CreatedApiToken>("/api/api-tokens", { method: "POST", body }),
  revoke: (id: string) =>
    api<void>(`/api/api-tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

export const extensionKeys = {
  list: () => api<ExtensionKeyList>("/api/extension-keys"),
  create: (name: string) =>
    api<CreatedExtensionKey>("/api/extension-keys", { method: "POST", body: { name } }),
  revoke: (id: string) =>
    api<void>(`/api/extension-keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

export const webhooks = {
  list: () => api<WebhookEndpointList>("/api/webhooks"),
  create: (body: CreateWebhookBody) =>
    api<CreatedWebhook>("/api/webhooks", { method: "POST", body }),
  update: (id: string, body: UpdateWebhookBody) =>
    api<WebhookEndpoint>(`/api/webhooks/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  remove: (id: string) =>
    api<void>(`/api/webhooks/${encodeURIComponent(id)}`, { method: "DELETE" }),
  deliveries: (id: string, page: number) =>
    api<WebhookDeliveryList>(
      `/api/webhooks/${encodeURIComponent(id)}/deliveries?page=${page}&pageSize=10`,
    ),
  test: (id: string) =>
    api<WebhookDelivery>(`/api/webhooks/${encodeURIComponent(id)}/test`, { method: "POST" }),
  replay: (id: string, deliveryId: string) =>
    api<WebhookDelivery>(
      `/api/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
      { method: "POST" },
    ),
};

export const system = {
  get: () => api<SystemView>("/api/system"),
  act: (body: SystemAction) => api<SystemActionResult>("/api/system", { method: "POST", body }),
};

export const publishRuns = {
  list: (page: number) => api<List<PublishRunSummary>>("/api/publish-runs", { query: { page } }),
  get: (id: string) => api<PublishRun>(`/api/publish-runs/${encodeURIComponent(id)}`),
  /**
   * POST /api/products/publish with an Idempotency-Key: a repeated submission answers the same run.
   */
  start: (body: PublishBody, idempotencyKey: string) =>
    api<PublishResponse>("/api/products/publish", {
      method: "POST",
      body,
      headers: { "idempotency-key": idempotencyKey },
    }),
  /**
   * POST /api/products/publish with dryRun: what would fail on each product x destination, nothing
   * created.
   */
  check: (body: Omit<PublishBody, "dryRun">) =>
    api<PublishCheck>("/api/products/publish", { method: "POST", body: { ...body, dryRun: true } }),
  retry: (id: string) =>
    api<RetryResult>(`/api/publish-runs/${encodeURIComponent(id)}/retry`, {
      method: "POST",
      body: {},
    }),
  eventsUrl: (id: string) => `/api/publish-runs/${encodeURIComponent(id)}/events`,
};

export const imports = {
  list: (page: number) => api<List<Import>>("/api/imports", { query: { page } }),
  get: (id: string) => api<Import>(`/api/imports/${encodeURIComponent(id)}`),
  rows: (id: string, query: Query) =>
    api<List<ImportRow>>(`/api/imports/${encodeURIComponent(id)}/rows`, { query }),
  startUrls: (urls: string[], watch: WatchBody["schedule"] = null) =>
    api<Import>("/api/imports", { method: "POST", body: { urls, watch } }),
  startFile: (file: File, options: FileOptions = {}) =>
    api<Import>("/api/imports", { method: "POST", form: fileForm(file, file.name, options) }),
  /**
   * The file's columns with samples and the first rows as the mapping (or template, or automatic
   * reading) reads them; nothing stored. `sample` may be the file's first part (CSV/TSV).
   */
  columns: (sample: Blob, name: string, options: FileOptions, signal?: AbortSignal) =>
    api<ColumnsPreview>("/api/imports/columns", {
      method: "POST",
      form: fileForm(sample, name, options),
      signal,
    }),
  store: (id: string, body: StoreImportBody) =>
    api<Import>(`/api/imports/${encodeURIComponent(id)}/store`, { method: "POST", body }),
  discard: (id: string) =>
    api<void>(`/api/imports/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

export const importMappings = {
  list: () => api<{ items: ImportMappingTemplate[] }>("/api/import-mappings"),
  /** Saves (or replaces, for the same header set) the org's template. */
  save: (body: ImportMappingBody) =>
    api<ImportMappingTemplate>("/api/import-mappings", { method: "POST", body }),
  remove: (id: string) =>
    api<void>(`/api/import-mappings/${encodeURIComponent(id)}`, { method: "DELETE" }),
};
