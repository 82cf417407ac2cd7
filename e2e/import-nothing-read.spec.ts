// Issue 34, item 6: a URL import where every page failed has its own state, a title from the
// address, and reasons a person understands; the fetch layer's words wait behind "Details".
import { join } from "node:path";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

test("a URL import where every page failed says nothing could be read, and why, in plain words", async ({
  page,
  org,
}) => {
  await signIn(page, org.member, "/imports");
  // .invalid names never resolve (RFC 6761): the pages' address is not found.
  await page
    .getByLabel("Product page addresses, one per line")
    .fill(
      ["https://shop.invalid/products/kettle", "https://shop.invalid/products/lamp"].join("\n"),
    );
  await page.getByRole("button", { name: "Preview 2 pages" }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("2 pages from shop.invalid", {
    timeout: 45_000,
  });
  const state = page.getByRole("alert").filter({ hasText: "Nothing could be read" });
  await expect(state).toBeVisible({ timeout: 45_000 });
  await expect(state).toContainText("None of the 2 pages");
  await expect(page.getByText("Preview ready")).toHaveCount(0);
  await expect(page.getByText(/0 of 0/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Store/ })).toHaveCount(0);

  const kettle = page.getByRole("row").filter({ hasText: "/products/kettle" });
  await expect(kettle).toContainText("Address not found");
  await expect(kettle).toContainText("Check the address for a typo");
  await expect(kettle.getByText(/ENOTFOUND|EAI_AGAIN|DNS lookup/)).toBeHidden();
  await kettle.getByText("Details").click();
  await expect(kettle.getByText(/DNS lookup failed/)).toBeVisible();

  await page.screenshot({
    path: join(SCREENSHOTS, "import-nothing-read-1280.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SCREENSHOTS, "import-nothing-read-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await state.getByRole("link", { name: "Try other addresses" }).click();
  await expect(page.getByLabel("Product page addresses, one per line")).toBeVisible();
});
