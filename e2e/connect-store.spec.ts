import { test, expect } from "./support/fixtures.js";
import { signIn, unique } from "./support/actions.js";

test("connect the Shopify stand-in and land back in the dashboard", async ({
  page,
  org,
  stack,
}) => {
  const channels = JSON.parse(stack.E2E_CHANNEL_URLS) as Record<string, string>;
  const shop = `harbour-${unique()}.myshopify.com`;

  await signIn(page, org.owner, "/destinations");
  await expect(page.getByRole("heading", { name: "No store connected yet" })).toBeVisible();
  const connect = page.getByRole("form", { name: "Connect a Shopify store" });
  await connect.getByLabel("Shop domain").fill(shop);
  await connect.getByRole("button", { name: "Connect Shopify" }).click();

  // Shopify's authorize page (the stand-in approves at once) sends the browser back to the
  // gateway's callback, which sends it on to the dashboard: never a JSON page.
  await expect(page).toHaveURL(/\/destinations$/);
  const notice = page.getByRole("status").filter({ hasText: "Shopify store connected" });
  await expect(notice).toContainText("You can publish to it now.");
  const card = page.getByRole("article").filter({ hasText: "Shopify" });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Healthy")).toBeVisible();

  // The store exists on Shopify's side too.
  const stores = (await (await fetch(`${channels.shopify}/_control/stores`)).json()) as {
    stores: string[];
  };
  expect(stores.stores.some((s) => s.includes(shop.replace(".myshopify.com", "")))).toBe(true);
});
