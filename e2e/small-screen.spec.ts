import { test, expect, type Page } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

// A phone-sized window (390 px): every screen is reached through the menu and fits the width,
// with no sideways scrolling of the page itself (wide tables scroll inside their own box).
test.use({ viewport: { width: 390, height: 844 } });

const SCREENS: [link: string, heading: string][] = [
  ["Import", "Import products"],
  ["Publish runs", "Publish runs"],
  ["Destinations", "Destinations"],
  ["Sync logs", "Sync logs"],
  ["Legal", "Legal"],
  ["Extension keys", "Extension keys"],
  ["API tokens", "API tokens"],
  ["Catalog", "Catalog"],
];

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("on a 390 px phone screen, the menu reaches every screen and each fits the width", async ({
  page,
  org,
  db,
  shop,
}) => {
  await addProducts(
    db,
    org.org.id,
    12,
    "Linen napkin with a rather long product title that has to wrap",
  );
  await shop("Phone shop");
  await signIn(page, org.owner, "/products");
  await expect(page.getByRole("heading", { name: "Catalog" })).toBeVisible();
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);

  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [link, heading] of SCREENS) {
    // The navigation is folded away until the menu opens it.
    await expect(nav.getByRole("link", { name: link })).toBeHidden();
    await menu.click();
    await nav.getByRole("link", { name: link }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect
      .poll(() => pageWidth(page), { message: `${heading} is wider than the screen` })
      .toBeLessThanOrEqual(390);
  }
});
