// Issue 34, item 7: addresses the service refuses (not public, with a password) are each listed
// with their reason, not only the first, and "Remove them" takes them all out of the list.
import { join } from "node:path";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

test("several refused addresses are each listed with a reason, and removed in one click", async ({
  page,
  org,
}) => {
  await signIn(page, org.member, "/imports");
  const addresses = page.getByLabel("Product page addresses, one per line");
  // Lines 2, 3 and 5 look like addresses, so the form lets them go; the service refuses them
  // (a user name or password in the address, a multicast address).
  await addresses.fill(
    [
      "https://shop.example/products/rope-basket",
      "https://admin@shop.example/products/kettle",
      "https://owner:secret@shop.example/products/lamp",
      "https://shop.example/products/tin-lantern",
      "http://224.0.0.1/products/mug",
    ].join("\n"),
  );
  await page.getByRole("button", { name: "Preview 5 pages" }).click();

  const refused = page.getByRole("status").filter({ hasText: "could not be read" });
  await expect(refused).toContainText("These 3 addresses cannot be imported");
  const items = refused.getByRole("listitem");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("Line 2");
  await expect(items.nth(0)).toContainText("https://admin@shop.example/products/kettle");
  await expect(items.nth(0)).toContainText("Remove the user name and password");
  await expect(items.nth(1)).toContainText("Line 3");
  await expect(items.nth(1)).toContainText("Remove the user name and password");
  await expect(items.nth(2)).toContainText("Line 5");
  await expect(items.nth(2)).toContainText("http://224.0.0.1/products/mug");
  await expect(items.nth(2)).toContainText("not the address of a web site");
  // Nothing was started.
  await expect(page).toHaveURL(/\/imports(\?.*)?$/);
  await page.screenshot({
    path: join(SCREENSHOTS, "import-refused-lines-1280.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({
    path: join(SCREENSHOTS, "import-refused-lines-390.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });

  await refused.getByRole("button", { name: "Remove them" }).click();
  await expect(addresses).toHaveValue(
    ["https://shop.example/products/rope-basket", "https://shop.example/products/tin-lantern"].join(
      "\n",
    ),
  );
  await expect(refused).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Preview 2 pages" })).toBeVisible();
});
