// Issue 34, "Also": runs are told apart by more than "3 products to 1 store". A run's entry in the
// list and its heading name its products (the first title and how many more) and its stores, and
// say who started it and when.
import { test, expect } from "./support/fixtures.js";
import { addProducts, apiAs, publishThroughApi, signIn } from "./support/actions.js";

test("runs are named by their products and stores, with who started them and when", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  const aprons = await addProducts(db, org.org.id, 3, "Linen apron");
  const [board] = await addProducts(db, org.org.id, 1, "Oak board");
  const harbour = await shop("Harbour shop");
  const quay = await shop("Quay store");
  const member = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  const { runId } = await publishThroughApi(
    member,
    aprons.map((p) => p.id),
    [harbour.id, quay.id],
  );
  const owner = await apiAs(playwright, stack.E2E_BASE_URL, org.owner);
  await publishThroughApi(owner, [board!.id], [quay.id]);

  await signIn(page, org.member, "/runs");
  const rows = page.getByRole("row");
  const aprons_ = rows.filter({
    has: page.getByRole("link", {
      name: /^Linen apron \d and 2 more to Harbour shop and Quay store$/,
    }),
  });
  await expect(aprons_).toContainText("3 products to 2 stores · by you,");
  const boards = rows.filter({
    has: page.getByRole("link", { name: "Oak board 1 to Quay store", exact: true }),
  });
  await expect(boards).toContainText(`1 product to 1 store · by ${org.owner.email},`);

  // The run's own screen says the same in its heading.
  await aprons_.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId!}$`));
  const heading = page.getByRole("heading", {
    level: 1,
    name: /^Linen apron \d and 2 more to Harbour shop and Quay store$/,
  });
  await expect(heading).toBeVisible();
  await expect(page.getByText(/^3 products to 2 stores · started by you/)).toBeVisible();
  await expect(page).toHaveTitle(
    /^Linen apron \d and 2 more to Harbour shop and Quay store · Catalog$/,
  );
});
