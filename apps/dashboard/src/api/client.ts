// The one way the dashboard talks to the gateway: same origin, the session cookie, JSON in and out.
// Every error becomes an ApiError carrying the HTTP status and the server's `error` text, so a
// screen can show the message where the user acted. A 401 from any call (except signing in)
// ends the session: the user is sent to /sign-in?next=<where they were>.
import type { List, ProductListQuery } from "@catalog/gateway/api-types";

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** A list is sent as the parameter repeated (`status=failed&status=dead`). */
export type Query = Record<
  string,
  string | number | boolean | readonly string[] | null | undefined
>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Query;
  /** Sent as JSON (content-type: application/json). */
  body?: unknown;
  /** Sent as multipart; the browser sets the content type. */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Do not treat a 401 as an ended session (signing in, the first session check). */
  allow401?: boolean;
}

type UnauthorizedHandler = (next: string) => void;

const SESSION_FLAG = "catalog.hadSession";
/** Forms' drafts kept across an ended session (screens/product-detail/draft.ts); signing out drops them. */
export const DRAFT_PREFIX = "catalog.draft.";
const ENDED_FLAG = "catalog.sessionEnded";
export const SESSION_ENDED_MESSAGE = "Your session has ended: sign in again";

let onUnauthorized: UnauthorizedHandler = (next) => {
  window.location.assign(signInHref(next));
};

/** main.tsx installs a handler that navigates inside the app (and clears cached data). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/** Where the user is now, as a path the sign-in screen can send them back to. */
export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

/** Only same-app paths are followed after signing in (no //host or absolute URLs). */
export function safeNext(next: unknown): string {
  if (
    typeof next !== "string" ||
    !next.startsWith("/") ||
    next.startsWith("//") ||
    next.startsWith("/\\")
  )
    return "/products";
  if (next.startsWith("/sign-in")) return "/products";
  return next;
}

export function signInHref(next: string): string {
  return `/sign-in?next=${encodeURIComponent(safeNext(next))}`;
}

/**
 * Remembered for this tab: a 401 after a session existed means it ended (not "never signed in").
 */
export const sessionMemory = {
  signedIn(): void {
    sessionStorage.setItem(SESSION_FLAG, "1");
    sessionStorage.removeItem(ENDED_FLAG);
  },
  signedOut(): void {
    sessionStorage.removeItem(SESSION_FLAG);
    sessionStorage.removeItem(ENDED_FLAG);
    for (const key of Object.keys(sessionStorage))
      if (key.startsWith(DRAFT_PREFIX)) sessionStorage.removeItem(key);
  },
  /** Called on a 401: marks the session as ended if there was one. */
  ended(): void {
    if (sessionStorage.getItem(SESSION_FLAG)) sessionStorage.setItem(ENDED_FLAG, "1");
    sessionStorage.removeItem(SESSION_FLAG);
  },
  /** The message the sign-in screen shows (once), if the session ended. */
  takeEndedMessage(): string | null {
    const ended = sessionStorage.getItem(ENDED_FLAG);
    return ended ? SESSION_ENDED_MESSAGE : null;
  },
  clearEnded(): void {
    sessionStorage.removeItem(ENDED_FLAG);
  },
};

let redirecting = false;
let signingOut = false;

/** While signing out, a 401 from a request still in flight is expected, not an ended session. */
export function setSigningOut(value: boolean): void {
  signingOut = value;
}

export function handleUnauthorized(): void {
  if (signingOut) return;
  sessionMemory.ended();
  if (redirecting || window.location.pathname === "/sign-in") return;
  redirecting = true;
  try {
    onUnauthorized(currentPath());
  } finally {
    setTimeout(() => {
      redirecting = false;
    }, 500);
  }
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) for (const item of v as readonly string[]) params.append(k, item);
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  let body: BodyInit | undefined;
  if (options.form) {
    body = options.form;
  } else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: "include",
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "The service could not be reached: check your connection and try again");
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const message =
      errorText(data) ??
      (response.status >= 500
        ? `The service is not available right now (HTTP ${response.status}): try again in a moment`
        : `The service refused the request (HTTP ${response.status})`);
    if (response.status === 401 && !options.allow401) handleUnauthorized();
    throw new ApiError(response.status, message);
  }
  return data as T;
}

function errorText(data: unknown): string | null {
  if (data && typeof data === "object" && "error" in data && typeof data.error === "string") {
    return (data as { error: string }).error;
  }
  return null;
}

/** The text to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return sentence(error.message);
  return "Something went wrong";
}

/**
 * The server's messages start in lower case ("wrong email or password"); shown alone, they read as
 * sentences.
 */
function sentence(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

export type { List };

/**
 * Every TanStack Query key, in one place, so that a mutation invalidates exactly what it changed.
 * Keys are arrays whose first element names the resource; invalidating `qk.products.all` refreshes
 * every product list and detail.
 */
export const qk = {
  session: ["session"] as const,
  /** Whether an emailed password reset link can still be used. */
  passwordReset: (token: string) => ["password-reset", token] as const,
  legal: ["legal"] as const,
  legalDocument: (document: string, version: string | undefined) =>
    ["legal-document", document, version ?? "current"] as const,
  products: {
    all: ["products"] as const,
    list: (params: ProductListQuery) => ["products", "list", params] as const,
    ids: (q: string) => ["products", "ids", q] as const,
    detail: (id: string) => ["products", "detail", id] as const,
    history: (id: string) => ["products", "history", id] as const,
  },
  destinations: ["destinations"] as const,
  channels: ["channels"] as const,
  syncLogs: (params: Query) => ["sync-logs", params] as const,
  syncLogsAll: ["sync-logs"] as const,
  imports: {
    all: ["imports"] as const,
    list: (page: number) => ["imports", "list", page] as const,
    detail: (id: string) => ["imports", "detail", id] as const,
    rows: (id: string, params: Query) => ["imports", "rows", id, params] as const,
    /** A chosen file's columns preview; `file` tells chosen files apart, `options` is the rest. */
    columns: (file: number, options: string) => ["import-columns", file, options] as const,
  },
  importMappings: ["import-mappings"] as const,
  runs: {
    all: ["publish-runs"] as const,
    list: (page: number) => ["publish-runs", "list", page] as const,
    detail: (id: string) => ["publish-runs", "detail", id] as const,
  },
  extensionKeys: ["extension-keys"] as const,
  apiTokens: ["api-tokens"] as const,
  webhooks: {
    all: ["webhooks"] as const,
    deliveries: (id: string, page: number) => ["webhooks", "deliveries", id, page] as const,
  },
  system: ["system"] as const,
};
