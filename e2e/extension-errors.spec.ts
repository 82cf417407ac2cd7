import { createApiKey, revokeApiKey } from "@catalog/db";
import { test, expect } from "./support/extension.js";
import { pairExtension } from "./support/extension-actions.js";

/** What a bot-protection service shows instead of the shop while it checks the visitor. */
const robotCheck = `<!doctype html><html><head><title>Just a moment...</title></head>
<body><div class="main-wrapper"><h1>shop.example</h1><h2>Verify you are human by completing the action below.</h2>
<div id="challenge-stage"><div class="cf-turnstile" data-sitekey="0x4AAAA"></div></div>
<p>shop.example needs to review the security of your connection before proceeding.</p></div></body></html>`;

const notAProduct = `<!doctype html><html><head><title>Our story | Kiln & Co</title></head>
<body><h1>Our story</h1><p>We have thrown pots by the harbour since 1987.</p></body></html>`;

test("a revoked key asks to pair again; a robot check asks to pass it first; a page with no product can be entered by hand", async ({
  extension,
  db,
  org,
  stack,
}) => {
  const site = await extension.serve({
    "/check": { body: robotCheck, status: 403 },
    "/about": { body: notAProduct },
  });
  const first = await createApiKey(db, org.org.id, "Old laptop");
  await pairExtension(extension, stack.E2E_BASE_URL, first.key, org.org.name);
  await revokeApiKey(db, org.org.id, first.id);
  const shop = await extension.newPage();
  await shop.goto(site.url("/about"));

  const refused = await extension.clickButtonOn(shop);
  await expect(refused.getByRole("alert")).toContainText(
    "The service no longer accepts this extension's key",
  );
  await refused.getByRole("button", { name: "Pair again" }).click();
  // The address is kept; only a new key is asked for.
  await expect(refused.getByLabel("Service address")).toHaveValue(stack.E2E_BASE_URL);
  const second = await createApiKey(db, org.org.id, "New laptop");
  await refused.getByLabel("Extension key").fill(second.key);
  await refused.getByRole("button", { name: "Pair" }).click();

  // Paired again, the popup reads the page it was opened for: no product there.
  await expect(
    refused.getByRole("status").filter({ hasText: "doesn't look like a product page" }),
  ).toBeVisible({ timeout: 20_000 });
  await refused.getByRole("button", { name: "Enter it by hand" }).click();
  await expect(refused.getByLabel("Title")).toHaveValue("Our story | Kiln & Co");
  await refused.getByLabel("Title").fill("Harbour vase");
  await refused.getByLabel("Price").fill("65");
  await refused.getByLabel("Currency").fill("eur");
  await refused.getByRole("button", { name: "Add to catalog" }).click();
  await expect(
    refused.getByRole("status").filter({ hasText: "Added to your catalog" }),
  ).toContainText("Harbour vase");
  const stored = await db.product.findFirstOrThrow({
    where: { orgId: org.org.id, title: "Harbour vase" },
  });
  expect([
    stored.source,
    stored.priceAmount?.toString(),
    stored.priceCurrency,
    stored.sourceUrl,
  ]).toEqual(["extension", "65", "EUR", site.url("/about")]);

  await shop.goto(site.url("/check"));
  const blocked = await extension.clickButtonOn(shop);
  await expect(blocked.getByRole("status").filter({ hasText: /robot|human|captcha/i })).toBeVisible(
    { timeout: 20_000 },
  );
  await expect(blocked.getByRole("button", { name: "Try again" })).toBeVisible();
  expect(await db.product.count({ where: { orgId: org.org.id } })).toBe(1);
});
