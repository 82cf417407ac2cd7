// What tests do often: sign in as a user would, and put the state a flow starts from in the
// database (products, a destination on the generic stand-in) the way the factories do.
import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import {
  createDestination,
  type CredentialKeyring,
  type Db,
  type ProductFields,
} from "@catalog/db";
import { makeProduct, type TestUser } from "@catalog/testing";
import type { StackEnv } from "./paths.js";

/**
 * Opens `path` (the app sends a signed-out user to sign in first), signs in and waits to be back on
 * `path`.
 */
export async function signIn(page: Page, user: TestUser, path = "/products"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/**
 * Signs out and waits for the sign-in screen: only then has the gateway ended the session. A
 * navigation started sooner can cancel the sign-out request and find the session still alive.
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}

/**
 * Ends `user`'s sessions as their expiry would, then waits until the gateway agrees: its session
 * cache learns of the change from PostgreSQL's notification, which comes a moment after the UPDATE.
 */
export async function expireSessions(page: Page, db: Db, user: TestUser): Promise<void> {
  await db.session.updateMany({
    where: { userId: user.id },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  // page.request carries the page's cookie, but is not the dashboard: its 401 redirects nothing.
  await expect.poll(async () => (await page.request.get("/api/auth/session")).status()).toBe(401);
}

export const unique = () => randomBytes(3).toString("hex");

/**
 * Products of the org, created as the system would (titles "<label> 1".."<label> n", SKUs unique).
 */
export async function addProducts(
  db: Db,
  orgId: string,
  count: number,
  label: string,
  fields: Partial<ProductFields> = {},
): Promise<{ id: string; title: string; sku: string }[]> {
  const tag = unique().toUpperCase();
  const products = [];
  for (let i = 1; i <= count; i++) {
    const sku = `${label.replace(/\W/g, "").toUpperCase().slice(0, 8)}-${tag}-${i}`;
    const product = await makeProduct(db, orgId, {
      // No image addresses: the browser would try to fetch them, and nothing outside loopback
      // answers here.
      title: `${label} ${i}`,
      sku,
      price: { amount: "19.90", currency: "EUR" },
      availability: "InStock",
      ...fields,
    });
    products.push({ id: product.id, title: product.title, sku });
  }
  return products;
}

/**
 * A destination on the generic stand-in channel; `store` names its store there (faults are set per
 * store).
 */
export interface StandinShop {
  /** The destination's id. */
  id: string;
  /** The store's name on the stand-in (faults and inspection are per store). */
  store: string;
}

export async function addStandinDestination(
  db: Db,
  keyring: CredentialKeyring,
  orgId: string,
  standinUrl: string,
  name: string,
): Promise<StandinShop> {
  const store = `${name.toLowerCase().replace(/\W+/g, "-")}-${unique()}`;
  const destination = await createDestination(db, keyring, {
    orgId,
    channel: "standin",
    name,
    baseUrl: standinUrl,
    credentials: { token: `${store}:secret` },
  });
  return { id: destination.id, store };
}

/**
 * Sets a fault on a stand-in's store over its control API
 * (packages/channels/src/standins/kit/control-api.ts).
 */
export async function setStandinFault(
  standinUrl: string,
  store: string,
  fault: Record<string, unknown> | null,
): Promise<void> {
  const url = `${standinUrl}/_control/stores/${encodeURIComponent(store)}/fault`;
  const response = fault
    ? await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(fault),
      })
    : await fetch(url, { method: "DELETE" });
  if (!response.ok) throw new Error(`stand-in fault ${response.status}: ${await response.text()}`);
}

/** A store's listings and counts on a stand-in. */
export async function standinStore(
  standinUrl: string,
  store: string,
): Promise<{
  listings: { sku: string | null; title: string }[];
  counts: { create: number; update: number; requests: number };
}> {
  const response = await fetch(`${standinUrl}/_control/stores/${encodeURIComponent(store)}`);
  if (!response.ok) throw new Error(`stand-in store ${response.status}: ${await response.text()}`);
  return (await response.json()) as never;
}

/**
 * An API client signed in as `user` (its own cookies, apart from the page's): for state a test sets
 * up, not for what it checks.
 */
export async function apiAs(
  playwright: { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } },
  baseURL: string,
  user: TestUser,
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  const response = await api.post("/api/auth/session", {
    data: { email: user.email, password: user.password },
  });
  if (!response.ok())
    throw new Error(`signing in ${user.email}: ${response.status()} ${await response.text()}`);
  return api;
}

/**
 * Publishes through the API as the signed-in client; the job ids and the run, as the gateway
 * answers.
 */
export async function publishThroughApi(
  api: APIRequestContext,
  productIds: string[],
  destinationIds: string[],
): Promise<{ runId?: string; jobs: { syncLogId: string; productId: string }[] }> {
  const response = await api.post("/api/products/publish", {
    data: { productIds, destinationAccountIds: destinationIds },
  });
  if (response.status() !== 202 && response.status() !== 200)
    throw new Error(`publish: ${response.status()} ${await response.text()}`);
  return (await response.json()) as never;
}

/** Waits until the stand-in store lists `count` listings (`timeout`: the config's by default). */
export async function waitForStandinListings(
  standinUrl: string,
  store: string,
  count: number,
  timeout?: number,
): Promise<void> {
  await expect
    .poll(async () => (await standinStore(standinUrl, store)).listings.length, { timeout })
    .toBe(count);
}

/**
 * The link in the newest email the mail catcher received for `to`, once more than `seen` have come
 * (the gateway sends after answering, so it is waited for).
 */
export async function mailedLink(
  request: APIRequestContext,
  stack: StackEnv,
  to: string,
  seen = 0,
): Promise<string> {
  let text = "";
  await expect
    .poll(async () => {
      const res = await request.get(
        `${stack.E2E_MAILBOX_URL}/messages?to=${encodeURIComponent(to)}`,
      );
      const mails = (await res.json()) as { text: string }[];
      text = mails.at(-1)?.text ?? "";
      return mails.length;
    })
    .toBeGreaterThan(seen);
  const link = /(https?:\/\/\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`the email to ${to} holds no link:\n${text}`);
  return link;
}
