import iconv from "iconv-lite";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("import a spreadsheet: preview with a diff, leave a row out, store the rest", async ({
  page,
  org,
  db,
}) => {
  // Already in the catalog: one product the file changes, one it repeats as it is.
  const [blue] = await addProducts(db, org.org.id, 1, "Blue mug", {
    price: { amount: "12.00", currency: "EUR" },
    description: "Glazed stoneware.",
  });
  const [green] = await addProducts(db, org.org.id, 1, "Green mug", {
    price: { amount: "12.00", currency: "EUR" },
    description: "Glazed stoneware.",
  });
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
  await page
    .getByLabel("Product file")
    .setInputFiles({ name: "mugs.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByText("mugs.csv")).toBeVisible();
  await page.getByLabel("Currency for prices without one").selectOption("EUR");
  await page.getByRole("button", { name: "Preview file" }).click();

  // The preview: what each row would do, nothing stored yet.
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);
  await expect(page.getByRole("heading", { name: "mugs.csv", level: 1 })).toBeVisible();
  // The import's status, as the screen announces it (the badge beside the title says the same).
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("prices without a currency read as EUR")).toBeVisible();
  const rows = page.getByRole("row");
  const update = rows.filter({ hasText: "Blue mug 1" });
  await expect(update.getByText("Update", { exact: true })).toBeVisible();
  await expect(update).toContainText("matched by SKU");
  await expect(update.getByRole("listitem").filter({ hasText: "Price" })).toContainText(
    "12.00 EUR → 14.00 EUR",
  );
  await expect(rows.filter({ hasText: "Red mug" }).getByText("New", { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: "Red mug" })).toContainText("12.50 EUR");
  await expect(
    rows.filter({ hasText: "Yellow mug" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(
    rows.filter({ hasText: "Green mug 1" }).getByText("Unchanged", { exact: true }),
  ).toBeVisible();
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
  await expect(page.getByRole("status").filter({ hasText: "Stored." })).toContainText(
    "1 created, 1 updated, 1 unchanged, 1 left out.",
  );

  // The catalog has exactly what the preview showed.
  await page.getByRole("link", { name: "Open the catalog" }).click();
  const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(productRows).toHaveCount(3);
  await expect(productRows.filter({ hasText: "Red mug" })).toContainText("€12.50");
  await expect(productRows.filter({ hasText: "Blue mug 1" })).toContainText("€14.00");
  await expect(productRows.filter({ hasText: "Green mug 1" })).toContainText("€12.00");
  await expect(productRows.filter({ hasText: "Yellow mug" })).toHaveCount(0);
});

test("a file whose prices have no currency: the preview says so, and importing it again with one keeps them", async ({
  page,
  org,
}) => {
  const csv = "title,sku,price\nOak board,BOARD-OAK-1,24.00\nAsh board,BOARD-ASH-1,21.50\n";
  const file = { name: "boards.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByRole("button", { name: "Preview file" }).click();

  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(
    page.getByRole("status").filter({ hasText: "2 rows give prices without a currency" }),
  ).toContainText("those products will be stored without a price");
  await expect(page.getByRole("row").filter({ hasText: "Oak board" })).toContainText(
    "The price 24.00 has no currency, so the product is stored without a price",
  );

  await page.getByRole("link", { name: "Import the file again with a currency" }).click();
  await expect(page).toHaveURL(/\/imports\?tab=file$/);
  await expect(page.getByRole("tab", { name: "Spreadsheet or file" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByLabel("Currency for prices without one").selectOption("EUR");
  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByRole("row").filter({ hasText: "Oak board" })).toContainText("24.00 EUR");
  await expect(page.getByText("prices without a currency read as EUR")).toBeVisible();
  await expect(page.getByText("stored without a price", { exact: false })).toHaveCount(0);
});

test("a windows-1251 CSV: its encoding detected, Cyrillic titles in the preview, and importing it again naming another", async ({
  page,
  org,
}) => {
  // A Russian shop's export from Excel: windows-1251 bytes, no BOM; the form names no encoding.
  // (A few hundred bytes of Russian text: much shorter files can read plausibly as windows-1252.)
  const csv = [
    "title,sku,price,description",
    "Кружка керамическая синяя,MUG-RU-1,12.50,Глазурованная керамика ручной работы. Подходит для посудомоечной машины и микроволновой печи.",
    "Чайник заварочный с ситечком,TEAPOT-RU-1,24.00,Фарфоровый чайник для заваривания чая. Объём восемьсот миллилитров.",
    "Подставка под горячее,TRIVET-RU-1,6.90,Подставка из пробкового дерева защищает стол от горячей посуды.",
  ].join("\r\n");
  const file = {
    name: "товары.csv",
    mimeType: "text/csv",
    buffer: iconv.encode(csv, "windows-1251"),
  };
  expect(file.buffer.includes(Buffer.from("Кружка"))).toBe(false); // not UTF-8

  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await expect(page.getByLabel("Text encoding")).toHaveValue("");
  await expect(page.getByLabel("Text encoding").locator("option:checked")).toHaveText(
    "Detect automatically",
  );
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByLabel("Currency for prices without one").selectOption("EUR");
  await page.getByRole("button", { name: "Preview file" }).click();

  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("read as windows-1251 (detected)")).toBeVisible();
  const rows = page.getByRole("row");
  await expect(
    rows.filter({ hasText: "Кружка керамическая синяя" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(rows.filter({ hasText: "Кружка керамическая синяя" })).toContainText("12.50 EUR");
  await expect(
    rows.filter({ hasText: "Чайник заварочный с ситечком" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(
    rows.filter({ hasText: "Подставка под горячее" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("\ufffd")).toHaveCount(0);

  // The recent imports say it too.
  await page.getByRole("link", { name: "Import", exact: true }).first().click();
  await expect(page.getByRole("row").filter({ hasText: "товары.csv" })).toContainText(
    "File · prices in EUR when missing · read as windows-1251 (detected)",
  );
  await page
    .getByRole("row")
    .filter({ hasText: "товары.csv" })
    .getByRole("link", { name: "товары.csv" })
    .click();

  // Had the letters come out wrong: the detail offers the form again, at the encoding.
  await page
    .getByRole("link", { name: "Letters wrong? Import it again in another encoding" })
    .click();
  await expect(page).toHaveURL(/\/imports\?tab=file#text-encoding$/);
  await expect(page.getByRole("tab", { name: "Spreadsheet or file" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByLabel("Text encoding")).toBeFocused();
  // Naming the wrong one: rows whose bytes are not valid in it are errors that say so, nothing
  // garbled.
  await page.getByLabel("Text encoding").selectOption({ label: "Unicode (UTF-8)" });
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("read as utf-8 (named)")).toBeVisible();
  await expect(page.getByRole("link", { name: /Import it again in another encoding/ })).toHaveCount(
    0,
  );
  const error = rows.filter({ hasText: "Row 2" });
  await expect(error.getByText("Error", { exact: true })).toBeVisible();
  await expect(error).toContainText('column "title" holds bytes that are not valid utf-8 text');
  await expect(error).toContainText("import the file again naming its encoding");
  await expect(
    page.getByRole("group", { name: "Show rows" }).getByRole("button", { name: /Errors/ }),
  ).toContainText("3");
});

test("a Shift_JIS CSV read in the encoding chosen in the form", async ({ page, org }) => {
  const csv = "title,sku,price\r\n抹茶碗 青磁,BOWL-JP-1,48.00\r\n急須 常滑焼,TEAPOT-JP-1,65.00\r\n";
  const file = { name: "shohin.csv", mimeType: "text/csv", buffer: iconv.encode(csv, "shift_jis") };

  await signIn(page, org.member, "/imports?tab=file");
  await page.getByLabel("Product file").setInputFiles(file);
  await page.getByLabel("Currency for prices without one").selectOption("JPY");
  await page.getByLabel("Text encoding").selectOption({ label: "Japanese (Shift_JIS)" });
  await page.getByRole("button", { name: "Preview file" }).click();

  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("read as shift_jis (named)")).toBeVisible();
  // Named by the user: nothing to offer.
  await expect(page.getByRole("link", { name: /Import it again in another encoding/ })).toHaveCount(
    0,
  );
  const rows = page.getByRole("row");
  await expect(
    rows.filter({ hasText: "抹茶碗 青磁" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(
    rows.filter({ hasText: "急須 常滑焼" }).getByText("New", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("\ufffd")).toHaveCount(0);

  await page.getByRole("link", { name: "Import", exact: true }).first().click();
  await expect(page.getByRole("row").filter({ hasText: "shohin.csv" })).toContainText(
    "read as shift_jis (named)",
  );
});
