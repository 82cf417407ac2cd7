import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("import a spreadsheet: preview with a diff, leave a row out, store the rest", async ({ page, org, db }) => {
  // Already in the catalog: one product the file changes, one it repeats as it is.
  const [blue] = await addProducts(db, org.org.id, 1, "Blue mug", { price: { amount: "12.00", currency: "EUR" }, description: "Glazed stoneware." });
  const [green] = await addProducts(db, org.org.id, 1, "Green mug", { price: { amount: "12.00", currency: "EUR" }, description: "Glazed stoneware." });
  // No currency in the file: the user picks it.
  const csv = [
    "title,sku,price,description",
    `Blue mug 1,${blue!.sku},14.00,Glazed stoneware.`,
    "Red mug,MUG-RED-1,12.50,Glazed stoneware.",
    "Yellow mug,MUG-YEL-1,13.00,Glazed stoneware.",
    ",MUG-NONAME,9.00,A row without a title.",
    `Green mug 1,${green!.sku},12.00,Glazed stoneware.`,
  ].join("\n");

  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page.getByLabel("Product file").setInputFiles({ name: "mugs.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByText("mugs.csv")).toBeVisible();
  await page.getByLabel("Currency for prices without one").selectOption("EUR");
  await page.getByRole("button", { name: "Preview file" }).click();

  // The preview: what each row would do, nothing stored yet.
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);
  await expect(page.getByRole("heading", { name: "mugs.csv", level: 1 })).toBeVisible();
  // The import's status, as the screen announces it (the badge beside the title says the same).
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({ timeout: 30_000 });
  await expect(page.getByText("prices without a currency read as EUR")).toBeVisible();
  const rows = page.getByRole("row");
  const update = rows.filter({ hasText: "Blue mug 1" });
  await expect(update.getByText("Update", { exact: true })).toBeVisible();
  await expect(update).toContainText("matched by SKU");
  await expect(update.getByRole("listitem").filter({ hasText: "Price" })).toContainText("12.00 EUR → 14.00 EUR");
  await expect(rows.filter({ hasText: "Red mug" }).getByText("New", { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: "Red mug" })).toContainText("12.50 EUR");
  await expect(rows.filter({ hasText: "Yellow mug" }).getByText("New", { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: "Green mug 1" }).getByText("Unchanged", { exact: true })).toBeVisible();
  const error = rows.filter({ hasText: "Row 5" });
  await expect(error.getByText("Error", { exact: true })).toBeVisible();
  await expect(error).toContainText("no title (expected a Title/Name column)");
  expect(await db.product.count({ where: { orgId: org.org.id } })).toBe(2);

  // Leave the yellow mug out, store the rest.
  const storeBar = page.getByRole("region", { name: "Store the preview" });
  await expect(storeBar).toContainText("3 of 3 new or updated products will be stored");
  await page.getByRole("checkbox", { name: "Store Yellow mug" }).uncheck();
  await expect(storeBar).toContainText("2 of 3 new or updated products will be stored");
  await expect(storeBar).toContainText("1 row with errors will not be stored");
  await storeBar.getByRole("button", { name: "Store 2 products" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored." })).toContainText("1 created, 1 updated, 1 unchanged, 1 left out.");

  // The catalog has exactly what the preview showed.
  await page.getByRole("link", { name: "Open the catalog" }).click();
  const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(productRows).toHaveCount(3);
  await expect(productRows.filter({ hasText: "Red mug" })).toContainText("€12.50");
  await expect(productRows.filter({ hasText: "Blue mug 1" })).toContainText("€14.00");
  await expect(productRows.filter({ hasText: "Green mug 1" })).toContainText("€12.00");
  await expect(productRows.filter({ hasText: "Yellow mug" })).toHaveCount(0);
});

test("a file whose prices have no currency: the preview says so, and importing it again with one keeps them", async ({ page, org }) => {
  const csv = "title,sku,price\nOak board,BOARD-OAK-1,24.00\nAsh board,BOARD-ASH-1,21.50\n";
  const file = { name: "boards.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByRole("button", { name: "Preview file" }).click();

  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "2 rows give prices without a currency" }))
    .toContainText("those products will be stored without a price");
  await expect(page.getByRole("row").filter({ hasText: "Oak board" }))
    .toContainText("The price 24.00 has no currency, so the product is stored without a price");

  await page.getByRole("link", { name: "Import the file again with a currency" }).click();
  await expect(page).toHaveURL(/\/imports\?tab=file$/);
  await expect(page.getByRole("tab", { name: "Spreadsheet or file" })).toHaveAttribute("aria-selected", "true");
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByLabel("Currency for prices without one").selectOption("EUR");
  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole("row").filter({ hasText: "Oak board" })).toContainText("24.00 EUR");
  await expect(page.getByText("prices without a currency read as EUR")).toBeVisible();
  await expect(page.getByText("stored without a price", { exact: false })).toHaveCount(0);
});
