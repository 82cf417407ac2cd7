import { test, expect } from "./support/fixtures.js";
import { SCREENSHOTS } from "./support/paths.js";
import { addProducts, signIn } from "./support/actions.js";

// Issue 34, item 10 (second half): the edit form's currency is the import form's list, one control.
test("the product form's currency is the import form's list of currencies", async ({
  page,
  org,
  db,
}) => {
  await addProducts(db, org.org.id, 1, "Wool throw");
  await signIn(page, org.member, "/imports?tab=file");
  const importCurrency = page.getByLabel("Currency for prices without one");
  const importCodes = (await importCurrency.locator("option").allTextContents()).slice(1);
  expect(importCodes).toContain("GBP");

  await page.goto("/products");
  await page.getByRole("link", { name: "Wool throw 1" }).click();
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  const currency = form.getByLabel("Currency");
  await expect(currency).toHaveValue("EUR");
  expect((await currency.locator("option").allTextContents()).slice(1)).toEqual(importCodes);
  await currency.selectOption("GBP");
  await page.screenshot({ path: `${SCREENSHOTS}/currency-control-1280.png`, fullPage: true });
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText("£19.90").first()).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(form.getByLabel("Currency")).toHaveValue("GBP");
  await form.getByLabel("Currency").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/currency-control-390.png` });
});
