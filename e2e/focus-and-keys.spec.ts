// Issue 34, "Also": keyboard and screen-reader users keep their place. Focus goes to the new
// screen's heading after every navigation (nav links, links inside a screen, sign-in), and to
// what a save, a store or a store's consent page answered; the import tabs are in the Tab order,
// the arrows still move between them, and each panel's first control follows the tabs.
import { test, expect, type Page } from "./support/fixtures.js";
import { addProducts, signIn, unique } from "./support/actions.js";

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole("heading", { level: 1, name });

test("focus moves to the new screen's heading after navigating, to the product after saving, and to the result after storing or connecting", async ({
  page,
  org,
  db,
}) => {
  await addProducts(db, org.org.id, 1, "Linen apron");
  await signIn(page, org.owner, "/products");
  // Signing in is a navigation too.
  await expect(heading(page, "Catalog")).toBeFocused();

  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [link, title] of [
    ["Publish runs", "Publish runs"],
    ["Destinations", "Destinations"],
    ["Catalog", "Catalog"],
  ] as const) {
    await nav.getByRole("link", { name: link }).click();
    await expect(heading(page, title)).toBeFocused();
  }

  // A link inside a screen goes away with its screen: focus must not fall to the page's body.
  await page.getByRole("link", { name: "Linen apron 1" }).click();
  await expect(heading(page, "Linen apron 1")).toBeFocused();
  // The heading takes focus without a focus ring jumping out at a mouse user.
  await expect(heading(page, "Linen apron 1")).toHaveCSS("outline-style", "none");

  // Saving closes the form: focus goes back to the product, under its new name.
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Title").fill("Linen apron, sage");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(heading(page, "Linen apron, sage")).toBeFocused();

  // Storing an import: focus goes to what was stored.
  await nav.getByRole("link", { name: "Import" }).click();
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page.getByLabel("Product file").setInputFiles({
    name: "mugs.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`title,sku,price,currency\nRed mug,MUG-${unique()},12.50,EUR\n`),
  });
  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(heading(page, "mugs.csv")).toBeFocused();
  await page.getByRole("button", { name: "Store 1 product" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored." })).toBeFocused();

  // Back from a store's consent page (a full page load): focus is on what it answered.
  await page.goto("/destinations?connectError=The+shop+refused+the+connection");
  await expect(page.getByRole("alert").filter({ hasText: "The shop refused" })).toBeFocused();
});

test("the import tabs are in the Tab order: Tab reaches the chosen tab, arrows move between tabs, and the next Tab is the panel's first control", async ({
  page,
  org,
}) => {
  await signIn(page, org.member, "/products");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Import" })
    .click();
  const tabs = page.getByRole("tablist", { name: "What to import" });
  const urls = tabs.getByRole("tab", { name: "Web pages" });
  const file = tabs.getByRole("tab", { name: "Spreadsheet or file" });
  const extension = tabs.getByRole("tab", { name: "Browser extension" });

  // Navigation leaves focus on the heading: the next Tab lands on the chosen tab, not on the
  // next link of the menu.
  await expect(heading(page, "Import products")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(urls).toBeFocused();
  await expect(urls).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Product page addresses, one per line")).toBeFocused();

  // Shift+Tab goes back to the tab; the arrows choose the next one and keep focus on it.
  await page.keyboard.press("Shift+Tab");
  await expect(urls).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(file).toBeFocused();
  await expect(file).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/tab=file/);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Product file")).toBeFocused();

  // Only the chosen tab is a Tab stop: Shift+Tab from the panel lands on it, not on the others.
  await page.keyboard.press("Shift+Tab");
  await expect(file).toBeFocused();
  await page.keyboard.press("End");
  await expect(extension).toBeFocused();
  await page.keyboard.press("Home");
  await expect(urls).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(extension).toBeFocused();
});

test("creating and revoking a key keeps focus on the screen: the new secret, then the title when it is put away or revoked", async ({
  page,
  org,
}) => {
  await signIn(page, org.owner, "/keys");
  const form = page.getByRole("region", { name: "Create a key" });
  await form.getByLabel("Name").fill("Ana's laptop");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("heading", { name: "Key “Ana's laptop” created" })).toBeFocused();
  await page.getByRole("button", { name: "I have saved it" }).click();
  await expect(heading(page, "Extension keys")).toBeFocused();

  await page.getByRole("button", { name: "Revoke Ana's laptop" }).click();
  await page
    .getByRole("dialog", { name: "Revoke “Ana's laptop”?" })
    .getByRole("button", { name: "Revoke key" })
    .click();
  await expect(page.getByRole("row").filter({ hasText: "Ana's laptop" })).toContainText("Revoked");
  await expect(heading(page, "Extension keys")).toBeFocused();
});
