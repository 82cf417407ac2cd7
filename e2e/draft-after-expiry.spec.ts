import { updateProduct } from "@catalog/db";
import { test, expect, type Page, type TestUser } from "./support/fixtures.js";
import { SCREENSHOTS } from "./support/paths.js";
import { addProducts, expireSessions, signIn } from "./support/actions.js";

// Issue 34, item 10 (first half): a save after the session ended keeps the draft; signing in
// again brings the person back to the form, which saves it, unless the product changed meanwhile.

async function signInAgain(page: Page, user: TestUser) {
  await expect(
    page.getByRole("status").filter({ hasText: "Your session has ended: sign in again" }),
  ).toBeVisible();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("edits saved after the session ended are kept through signing in, then saved", async ({
  page,
  org,
  db,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Wool blanket");
  await signIn(page, org.member, `/products/${product!.id}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Title").fill("Wool blanket, charcoal");
  await form.getByLabel("Description").fill("Woven in Wales.\n\nMachine washable at 30°.");
  await form.getByLabel("Price").fill("89.00");

  await expireSessions(page, db, org.member);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.screenshot({ path: `${SCREENSHOTS}/draft-after-expiry-sign-in-1280.png` });
  await signInAgain(page, org.member);

  // Back on the product: the draft was saved, at the version it was made on.
  await expect(page).toHaveURL(new RegExp(`/products/${product!.id}`));
  await expect(page.getByRole("status").filter({ hasText: "Product saved" })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Wool blanket, charcoal", level: 1 }),
  ).toBeVisible();
  await expect(form).toHaveCount(0);
  const saved = await db.product.findUniqueOrThrow({ where: { id: product!.id } });
  expect(saved).toMatchObject({
    title: "Wool blanket, charcoal",
    description: "<p>Woven in Wales.</p><p>Machine washable at 30°.</p>",
  });
  expect(String(saved.priceAmount)).toBe("89");
  await page.screenshot({ path: `${SCREENSHOTS}/draft-after-expiry-saved-1280.png` });

  // Saved once: editing again starts from the product, and nothing is resubmitted.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(form.getByLabel("Title")).toHaveValue("Wool blanket, charcoal");
  await form.getByRole("button", { name: "Cancel" }).click();
  expect((await db.product.findUniqueOrThrow({ where: { id: product!.id } })).version).toBe(
    saved.version,
  );
  expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContainEqual(
    expect.stringMatching(/^catalog\.draft\./),
  );
});

test("a kept draft over a product that changed meanwhile is offered, not written over it", async ({
  page,
  org,
  db,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Clay jug");
  await signIn(page, org.member, `/products/${product!.id}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Brand").fill("Kiln & Co");

  await expireSessions(page, db, org.member);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  // Meanwhile someone else renames the product.
  const current = await db.product.findUniqueOrThrow({ where: { id: product!.id } });
  await updateProduct(
    db,
    org.org.id,
    product!.id,
    { title: "Clay jug, large" },
    { type: "system", id: null },
    current.version,
  );
  await signInAgain(page, org.member);

  // The draft is back in the form; the save it made was refused as a stale edit.
  await expect(form.getByRole("alert")).toContainText("This product changed since you opened it.");
  await expect(form.getByLabel("Brand")).toHaveValue("Kiln & Co");
  await expect(
    form.getByRole("status").filter({ hasText: "Your changes from before your session ended" }),
  ).toBeVisible();
  const after = await db.product.findUniqueOrThrow({ where: { id: product!.id } });
  expect(after).toMatchObject({ title: "Clay jug, large", brand: null });
  await form.getByRole("alert").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/draft-after-expiry-conflict-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await form.getByRole("alert").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/draft-after-expiry-conflict-390.png` });
});
