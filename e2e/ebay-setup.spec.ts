// Issue 34, item 4: an eBay store's settings chosen from the seller's own account (business
// policies, inventory locations, categories found by words) instead of ids typed in, placeholders
// that read as hints, and "Needs setup" in amber, not a green "Healthy", until they are chosen.
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

test("a new eBay store needs setup; the owner picks its policies, location and category from lists, and it turns healthy", async ({
  page,
  org,
  db,
}) => {
  await signIn(page, org.owner, "/destinations");
  // Connected through eBay's (the stand-in's) sign-in page: a seller with policies and locations.
  await page
    .getByRole("form", { name: "Connect an eBay store" })
    .getByRole("button", { name: "Connect eBay" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "eBay store connected" })).toBeVisible();

  const card = page.getByRole("article", { name: "eBay seller" });
  const needsSetup = card.getByText("Needs setup", { exact: true });
  await expect(needsSetup).toBeVisible();
  await expect(needsSetup).toHaveClass(/badge-warn/);
  await expect(card.getByText("Healthy", { exact: true })).toHaveCount(0);

  await card.getByRole("button", { name: "eBay settings" }).click();
  const form = card.getByRole("form", { name: "eBay settings of eBay seller" });
  // Typed-in settings show hints, not values that look filled in.
  await expect(form.getByLabel("Listing language")).toHaveAttribute("placeholder", "e.g. en-US");

  // A marketplace where the seller has no policies yet: said, and the id can be typed instead.
  const marketplace = form.getByLabel("Marketplace");
  await marketplace.selectOption({ label: "Germany (ebay.de) — prices in EUR" });
  const returns = form.getByLabel("Return policy");
  await expect(returns).toHaveAccessibleDescription(
    /No return policy in your eBay account for Germany yet: create one on eBay, or type its id here/,
  );
  await expect(returns).toHaveJSProperty("tagName", "INPUT");
  await page.screenshot({ path: `${SCREENSHOTS}/ebay-setup-none-1280.png`, fullPage: true });

  await marketplace.selectOption({ label: "United States (ebay.com) — prices in USD" });
  await form.getByLabel("Payment policy").selectOption({
    label: "Immediate payment — Card or PayPal, paid at once",
  });
  await returns.selectOption({ label: "30-day returns — Buyer pays return postage" });
  await form
    .getByLabel("Shipping policy")
    .selectOption({ label: "Free express — UPS 2nd Day Air" });
  await form
    .getByLabel("Inventory location")
    .selectOption({ label: "Main warehouse — Austin, TX, US" });

  await form.getByLabel("Search eBay categories").fill("athletic shoes");
  const found = form.getByRole("group", { name: "Suggested categories" });
  await expect(found.getByRole("radio")).toHaveCount(2);
  await found.getByRole("radio", { name: /Athletic Shoes.*Women's Shoes/ }).check();
  await expect(form.getByLabel("Category id")).toHaveValue("95672");

  await page.screenshot({ path: `${SCREENSHOTS}/ebay-setup-form-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await form.screenshot({ path: `${SCREENSHOTS}/ebay-setup-form-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form).toHaveCount(0);
  await expect(card.getByText("Healthy", { exact: true })).toBeVisible();
  await expect(needsSetup).toHaveCount(0);
  const saved = await db.destinationAccount.findFirstOrThrow({
    where: { orgId: org.org.id, channel: "ebay" },
  });
  expect(saved.settings).toEqual({
    marketplaceId: "EBAY_US",
    paymentPolicyId: "pay-1",
    returnPolicyId: "ret-1",
    fulfillmentPolicyId: "ful-2",
    merchantLocationKey: "warehouse-1",
    categoryId: "95672",
  });

  await page.screenshot({ path: `${SCREENSHOTS}/ebay-setup-healthy-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await card.screenshot({ path: `${SCREENSHOTS}/ebay-setup-healthy-390.png` });
});
