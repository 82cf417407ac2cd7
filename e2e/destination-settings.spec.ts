import { createDestination } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn, unique } from "./support/actions.js";

test("eBay settings with a field missing: the store's 422 shows at that field", async ({
  page,
  org,
  db,
  keyring,
  stack,
}) => {
  // An eBay seller account connected earlier (the connect flow has its own test).
  const channels = JSON.parse(stack.E2E_CHANNEL_URLS) as Record<string, string>;
  await createDestination(db, keyring, {
    orgId: org.org.id,
    channel: "ebay",
    name: "Harbour eBay",
    baseUrl: channels.ebay!,
    externalId: `seller-${unique()}`,
    credentials: { accessToken: "v^1.1#token", refreshToken: "v^1.1#refresh" },
  });

  await signIn(page, org.owner, "/destinations");
  const card = page.getByRole("article", { name: "Harbour eBay" });
  await expect(card.getByText("Needs setup")).toBeVisible();
  await card.getByRole("button", { name: "eBay settings" }).click();
  const form = card.getByRole("form", { name: "eBay settings of Harbour eBay" });
  await form.getByLabel("Marketplace").selectOption("EBAY_GB");
  // The stored token is not one eBay knows: the policies cannot be listed, so they are typed.
  await form.getByLabel("Category id").fill("31388");
  await form.getByLabel("Inventory location").fill("harbour-warehouse");
  await form.getByLabel("Payment policy").fill("6196932000");
  await form.getByLabel("Shipping policy").fill("6196934000");
  // The return policy is left empty.
  await form.getByRole("button", { name: "Save settings" }).click();

  const returnPolicy = form.getByLabel("Return policy");
  await expect(returnPolicy).toHaveAttribute("aria-invalid", "true");
  await expect(returnPolicy).toHaveAccessibleDescription(
    /eBay did not list your return policy choices: it refused this store.s access, connect the store again. You can type its id here. Return policy is required$/,
  );
  await expect(returnPolicy).toBeFocused();
  await expect(form.getByRole("alert")).toContainText(
    /not saved: the store needs a few more settings/i,
  );
  for (const filled of ["Marketplace", "Category id", "Payment policy"]) {
    await expect(form.getByLabel(filled)).not.toHaveAttribute("aria-invalid", "true");
  }

  // Filled in, the settings are kept and the warning goes.
  await returnPolicy.fill("6196933000");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form).toHaveCount(0);
  // The form is gone with its button: focus goes to the store's name, not the top of the page.
  await expect(card.getByRole("heading", { level: 2 })).toBeFocused();
  await expect(card.getByText("Needs setup")).toHaveCount(0);
  await card.getByRole("button", { name: "eBay settings" }).click();
  await expect(form.getByLabel("Return policy")).toHaveValue("6196933000");
  await expect(form.getByLabel("Marketplace")).toHaveValue("EBAY_GB");
});

test("rename a store, then disconnect it: its products stay in the catalog", async ({
  page,
  org,
  db,
  shop,
}) => {
  const { id } = await shop("Harbour shop");
  const [product] = await addProducts(db, org.org.id, 1, "Rope basket");

  await signIn(page, org.owner, "/destinations");
  const card = page.getByRole("article", { name: "Harbour shop" });
  await card.getByRole("button", { name: "Rename" }).click();
  const name = card.getByLabel("Name");
  await name.fill(" ");
  await card.getByRole("button", { name: "Save name" }).click();
  await expect(name).toHaveAccessibleDescription(/Give the store a name/);
  await name.fill("Harbour goods");
  await card.getByRole("button", { name: "Save name" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Renamed to “Harbour goods”" }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Harbour goods", level: 2 })).toBeFocused();

  const renamed = page.getByRole("article", { name: "Harbour goods" });
  await renamed.getByRole("button", { name: "Disconnect" }).click();
  const dialog = page.getByRole("dialog", { name: "Disconnect “Harbour goods”?" });
  await expect(dialog).toContainText("Your products stay in the catalog.");
  await dialog.getByRole("button", { name: "Disconnect" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Disconnected “Harbour goods”. Its products stay in your catalog." }),
  ).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
  expect(await db.destinationAccount.count({ where: { id, disconnectedAt: null } })).toBe(0);

  await page.goto("/products");
  await expect(page.getByRole("link", { name: product!.title })).toBeVisible();
});
