// What every browser test gets: the stack's addresses, the run's database, an org of the test's
// own (member, owner, operator, a fresh one per test so tests side by side never see each other's
// catalog). The dashboard's tests also get a page whose last screen is saved to
// artifacts/screenshots/<test name>.png, and a check that the page logged no error.
import { join } from "node:path";
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import { createDb, parseKeyring, type CredentialKeyring, type Db } from "@catalog/db";
import { createTestOrg, type TestOrg, type TestUser } from "@catalog/testing";
import { SCREENSHOTS, stackEnv, type StackEnv } from "./paths.js";
import { addStandinDestination, apiAs, publishThroughApi, type StandinShop } from "./actions.js";

export interface WorkerFixtures {
  stack: StackEnv;
  db: Db;
  keyring: CredentialKeyring;
}

export interface OrgFixtures {
  org: TestOrg;
  /** A new store `name` on the stand-in channel, in the test's org. */
  shop: (name: string) => Promise<StandinShop>;
  /**
   * A new stand-in store `name` in the test's org, and `productIds` published to it through the
   * API as the org's member: the start of every flow about a live listing. Returns the store and
   * the member's API context.
   */
  publishToNewShop: (
    productIds: string[],
    name: string,
  ) => Promise<{ store: StandinShop; api: APIRequestContext }>;
}

export interface TestFixtures {
  /** Errors the page logged (uncaught exceptions, console.error); the test fails if any remain. */
  consoleErrors: string[];
}

/**
 * "Failed to load resource" is Chromium's note of any 4xx/5xx answer, which some tests provoke on
 * purpose (401, 422).
 */
export const BROWSER_NETWORK_NOTE =
  /^Failed to load resource: the server responded with a status of \d+/;

export const screenshotName = (title: string) =>
  `${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}.png`;

/** What every browser test stands on: the stack, its database and an org of the test's own. */
export const stackTest = base.extend<OrgFixtures, WorkerFixtures>({
  stack: [async ({}, use) => use(stackEnv()), { scope: "worker" }],
  db: [
    async ({ stack }, use) => {
      const db = createDb(stack.E2E_DATABASE_URL, { poolSize: 4 });
      await use(db);
      await db.$disconnect();
    },
    { scope: "worker" },
  ],
  keyring: [
    async ({ stack }, use) => use(parseKeyring(stack.E2E_CREDENTIALS_KEYS)),
    { scope: "worker" },
  ],
  baseURL: async ({ stack }, use) => use(stack.E2E_BASE_URL),
  org: async ({ db }, use) => use(await createTestOrg(db, "e2e")),
  shop: async ({ db, keyring, org, stack }, use) =>
    use((name) => addStandinDestination(db, keyring, org.org.id, stack.E2E_STANDIN_URL, name)),
  publishToNewShop: async ({ shop, org, stack, playwright }, use) =>
    use(async (productIds, name) => {
      const store = await shop(name);
      const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
      await publishThroughApi(api, productIds, [store.id]);
      return { store, api };
    }),
});

/**
 * The dashboard's tests: a page of the default browser, its console checked and its last screen
 * kept.
 */
export const test = stackTest.extend<TestFixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !BROWSER_NETWORK_NOTE.test(message.text()))
          errors.push(`console.error: ${message.text()}`);
      });
      await use(errors);
      // Every test checks the console: an error the dashboard logged fails it.
      expect(errors, "errors in the browser console").toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page }, use, testInfo) => {
    await use(page);
    // The last screen, whatever the outcome: what the test saw when it ended.
    await page
      .screenshot({ path: join(SCREENSHOTS, screenshotName(testInfo.title)), fullPage: true })
      .catch(() => undefined);
  },
});

export { expect };
export type { Page, TestOrg, TestUser };
