// The extension's popup passes axe-core's WCAG 2.1 A and AA rules with no violation of any
// impact: the connect form with an error at its key, a product's preview, and the saved state.
import { createApiKey } from "@catalog/db";
import { test, expect } from "./support/extension.js";
import { image, pairExtension } from "./support/extension-actions.js";
import { axeViolations } from "./support/axe.js";

const soft = expect.configure({ soft: true });

const productPage = (imageUrl: string) => `<!doctype html>
<html lang="en"><head><title>Glazed teapot | Kiln & Co</title>
<script type="application/ld+json">${JSON.stringify({
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Glazed teapot",
  sku: "TEA-GLZ-1",
  image: [imageUrl],
  offers: { "@type": "Offer", price: "42.00", priceCurrency: "EUR" },
})}</script></head>
<body><h1>Glazed teapot</h1><p>€42.00</p></body></html>`;

test("the extension's popup passes axe-core's WCAG 2.1 A and AA rules", async ({
  extension,
  db,
  org,
  stack,
}) => {
  const connect = await extension.openPopup();
  await expect(connect.getByRole("heading", { name: "Connect to your catalog" })).toBeVisible();
  await connect.getByLabel("Service address").fill(stack.E2E_BASE_URL);
  await connect.getByLabel("Extension key").fill("csk_notakey1_thisisnotasecretthatexists");
  await connect.getByRole("button", { name: "Pair" }).click();
  await expect(connect.getByLabel("Extension key")).toHaveAttribute("aria-invalid", "true");
  soft(await axeViolations(connect), "the connect form with an error").toEqual([]);

  const pages: Record<string, { body: string | Buffer; contentType?: string }> = {
    "/img/teapot.png": image,
  };
  const site = await extension.serve(pages);
  pages["/products/glazed-teapot"] = { body: productPage(site.url("/img/teapot.png")) };
  const { key } = await createApiKey(db, org.org.id, "Shop laptop");
  await pairExtension(extension, stack.E2E_BASE_URL, key, org.org.name);
  const shop = await extension.newPage();
  await shop.goto(site.url("/products/glazed-teapot"));
  const popup = await extension.clickButtonOn(shop);
  await expect(popup.getByRole("status").filter({ hasText: "New product." })).toBeVisible({
    timeout: 20_000,
  });
  soft(await axeViolations(popup), "a product's preview").toEqual([]);

  await popup.getByRole("button", { name: "Add to catalog" }).click();
  await expect(
    popup.getByRole("status").filter({ hasText: "Added to your catalog" }),
  ).toBeVisible();
  soft(await axeViolations(popup), "the product saved").toEqual([]);
});
