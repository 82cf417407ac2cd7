import { join } from "node:path";
import { SEARCH_COUNT_LIMIT } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

/** What a search counts to, as the dashboard writes it ("1,000"). */
const LIMIT = SEARCH_COUNT_LIMIT.toLocaleString("en-US");
const PAGES = SEARCH_COUNT_LIMIT / 25;

test(`a search matching more than ${LIMIT} products says its count is a lower bound, and its pages go on`, async ({
  page,
  org,
  db,
}) => {
  await db.$executeRaw`INSERT INTO products (id, org_id, title, sku, updated_at)
    SELECT gen_random_uuid(), ${org.org.id}::uuid, 'Cotton shirt ' || n, 'CS-' || n,
      now() - n * interval '1 second'
    FROM generate_series(1, ${SEARCH_COUNT_LIMIT + 50}::int) n`;
  await signIn(page, org.member, "/products?q=cotton");

  const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(page.getByText(`${LIMIT} or more matching products`, { exact: true })).toBeVisible();
  await expect(productRows).toHaveCount(25);
  await expect(productRows.first()).toContainText("Cotton shirt 1");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\?q=cotton&page=2$/);
  await expect(productRows.first()).toContainText("Cotton shirt 26");
  // The pager knows no last page it could jump to.
  const pager = page.getByRole("navigation", { name: "Pages" });
  await expect(pager).toContainText(`${LIMIT} or more products · page 2 of ${PAGES} or more`);
  await expect(pager.getByRole("button", { name: "Last page" })).toHaveCount(0);
  await expect(
    page.getByRole("button", { name: `Select all 500 of ${LIMIT} or more matching products` }),
  ).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(pager).toContainText(`page 2 of ${PAGES} or more`);
  await pager.screenshot({ path: join(SCREENSHOTS, "search-many-pager-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
});
