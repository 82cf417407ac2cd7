// Issue 34, "Also": every screen fits a 320 px phone (the narrowest in use), with no sideways
// scrolling of the page; wide tables stack their cells. Each screen is kept as a screenshot at
// 1280, 390 and 320 px (artifacts/screenshots/narrow-<screen>-<width>.png).
import { join } from "node:path";
import { test, expect, type Page } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { fillEveryScreen, openScreen } from "./support/every-screen.js";
import { SCREENSHOTS } from "./support/paths.js";

// Every screen is looked at, whichever fails first.
const soft = expect.configure({ soft: true });
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** Cards (the stacked rows of a table) whose content sticks out of them: their text's start. */
const outOfCards = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>(".table-wrap.responsive tbody tr"))
      .filter((row) => row.scrollWidth > row.clientWidth + 1)
      .map((row) => (row.textContent ?? "").slice(0, 40)),
  );

for (const width of [320, 390, 1280]) {
  test(`every screen fits ${width} px without sideways scrolling`, async ({
    page,
    org,
    db,
    stack,
    playwright,
    shop,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const screens = await fillEveryScreen({ org, shop, db, stack, playwright });
    await signIn(page, org.owner, "/products");
    for (const screen of screens) {
      const { name } = screen;
      await openScreen(page, screen);
      await page.screenshot({
        path: join(SCREENSHOTS, `narrow-${name}-${width}.png`),
        fullPage: true,
      });
      await soft
        .poll(() => pageWidth(page), { message: `${name} is wider than ${width} px` })
        .toBeLessThanOrEqual(width);
      soft(await outOfCards(page), `${name}: cut off at the edge of a card`).toEqual([]);
      if (name === "catalog" && width < 480) {
        // The order's longer words ("Newest changes first") get a row of their own, not a clipped box.
        const sort = await page.getByLabel("Sort").boundingBox();
        const bar = await page.getByRole("group", { name: "Filters" }).boundingBox();
        soft(sort!.width, "the Sort list is squeezed").toBeGreaterThanOrEqual(bar!.width - 1);
      }
      if (name === "run") {
        // One store's column fits beside the products: its name is not cut at the box's edge.
        const matrix = page.getByRole("region", { name: /Listings per product and store/ });
        soft(
          await matrix.evaluate((el) => el.scrollWidth - el.clientWidth),
          "the products-and-stores table scrolls sideways with one store",
        ).toBeLessThanOrEqual(1);
      }
      if (name === "sync-logs") {
        // The folded failure ends in its "Show all", inside the entry's card.
        const entry = page.getByRole("row").filter({ has: page.getByTestId("sync-result") });
        const failed = entry.filter({ has: page.getByRole("button", { name: "Show all" }) });
        const button = await failed.getByRole("button", { name: "Show all" }).boundingBox();
        const card = await failed.boundingBox();
        soft(button!.x + button!.width, "Show all is cut off").toBeLessThanOrEqual(
          Math.min(card!.x + card!.width, width),
        );
      }
    }
  });
}
