// The route table: every URL of the dashboard, its search parameters and its screen. One folder per
// screen under src/screens/ (index.tsx and its parts); a screen reads its params with
// getRouteApi("<id>"). Routes under `app` need a session (its beforeLoad sends everyone else to
// /sign-in?next=...).
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
  Outlet,
} from "@tanstack/react-router";
import type { QueryClient } from "@tanstack/react-query";
import { isStatus, sessionMemory } from "./api/client";
import { ensureSession } from "./api/session";
import { Layout } from "./ui/Layout";
import { ToastProvider } from "./ui/Toast";
import { FocusOnNavigate } from "./ui/FocusOnNavigate";
import { NotFound, RouteError, ScreenError } from "./ui/RouteStates";
import { IMPORT_TABS, type ImportTab } from "./lib/imports";
import { SignIn } from "./screens/sign-in";
import { ForgotPassword } from "./screens/forgot-password";
import { ResetPassword } from "./screens/reset-password";
import { Catalog } from "./screens/catalog";
import { readFilters, type CatalogFilters } from "./screens/catalog/filters";
import { ProductDetailScreen } from "./screens/product-detail";
import { Imports } from "./screens/imports";
import { ImportDetail } from "./screens/import-detail";
import { Publish } from "./screens/publish";
import { Runs } from "./screens/runs";
import { RunDetail } from "./screens/run-detail";
import { Destinations } from "./screens/destinations";
import { SyncLogs } from "./screens/sync-logs";
import { Legal } from "./screens/legal";
import { LegalDocumentScreen } from "./screens/legal/DocumentScreen";
import { ExtensionKeys } from "./screens/extension-keys";
import { ApiTokens } from "./screens/api-tokens";
import { Webhooks } from "./screens/webhooks";
import { System } from "./screens/system";

export interface RouterContext {
  queryClient: QueryClient;
}

// Search-param readers: the URL is user input, so anything unexpected is dropped.
type Raw = Record<string, unknown>;
const str = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : undefined;
const int = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
};
const pageOnly = (s: Raw): { page?: number } => ({ page: int(s.page) });

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <ToastProvider>
      <FocusOnNavigate />
      <Outlet />
    </ToastProvider>
  ),
  notFoundComponent: NotFound,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: (s: Raw): { next?: string; changed?: 1 } => ({
    next: str(s.next),
    changed: s.changed === 1 || s.changed === "1" ? 1 : undefined,
  }),
  component: SignIn,
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  validateSearch: (s: Raw): { email?: string } => ({ email: str(s.email) }),
  component: ForgotPassword,
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  validateSearch: (s: Raw): { token?: string } => ({ token: str(s.token) }),
  component: ResetPassword,
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: async ({ context, location }) => {
    try {
      const session = await ensureSession(context.queryClient);
      sessionMemory.signedIn();
      return { session };
    } catch (err) {
      if (isStatus(err, 401)) {
        sessionMemory.ended();
        throw redirect({ to: "/sign-in", search: { next: location.href } });
      }
      throw err;
    }
  },
  component: Layout,
  errorComponent: RouteError,
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/products", search: {} });
  },
});

const productsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/products",
  validateSearch: (s: Raw): { q?: string; page?: number } & CatalogFilters => ({
    q: str(s.q),
    page: int(s.page),
    ...readFilters(s),
  }),
  component: Catalog,
});

const productRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/products/$id",
  // ?edit=1 opens the edit form (links from a failure to where it is fixed).
  validateSearch: (s: Raw): { edit?: 1 } => ({
    edit: s.edit === 1 || s.edit === "1" ? 1 : undefined,
  }),
  component: ProductDetailScreen,
});

const importsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/imports",
  validateSearch: (s: Raw): { page?: number; tab?: ImportTab } => ({
    page: int(s.page),
    tab: IMPORT_TABS.find((t) => t === s.tab),
  }),
  component: Imports,
});

const importRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/imports/$id",
  validateSearch: (s: Raw): { page?: number; outcome?: string } => ({
    page: int(s.page),
    outcome: str(s.outcome),
  }),
  component: ImportDetail,
});

const publishRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/publish",
  validateSearch: (s: Raw): { ids?: string } => ({ ids: str(s.ids) }),
  component: Publish,
});

const runsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/runs",
  validateSearch: pageOnly,
  component: Runs,
});
const runRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/runs/$id",
  component: RunDetail,
});

const destinationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/destinations",
  validateSearch: (
    s: Raw,
  ): { connected?: string; destination?: string; connectError?: string; channel?: string } => ({
    connected: str(s.connected),
    destination: str(s.destination),
    connectError: str(s.connectError),
    channel: str(s.channel),
  }),
  component: Destinations,
});

const syncLogsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/sync-logs",
  validateSearch: (
    s: Raw,
  ): {
    status?: string;
    kind?: string;
    destinationAccountId?: string;
    productId?: string;
    page?: number;
  } => ({
    status: str(s.status),
    kind: str(s.kind),
    destinationAccountId: str(s.destinationAccountId),
    productId: str(s.productId),
    page: int(s.page),
  }),
  component: SyncLogs,
});

const legalRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/legal",
  component: Legal,
});
const legalDocumentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/legal/$document",
  // ?version= reads an earlier version (the one an org signed).
  validateSearch: (s: Raw): { version?: string } => ({ version: str(s.version) }),
  component: LegalDocumentScreen,
});
const keysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/keys",
  component: ExtensionKeys,
});
const apiTokensRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/api-tokens",
  component: ApiTokens,
});
const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/webhooks",
  component: Webhooks,
});
const systemRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/system",
  component: System,
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  appRoute.addChildren([
    indexRoute,
    productsRoute,
    productRoute,
    importsRoute,
    importRoute,
    publishRoute,
    runsRoute,
    runRoute,
    destinationsRoute,
    syncLogsRoute,
    legalRoute,
    legalDocumentRoute,
    keysRoute,
    apiTokensRoute,
    webhooksRoute,
    systemRoute,
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    defaultErrorComponent: ScreenError,
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
