import { join } from "node:path";
import { test, expect, type Page } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

// A supplier's sheet whose headers the catalog does not know (a German shop's, ";"-separated):
// the merchant maps them once, saves the mapping, and the next file with the same headers in
// another order is read with it, without a mapping step. "Artikelnummer" and "Preis" are
// recognised on their own; the rest are not.
const HEADERS = [
  "Artikelnummer",
  "Artikel",
  "Preis",
  "Währung Code",
  "Lager",
  "Bild-Link",
  "Farbe",
  "Hauptartikel",
];
type Line = Record<(typeof HEADERS)[number], string>;
const LINES: Line[] = [
  {
    Artikelnummer: "TASSE-1",
    Artikel: "Tasse Classic",
    Preis: "12.50",
    "Währung Code": "EUR",
    Lager: "",
    "Bild-Link": "https://img.example.com/tasse.jpg",
    Farbe: "",
    Hauptartikel: "",
  },
  {
    Artikelnummer: "TASSE-1-BL",
    Artikel: "Tasse Classic Blau",
    Preis: "12.50",
    "Währung Code": "EUR",
    Lager: "5",
    "Bild-Link": "https://img.example.com/tasse-blau.jpg",
    Farbe: "Blau",
    Hauptartikel: "TASSE-1",
  },
  {
    Artikelnummer: "TASSE-1-RT",
    Artikel: "Tasse Classic Rot",
    Preis: "13.00",
    "Währung Code": "EUR",
    Lager: "3",
    "Bild-Link": "https://img.example.com/tasse-rot.jpg",
    Farbe: "Rot",
    Hauptartikel: "TASSE-1",
  },
  {
    Artikelnummer: "TELLER-9",
    Artikel: "Teller flach",
    Preis: "8.90",
    "Währung Code": "EUR",
    Lager: "20",
    "Bild-Link": "https://img.example.com/teller.jpg",
    Farbe: "",
    Hauptartikel: "",
  },
];

function sheet(headers: readonly (typeof HEADERS)[number][], lines: Line[]): Buffer {
  return Buffer.from(
    [headers.join(";"), ...lines.map((l) => headers.map((h) => l[h]).join(";"))].join("\n") + "\n",
  );
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("a sheet with unknown headers: map its columns with a live preview, save the mapping, and the next such sheet is read with it", async ({
  page,
  org,
}) => {
  await signIn(page, org.member, "/imports?tab=file");
  await page.getByLabel("Product file").setInputFiles({
    name: "lieferant-a.csv",
    mimeType: "text/csv",
    buffer: sheet(HEADERS, LINES),
  });

  // The panel opens by itself: the file has no column the catalog reads as a product name.
  const panel = page.getByRole("region", { name: "Map the file’s columns" });
  await expect(panel).toBeVisible();
  await expect(
    panel.getByRole("listitem").filter({ has: page.getByLabel("Artikel", { exact: true }) }),
  ).toContainText("Tasse Classic");
  await expect(panel.getByLabel("Bild-Link", { exact: true })).toBeVisible();
  // Recognised headers come preselected.
  await expect(panel.getByLabel("Artikelnummer", { exact: true })).toHaveValue("sku");
  await expect(panel.getByLabel("Preis", { exact: true })).toHaveValue("price");
  const preview = panel.getByRole("region", { name: "Preview", exact: true });
  await expect(preview).toContainText("Choose the column that holds the product name");

  // Map the columns; the preview follows each choice.
  await panel.getByLabel("Artikel", { exact: true }).selectOption({ label: "Product name" });
  const rows = preview.getByRole("row");
  await expect(rows.filter({ hasText: "Teller flach" })).toBeVisible();
  await panel.getByLabel("Währung Code", { exact: true }).selectOption({ label: "Currency" });
  await expect(rows.filter({ hasText: "Teller flach" })).toContainText("8.90 EUR");
  await panel.getByLabel("Lager", { exact: true }).selectOption({ label: "Stock quantity" });
  await expect(rows.filter({ hasText: "Teller flach" })).toContainText("20");
  await panel.getByLabel("Bild-Link", { exact: true }).selectOption({ label: "Images" });
  await panel.getByLabel("Farbe", { exact: true }).selectOption({ label: "Option (e.g. Size)" });
  await panel.getByLabel("Option name for Farbe").fill("Color");
  await panel
    .getByLabel("Hauptartikel", { exact: true })
    .selectOption({ label: "Parent SKU (variant of)" });
  // The variant rows are now read into their parent: two products, the mug with two variants.
  await expect(rows.filter({ hasText: "Tasse Classic Blau" })).toHaveCount(0);
  await expect(rows.filter({ hasText: "Tasse Classic" })).toContainText("2 variants");
  await expect(rows.filter({ hasText: "Tasse Classic" })).toContainText("12.50 EUR");
  await expect(rows.filter({ hasText: "Tasse Classic" })).toContainText("8");
  await expect(rows.filter({ has: page.getByRole("cell") })).toHaveCount(2);

  await panel
    .getByRole("checkbox", { name: "Save as template for files with these columns" })
    .check();
  await panel.getByLabel("Template name").fill("Lieferant A");
  await page.screenshot({
    path: join(SCREENSHOTS, "column-mapping-panel-1280.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({
    path: join(SCREENSHOTS, "column-mapping-panel-390.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole("button", { name: "Import with this mapping" }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("Columns read with the mapping you chose")).toBeVisible();
  const storeBar = page.getByRole("region", { name: "Store the preview" });
  await expect(storeBar).toContainText("2 of 2 new or updated products will be stored");
  const importRows = page.getByRole("row");
  await expect(importRows.filter({ hasText: "Teller flach" })).toContainText("8.90 EUR");
  await expect(importRows.filter({ hasText: "Tasse Classic" })).toContainText("12.50 EUR");

  // The same headers in another order: read with the saved mapping, no mapping step.
  await page.goto("/imports?tab=file");
  const reordered = [...HEADERS].reverse();
  await page.getByLabel("Product file").setInputFiles({
    name: "lieferant-a-december.csv",
    mimeType: "text/csv",
    buffer: sheet(reordered, LINES),
  });
  await expect(
    page.getByRole("status").filter({ hasText: "This file has the columns of your saved mapping" }),
  ).toContainText("“Lieferant A”");
  await expect(page.getByRole("region", { name: "Map the file’s columns" })).toHaveCount(0);
  // The saved mapping is listed under the form.
  await page.getByText("Saved column mappings (1)").click();
  await expect(
    page.getByRole("button", { name: "Delete the mapping “Lieferant A”" }),
  ).toBeVisible();
  await page.screenshot({
    path: join(SCREENSHOTS, "column-mapping-template-1280.png"),
    fullPage: true,
  });

  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  await expect(page.getByText("Columns read with your saved mapping “Lieferant A”")).toBeVisible();
  await expect(page.getByRole("region", { name: "Store the preview" })).toContainText(
    "2 of 2 new or updated products will be stored",
  );
  await expect(page.getByRole("row").filter({ hasText: "Teller flach" })).toContainText("8.90 EUR");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({
    path: join(SCREENSHOTS, "column-mapping-import-390.png"),
    fullPage: true,
  });

  // Both imports are listed with how their columns were read.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/imports");
  const recent = page.getByRole("region", { name: "Recent imports" });
  await expect(
    recent.getByRole("row").filter({ hasText: "lieferant-a-december.csv" }),
  ).toContainText("saved mapping “Lieferant A”");
  await expect(recent.getByRole("row").filter({ hasText: /lieferant-a\.csv/ })).toContainText(
    "columns mapped",
  );

  // Deleting the saved mapping: the next such sheet needs mapping again.
  await page.goto("/imports?tab=file");
  await page.getByText("Saved column mappings (1)").click();
  await page.getByRole("button", { name: "Delete the mapping “Lieferant A”" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete mapping" }).click();
  await expect(page.getByText("Saved column mappings")).toHaveCount(0);
  await page.getByLabel("Product file").setInputFiles({
    name: "lieferant-a-january.csv",
    mimeType: "text/csv",
    buffer: sheet(reordered, LINES),
  });
  await expect(page.getByRole("region", { name: "Map the file’s columns" })).toBeVisible();
});
