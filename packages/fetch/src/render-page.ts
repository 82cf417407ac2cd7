import type * as Playwright from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { UrlPolicy } from "./address-policy.js";
import { checkPublicUrl, HOW_TO_FIX } from "./check-url.js";
import { chromiumLaunchOptions } from "./chromium-launch.js";
import { BlockedUrlError, FetchFailedError } from "./errors.js";
import { describeStatus } from "./failure-messages.js";
import { DEFAULT_USER_AGENT } from "./fetch-public.js";
import {
  BLOCKED_HEADER,
  BLOCKED_HEADER_VALUE,
  startFilteringProxy,
  type FilteringProxy,
} from "./filtering-proxy.js";
import { Semaphore } from "./semaphore.js";

export interface RendererOptions {
  policy: UrlPolicy;
  /** Pages rendered at once; more renders wait their turn. Default 2. */
  concurrency?: number;
  /** Default: $CHROMIUM_PATH, else /usr/bin/chromium (Debian's; browser downloads fail here). */
  executablePath?: string;
  /**
   * A renderer process's websocket (`startRendererServer`, e.g. ws://127.0.0.1:3200/chromium):
   * set, Chromium runs there and this process only connects to it; unset, it is launched here.
   */
  rendererUrl?: string;
  /** Default per-render limit, from getting a slot to having the HTML. Default 20 000. */
  navigationTimeoutMs?: number;
  /** Longest wait for the network to go quiet after DOMContentLoaded. Default 2 000. */
  settleMs?: number;
  userAgent?: string;
}

export interface RenderResult {
  finalUrl: string;
  html: string;
}

export interface Renderer {
  render(url: string, opts?: { timeoutMs?: number }): Promise<RenderResult>;
  close(): Promise<void>;
  /** The filtering proxy's recent refusals (empty before the first render). */
  readonly blocked: readonly string[];
}

// Requests that cost time and never carry product data.
const HEAVY_RESOURCES = new Set(["image", "media", "font"]);

async function blockedOrFailed(
  policy: UrlPolicy,
  start: string,
  lastUrl: string,
  error: unknown,
): Promise<Error> {
  // A refused CONNECT only shows up as a tunnel error; re-checking the URL Chromium was on says
  // whether the filter refused it and why.
  try {
    await checkPublicUrl(lastUrl, policy);
  } catch (refusal) {
    if (refusal instanceof BlockedUrlError) {
      if (lastUrl === start) return refusal;
      return new BlockedUrlError(
        lastUrl,
        `${start} redirects to ${lastUrl}, which ${refusal.reason}; ${HOW_TO_FIX}`,
        refusal.reason,
      );
    }
  }
  const detail =
    error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
  if (/has been closed|Target closed|browser.*(closed|disconnected)/i.test(detail)) {
    return new FetchFailedError(
      start,
      `The browser stopped while rendering ${start}; try again`,
      undefined,
      { cause: error, transient: true },
    );
  }
  return new FetchFailedError(
    start,
    `${start} could not be loaded in the browser (${detail})`,
    undefined,
    { cause: error, transient: true },
  );
}

// playwright-core takes about 80 MB and a third of a second of CPU to load: it is loaded by the
// first render, so an import worker whose pages all read from their static HTML never loads it.
let playwright: Promise<typeof Playwright> | undefined;
const loadPlaywright = () => (playwright ??= import("playwright-core"));

async function renderIn(
  page: Page,
  policy: UrlPolicy,
  start: string,
  timeoutMs: number,
  settleMs: number,
): Promise<RenderResult> {
  const deadline = Date.now() + timeoutMs;
  await page.route("**/*", (route) =>
    (HEAVY_RESOURCES.has(route.request().resourceType())
      ? route.abort("blockedbyclient")
      : route.continue()
    ).catch(() => undefined),
  );
  let lastMainUrl = start;
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      lastMainUrl = request.url();
  });

  const { errors } = await loadPlaywright();
  let response;
  try {
    response = await page.goto(start, { waitUntil: "domcontentloaded", timeout: timeoutMs });
  } catch (error) {
    if (error instanceof errors.TimeoutError) throw error;
    throw await blockedOrFailed(policy, start, lastMainUrl, error);
  }
  if (response) {
    const url = response.url();
    if (response.headers()[BLOCKED_HEADER] === BLOCKED_HEADER_VALUE)
      throw await blockedOrFailed(policy, start, url, new Error("refused by the filtering proxy"));
    if (response.status() >= 400)
      throw new FetchFailedError(
        url,
        describeStatus(url, response.status(), response.statusText()),
        response.status(),
      );
  }
  const settle = Math.min(settleMs, deadline - Date.now());
  // Pages that poll or stream never go idle; a short bounded wait still lets their first XHRs land.
  if (settle > 0)
    await page.waitForLoadState("networkidle", { timeout: settle }).catch(() => undefined);
  return { finalUrl: page.url(), html: await page.content() };
}

export function createRenderer(options: RendererOptions): Renderer {
  const { policy } = options;
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const defaultTimeoutMs = options.navigationTimeoutMs ?? 20_000;
  const settleMs = options.settleMs ?? 2_000;
  const slots = new Semaphore(options.concurrency ?? 2);
  let proxy: Promise<FilteringProxy> | undefined;
  let launching: Promise<Browser> | undefined;
  let closed = false;
  let proxyBlocked: readonly string[] = [];

  const filteringProxy = (): Promise<FilteringProxy> =>
    (proxy ??= startFilteringProxy(policy).then((started) => {
      proxyBlocked = started.blocked;
      return started;
    }));

  const browser = (): Promise<Browser> => {
    if (closed) return Promise.reject(new Error("renderer is closed"));
    if (launching) return launching;
    const attempt = loadPlaywright().then(({ chromium }) =>
      options.rendererUrl
        ? chromium.connect(options.rendererUrl, { timeout: 10_000 })
        : chromium.launch(chromiumLaunchOptions(executablePath)),
    );
    launching = attempt;
    // A crashed, failed or restarted browser is forgotten so the next render gets a fresh one.
    const forget = () => {
      if (launching === attempt) launching = undefined;
    };
    attempt.then((b) => b.on("disconnected", forget), forget);
    return attempt;
  };

  const renderOnce = async (start: string, timeoutMs: number): Promise<RenderResult> => {
    const [b, { url: proxyUrl }] = await Promise.all([browser(), filteringProxy()]).catch(
      (error: unknown) => {
        // Chromium would not start, or the renderer process is down (restarting, say).
        throw new FetchFailedError(
          start,
          `No browser could render ${start}; try again`,
          undefined,
          {
            cause: error,
            transient: true,
          },
        );
      },
    );
    const { errors } = await loadPlaywright();
    // A fresh context per page: no cookies, storage or cache shared between merchants. All its
    // traffic goes to this process's filtering proxy (the browser may run in another process).
    const context: BrowserContext = await b.newContext({
      proxy: { server: proxyUrl },
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new errors.TimeoutError("render timeout")), timeoutMs);
    });
    const work = context
      .newPage()
      .then((page) => renderIn(page, policy, start, timeoutMs, settleMs));
    work.catch(() => undefined); // it may lose the race below and fail once the context closes
    try {
      // The page's own scripts can hang page.content(); the race bounds everything.
      return await Promise.race([work, timedOut]);
    } catch (error) {
      if (error instanceof errors.TimeoutError) {
        throw new FetchFailedError(
          start,
          `Rendering ${start} took longer than ${timeoutMs} ms; the page may be too slow or never finish loading`,
          undefined,
          { cause: error, transient: true },
        );
      }
      throw error instanceof BlockedUrlError || error instanceof FetchFailedError
        ? error
        : await blockedOrFailed(policy, start, start, error);
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => undefined);
    }
  };

  return {
    async render(url, opts = {}) {
      const checked = await checkPublicUrl(url, policy);
      return slots.run(() => renderOnce(checked.url.href, opts.timeoutMs ?? defaultTimeoutMs));
    },
    async close() {
      closed = true;
      const pending = launching;
      launching = undefined;
      await pending?.then(
        (b) => b.close(),
        () => undefined,
      );
      await proxy?.then(
        (p) => p.close(),
        () => undefined,
      );
    },
    get blocked() {
      return proxyBlocked;
    },
  };
}
