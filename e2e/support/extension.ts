// The browser extension's tests: a Chromium profile of the test's own with the built extension
// (apps/extension/dist/chrome) loaded, and what only a browser's user can do: click the
// extension's toolbar button on a page. That click is CDP's Extensions.triggerAction, which
// grants activeTab exactly as a real click does; the popup it opens cannot be driven by
// Playwright, so the test then opens the same popup for that tab in a tab of its own
// (popup.html?tab=<id>, the popup's "Open in a larger window"), where the grant holds.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { startFixtureServer, type FixturePage } from "@catalog/testing";
import { BROWSER_NETWORK_NOTE, expect, screenshotName, stackTest } from "./fixtures.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, EXTENSION_DIR, SCREENSHOTS } from "./paths.js";

/** The one extension API the harness calls, in the extension's service worker. */
declare const chrome: { tabs: { query(filter: object): Promise<{ id?: number; url?: string }[]> } };

export interface ExtensionHarness {
  context: BrowserContext;
  /** A tab for a shop's page. */
  newPage(): Promise<Page>;
  /**
   * The popup with no page behind it (as opened from Chrome's extensions menu): pairing, unpairing.
   */
  openPopup(): Promise<Page>;
  /** Clicks the extension's button on `page`, then returns the popup for that page. */
  clickButtonOn(page: Page): Promise<Page>;
  /**
   * A shop's pages on loopback (the record may be filled in after, as the URLs are known), closed
   * after the browser: the popup's pictures may still load while its last screen is taken.
   */
  serve(
    pages: Record<string, FixturePage>,
  ): Promise<Awaited<ReturnType<typeof startFixtureServer>>>;
}

export const test = stackTest.extend<{ extension: ExtensionHarness }>({
  extension: async ({}, use, testInfo) => {
    if (!existsSync(join(EXTENSION_DIR, "manifest.json"))) {
      throw new Error(
        `no extension build in ${EXTENSION_DIR}: run \`pnpm extension:build\` first (scripts/test.sh does)`,
      );
    }
    const context = await chromium.launchPersistentContext("", {
      executablePath: CHROMIUM_PATH,
      headless: true,
      viewport: { width: 420, height: 760 },
      // Extensions.triggerAction answers only with --enable-unsafe-extension-debugging (and over
      // the pipe Playwright uses).
      args: [
        ...CHROMIUM_ARGS,
        `--disable-extensions-except=${EXTENSION_DIR}`,
        `--load-extension=${EXTENSION_DIR}`,
        "--enable-unsafe-extension-debugging",
      ],
    });
    const errors: string[] = [];
    context.on("page", (page) => {
      page.on("pageerror", (error) => errors.push(`uncaught in ${page.url()}: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !BROWSER_NETWORK_NOTE.test(message.text()))
          errors.push(`console.error in ${page.url()}: ${message.text()}`);
      });
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    const id = new URL(worker.url()).host;
    let lastPopup: Page | null = null;
    const sites: Awaited<ReturnType<typeof startFixtureServer>>[] = [];

    const openPopup = async (query = "") => {
      const popup = await context.newPage();
      await popup.goto(`chrome-extension://${id}/popup.html${query}`);
      lastPopup = popup;
      return popup;
    };

    await use({
      context,
      newPage: () => context.newPage(),
      openPopup: () => openPopup(),
      async clickButtonOn(page) {
        const browser = context.browser();
        if (!browser)
          throw new Error(
            "the persistent context has no browser to send Extensions.triggerAction to",
          );
        const cdp = await browser.newBrowserCDPSession();
        try {
          const { targetInfos } = await cdp.send("Target.getTargets", {
            filter: [{ type: "tab" }],
          });
          const tabs = targetInfos.filter((t) => t.url === page.url());
          if (tabs.length !== 1)
            throw new Error(`expected one tab showing ${page.url()}, found ${tabs.length}`);
          await cdp.send(
            "Extensions.triggerAction" as never,
            { id, targetId: tabs[0]!.targetId } as never,
          );
        } finally {
          await cdp.detach();
        }
        // With the grant, the extension may see this tab's address: that is how it is found.
        let tabId: number | undefined;
        await expect
          .poll(
            async () =>
              (tabId = await worker.evaluate(
                async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)?.id,
                page.url(),
              )),
          )
          .toBeDefined();
        return openPopup(`?tab=${tabId}`);
      },
      async serve(pages) {
        const site = await startFixtureServer(pages);
        sites.push(site);
        return site;
      },
    });

    // The last popup the test used is its last screen.
    if (lastPopup)
      await (lastPopup as Page)
        .screenshot({ path: join(SCREENSHOTS, screenshotName(testInfo.title)), fullPage: true })
        .catch(() => undefined);
    await context.close();
    await Promise.all(sites.map((site) => site.close()));
    expect(errors, "errors in the extension's pages").toEqual([]);
  },
});

export { expect };
