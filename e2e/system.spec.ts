import { test, expect } from "./support/fixtures.js";
import {
  addProducts,
  apiAs,
  publishThroughApi,
  setStandinFault,
  signIn,
  signOut,
  standinStore,
} from "./support/actions.js";

test("the operator's system screen: health, a destination's dead publishes replayed", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  // Two publishes that run out of attempts on a store that keeps failing.
  const destination = await shop("Broken store");
  await setStandinFault(stack.E2E_STANDIN_URL, destination.store, { kind: "error", status: 503 });
  const products = await addProducts(db, org.org.id, 2, "Clay vase");
  const member = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  await publishThroughApi(
    member,
    products.map((p) => p.id),
    [destination.id],
  );
  await member.dispose();
  await expect
    .poll(
      () => db.syncLog.count({ where: { destinationAccountId: destination.id, status: "dead" } }),
      { timeout: 30_000 },
    )
    .toBe(2);

  await signIn(page, org.admin, "/products");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "System" })
    .click();
  await expect(page.getByRole("heading", { name: "System", level: 1 })).toBeVisible();
  // Redis and the database, each with its round trip.
  for (const store of ["Redis", "Database"])
    await expect(page.getByRole("region", { name: store })).toContainText("Healthy");
  await expect(page.getByText("round trip", { exact: true })).toHaveCount(2);
  const row = page.getByRole("row").filter({ hasText: "Broken store" });
  await expect(row.getByRole("cell").nth(6)).toHaveText("2");
  // In words a merchant-turned-operator knows: what gave up, and whether a store is being sent to.
  await expect(page.getByRole("columnheader", { name: "Gave up" })).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toHaveText(
    /^(Sending normally|Paused after errors|Trying again)/,
  );

  // The store is fixed; the operator replays that destination's dead publishes, after a
  // confirmation that says what happens.
  await setStandinFault(stack.E2E_STANDIN_URL, destination.store, null);
  await row.getByRole("button", { name: "Replay the dead publishes of Broken store" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay the dead publishes of Broken store?" });
  await expect(dialog).toContainText(
    "2 publishes that ran out of attempts on Broken store go back to the queue",
  );
  await dialog.getByRole("button", { name: "Replay" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("2 publishes replayed")).toBeVisible();
  await expect(row.getByRole("cell").nth(6)).toHaveText("0");
  await expect
    .poll(
      async () =>
        (await standinStore(stack.E2E_STANDIN_URL, destination.store)).listings
          .map((l) => l.title)
          .sort(),
      { timeout: 30_000 },
    )
    .toEqual(["Clay vase 1", "Clay vase 2"]);
});

test("members and owners have no system screen", async ({ page, org }) => {
  for (const user of [org.member, org.owner]) {
    await signIn(page, user, "/products");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Catalog" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "System" })).toHaveCount(0);
    // Typing the address shows why there is nothing, not the operator's data.
    await page.goto("/system");
    await expect(
      page.getByRole("heading", { name: "Only platform operators can see this page" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Dead-letter queue" })).toHaveCount(0);
    await signOut(page);
  }
});
