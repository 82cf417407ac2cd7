import { updateProduct } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("edit a product, meet a stale edit, and read the history", async ({ page, org, db }) => {
  const [product] = await addProducts(db, org.org.id, 1, "Linen apron", {
    description: "Stonewashed linen.",
  });
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
  await updateProduct(
    db,
    org.org.id,
    product!.id,
    { description: "Stonewashed linen, with pockets." },
    { type: "system", id: null },
    current.version,
  );
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
  const entries = history
    .getByRole("listitem")
    .filter({ has: page.getByText(/^(Created|Edited|Imported)$/) });
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText("Edited by you");
  await expect(entries.nth(0)).toContainText("Brand: (empty) → Atelier North");
  await expect(entries.nth(1)).toContainText("Edited by the service");
  await expect(entries.nth(1)).toContainText(
    "Description: Stonewashed linen. → Stonewashed linen, with pockets.",
  );
  await expect(entries.nth(2)).toContainText("Edited by you");
  await expect(entries.nth(2)).toContainText("Title: Linen apron 1 → Linen apron, sage");
  await expect(entries.nth(2)).toContainText("Price: €19.90 → €24.50");
  await expect(entries.nth(3)).toContainText("Created by the service");
});

test("a description reads as a shopper reads it: its HTML shown without a script running, its plain text edited as written", async ({
  page,
  org,
  db,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Linen shirt");
  // A description stored before descriptions were cleaned (or by hand): raw markup with a script, a
  // handler and a javascript: link.
  const raw =
    `<p onclick="window.clicked = true">Soft <b>linen</b> shirt.</p><script>window.pwned = true</script>` +
    `<img src="x" onerror="window.pwned = true"><ul><li>Relaxed fit</li><li>Mother-of-pearl buttons</li></ul>` +
    `<p><a href="javascript:window.pwned = true">Care guide</a></p>`;
  await db.$executeRaw`UPDATE products SET description = ${raw} WHERE id = ${product!.id}::uuid`;
  await signIn(page, org.member, `/products/${product!.id}`);
  const card = page.getByRole("region", { name: "Description" });
  await expect(card.getByText("Soft linen shirt.")).toBeVisible();
  await expect(card.getByRole("listitem")).toHaveText(["Relaxed fit", "Mother-of-pearl buttons"]);
  await expect(card).not.toContainText("<p>");
  await expect(card.locator("img, script")).toHaveCount(0);
  await card.getByText("Care guide").click();
  await card.getByText("Soft linen shirt.").click();
  expect(
    await page.evaluate(() => ({
      pwned: (window as { pwned?: boolean }).pwned,
      clicked: (window as { clicked?: boolean }).clicked,
    })),
  ).toEqual({});

  // Plain text typed in the form is kept as written: shown in paragraphs, edited as the same text.
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Description").fill("Fish & chips <3\nSecond line\n\nNew paragraph");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(card.locator("p")).toHaveText(["Fish & chips <3 Second line", "New paragraph"], {
    useInnerText: true,
  });
  await expect(card.locator("p").first().locator("br")).toHaveCount(1);
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(form.getByLabel("Description")).toHaveValue(
    "Fish & chips <3\nSecond line\n\nNew paragraph",
  );
});

test("edit the stock: saved for the product and a variant, and the availability follows it", async ({
  page,
  org,
  db,
}) => {
  const size = (name: string) => ({
    sku: null,
    title: name,
    price: null,
    options: { Size: name },
    gtin: null,
    availability: "InStock",
    image: null,
  });
  const [product] = await addProducts(db, org.org.id, 1, "Wool throw", {
    variants: [size("Small"), size("Large")],
  });
  await signIn(page, org.member, `/products/${product!.id}`);
  const details = page.getByRole("region", { name: "Details" });
  // Each value, without the note of the edit or import that set it.
  const stock = details.locator("dt:text-is('Stock') + dd > span").first();
  const availability = details.locator("dt:text-is('Availability') + dd");
  await expect(stock).toHaveText("unknown");
  await expect(availability).toHaveText(/^In stock/);

  // Sold out: 0 units, and the product reads out of stock without anyone choosing it.
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Stock", { exact: true }).fill("0");
  await form.getByLabel("Large").fill("0");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(stock).toHaveText("0");
  await expect(availability).toHaveText(/^Out of stock/);
  const variants = page.getByRole("region", { name: "Variants" });
  await expect(variants.getByRole("row", { name: /Large/ })).toContainText("Out of stock");
  await expect(variants.getByRole("row", { name: /Small/ })).toContainText("unknown");

  // A count that is not one is refused in the form, before anything is sent.
  await page.getByRole("button", { name: "Edit" }).click();
  await form.getByLabel("Stock", { exact: true }).fill("2.5");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("A whole number from 0, or empty if unknown")).toBeVisible();

  // Restocked: in stock again, and the history says what changed.
  await form.getByLabel("Stock", { exact: true }).fill("14");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(stock).toHaveText("14");
  await expect(availability).toHaveText(/^In stock/);
  const history = page.getByRole("region", { name: "History" });
  const latest = history
    .getByRole("listitem")
    .filter({ hasText: /^Edited/ })
    .first();
  await expect(latest).toContainText("Stock: 0 → 14");
  await expect(latest).toContainText("Availability: Out of stock → In stock");
});
