import { updateProduct } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("edit a product, meet a stale edit, and read the history", async ({ page, org, db }) => {
  const [product] = await addProducts(db, org.org.id, 1, "Linen apron", { description: "Stonewashed linen." });
  await signIn(page, org.member, "/products");
  await page.getByRole("link", { name: "Linen apron 1" }).click();
  await expect(page.getByRole("heading", { name: "Linen apron 1", level: 1 })).toBeVisible();

  // The first save: title and price.
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Title").fill("Linen apron, sage");
  await form.getByLabel("Price").fill("24.50");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: "Linen apron, sage", level: 1 })).toBeVisible();
  await expect(form).toHaveCount(0);

  // Someone else changes the product while this user edits it: the save is refused, said so, and
  // a reload shows the other change before the user makes theirs again.
  await page.getByRole("button", { name: "Edit" }).click();
  await form.getByLabel("Brand").fill("Atelier North");
  const current = await db.product.findUniqueOrThrow({ where: { id: product!.id } });
  await updateProduct(db, org.org.id, product!.id, { description: "Stonewashed linen, with pockets." }, { type: "system", id: null }, current.version);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("alert")).toContainText("This product changed since you opened it.");
  await form.getByRole("button", { name: "Reload" }).click();
  await expect(form.getByLabel("Description")).toHaveValue("Stonewashed linen, with pockets.");
  await expect(form.getByLabel("Brand")).toHaveValue("");
  await form.getByLabel("Brand").fill("Atelier North");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);

  // History, newest first: each change as field: from -> to, with who made it.
  const history = page.getByRole("region", { name: "History" });
  const entries = history.getByRole("listitem").filter({ has: page.getByText(/^(Created|Edited|Imported)$/) });
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText("Edited by you");
  await expect(entries.nth(0)).toContainText("Brand: (empty) → Atelier North");
  await expect(entries.nth(1)).toContainText("Edited by the service");
  await expect(entries.nth(1)).toContainText("Description: Stonewashed linen. → Stonewashed linen, with pockets.");
  await expect(entries.nth(2)).toContainText("Edited by you");
  await expect(entries.nth(2)).toContainText("Title: Linen apron 1 → Linen apron, sage");
  await expect(entries.nth(2)).toContainText("Price: €19.90 → €24.50");
  await expect(entries.nth(3)).toContainText("Created by the service");
});
