import type { ApiToken } from "@catalog/gateway/api-types";

export type Scope = ApiToken["scopes"][number];

/** The scopes an owner chooses from, in the order an integration needs them. */
export const SCOPES: { scope: Scope; label: string; opens: string }[] = [
  { scope: "catalog:read", label: "Read catalog", opens: "products, history, imports" },
  {
    scope: "catalog:write",
    label: "Write catalog",
    opens: "edit, delete, import documents and URLs",
  },
  { scope: "publish", label: "Publish", opens: "publish, end listings, follow runs and sync logs" },
  {
    scope: "destinations:manage",
    label: "Manage destinations",
    opens: "change and disconnect destinations",
  },
];

/** How long a new token lives: the owner's choices, in days (null: until revoked). */
export const LIFETIMES: { days: number | null; label: string }[] = [
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: null, label: "No expiry (until revoked)" },
];
