// Issue 34, item 1: a connect that cannot go ahead never leaves the merchant on a JSON page. The
// form checks the shop's shape before leaving; whatever the gateway refuses (the connect request
// or the channel's return) comes back to Destinations with the reason in that store's form.
import { join } from "node:path";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

test("a mistyped shop name is caught in the form before leaving the dashboard", async ({
  page,
  org,
}) => {
  await signIn(page, org.owner, "/destinations");
  const connect = page.getByRole("form", { name: "Connect a Shopify store" });
  const shop = connect.getByLabel("Shop domain");
  await shop.fill("harbour shop");
  await connect.getByRole("button", { name: "Connect Shopify" }).click();

  await expect(connect).toContainText("Shop domain should look like acme.myshopify.com");
  await expect(shop).toBeFocused();
  await expect(shop).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/destinations$/);
  await page.screenshot({
    path: join(SCREENSHOTS, "connect-errors-form-1280.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await connect.screenshot({ path: join(SCREENSHOTS, "connect-errors-form-390.png") });
});

test("a refused connect or return from the store comes back to the form with the reason", async ({
  page,
  org,
}) => {
  await signIn(page, org.owner, "/destinations");

  // The gateway's own check of the shop (a link, a bookmark, an old page: the form was bypassed).
  await page.goto("/api/integrations/shopify/connect?shop=harbour%20shop");
  await expect(page).toHaveURL(/\/destinations$/);
  await expect(page.getByRole("heading", { name: "Destinations", level: 1 })).toBeVisible();
  const shopify = page.getByRole("form", { name: "Connect a Shopify store" });
  await expect(shopify).toContainText(
    "Shop domain must be the shop's myshopify.com domain, e.g. acme.myshopify.com",
  );
  await expect(shopify.getByLabel("Shop domain")).toHaveAttribute("aria-invalid", "true");
  await expect(shopify.getByLabel("Shop domain")).toBeFocused();
  await expect(page.getByText("querystring/")).toHaveCount(0);

  // A return every channel refuses: a forged or stale connect attempt.
  const channels = [
    ["shopify", "Shopify", "a", "state"],
    ["ebay", "eBay", "an", "state"],
    ["etsy", "Etsy", "an", "state"],
    ["amazon", "Amazon", "an", "state"],
    ["woocommerce", "WooCommerce", "a", "user_id"],
  ] as const;
  for (const [channel, name, article, stateParam] of channels) {
    await page.goto(`/api/integrations/${channel}/callback?${stateParam}=forged-attempt`);
    await expect(page).toHaveURL(/\/destinations$/);
    const form = page.getByRole("form", { name: `Connect ${article} ${name} store` });
    const alert = form.getByRole("alert");
    await expect(alert, name).toContainText(`${name} was not connected.`);
    await expect(alert, name).toContainText(
      "This connect attempt is unknown, expired, already used or was started by another session: connect again",
    );
    await expect(form.getByRole("button", { name: `Connect ${name}` })).toBeEnabled();
  }
  await page.screenshot({
    path: join(SCREENSHOTS, "connect-errors-callback-1280.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole("form", { name: "Connect a WooCommerce store" })
    .screenshot({ path: join(SCREENSHOTS, "connect-errors-callback-390.png") });
});
