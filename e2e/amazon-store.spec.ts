import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("connect an Amazon seller account, publish to it, and see Amazon's own word on the listing", async ({
  page,
  org,
  db,
  stack,
}) => {
  const channels = JSON.parse(stack.E2E_CHANNEL_URLS) as Record<string, string>;
  const [mug] = await addProducts(db, org.org.id, 1, "Harbour mug", {
    price: { amount: "14.00", currency: "USD" },
    brand: "Harbour",
  });

  // Connect: the marketplace first, then Amazon's consent page (the stand-in approves at once)
  // sends the browser back.
  await signIn(page, org.owner, "/destinations");
  const connect = page.getByRole("form", { name: "Connect an Amazon store" });
  await connect.getByLabel("Marketplace id").fill("ATVPDKIKX0DER");
  await connect.getByRole("button", { name: "Connect Amazon" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await expect(
    page.getByRole("status").filter({ hasText: "Amazon store connected" }),
  ).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "Amazon seller" });
  await expect(card).toHaveCount(1);

  // The product type is the one setting a merchant must choose.
  await expect(card.getByText("Needs setup")).toBeVisible();
  await card.getByRole("button", { name: "Amazon settings" }).click();
  const form = card.getByRole("form", { name: /^Amazon settings of Amazon seller/ });
  await expect(form.getByLabel("Marketplace id")).toHaveValue("ATVPDKIKX0DER");
  await form.getByLabel("Product type").fill("HOME");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form).toHaveCount(0);
  await expect(card.getByText("Needs setup")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/amazon-connected.png", fullPage: true });

  // Publish the product from its page.
  await page.goto(`/products/${mug!.id}`);
  await page.getByRole("link", { name: "Publish it" }).click();
  await page.getByLabel(/^Amazon seller/).check();
  await page.getByRole("button", { name: "Publish to 1 store" }).click();
  await expect(page.getByText("Finished", { exact: true })).toBeVisible({ timeout: 30_000 });

  // Amazon's notifications of the new listing reach the gateway after its answer to the publish.
  const destination = await db.destinationAccount.findFirstOrThrow({
    where: { orgId: org.org.id, channel: "amazon" },
  });
  const reported = () =>
    db.listing
      .findFirstOrThrow({ where: { productId: mug!.id } })
      .then((l) => Object.keys(l.channelReports as object).length);
  await expect.poll(reported).toBe(1);
  await page.goto(`/products/${mug!.id}`);
  const row = page.getByRole("row").filter({ hasText: "Amazon seller" });
  await expect(row).toContainText("published");
  await expect(row.getByText("Live on Amazon")).toBeVisible();

  // Amazon suppresses the listing: the merchant sees it, and what Amazon did, on the product.
  const suppress = await fetch(
    `${channels.amazon}/_control/stores/${destination.externalId}/listings/${encodeURIComponent(mug!.sku)}/suppress`,
    { method: "POST" },
  );
  expect(suppress.status).toBe(204);
  await expect
    .poll(async () =>
      JSON.stringify(
        (await db.listing.findFirstOrThrow({ where: { productId: mug!.id } })).channelReports,
      ),
    )
    .toContain("LISTING_SUPPRESSED");
  await page.reload();
  await expect(row.getByText("Problem on Amazon")).toBeVisible();
  await expect(row).toContainText("not buyable, listing suppressed, has errors");
  await page.screenshot({ path: "/tmp/amazon-suppressed.png", fullPage: true });
});
