import { test, expect } from "./support/fixtures.js";
import { SCREENSHOTS } from "./support/paths.js";
import { addProducts, signIn } from "./support/actions.js";

// Issue 34, item 9: each document's text can be read; only owners sign; the reminder shows before
// publishing and connecting a store, not as a banner on every screen.

const DOCUMENTS = ["Privacy policy", "Terms of service", "Data processing agreement"];

test("a member reads each legal document, sees an owner must sign, and has no sign button", async ({
  page,
  org,
  db,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Linen apron");
  // The catalog carries no legal banner: it is no place to sign anything.
  const legalStatus = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/legal/status",
  );
  await signIn(page, org.member, `/publish?ids=${product!.id}`);
  await legalStatus;
  // Before publishing: the documents to read, and whom to ask.
  const reminder = page.getByRole("region", { name: "Legal documents to sign" });
  await expect(reminder).toContainText("Before you publish:");
  await expect(reminder).toContainText(
    `Only an owner of ${org.org.name} signs these documents: ask ${org.owner.email}.`,
  );
  await expect(reminder.getByRole("button")).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-publish-member-1280.png` });

  await page.goto("/products");
  await expect(page.getByRole("link", { name: "Linen apron 1" })).toBeVisible();
  await expect(page.getByText("Legal documents are not all signed.")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Legal documents to sign" })).toHaveCount(0);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Legal" }).click();
  await expect(
    page.getByText(
      `Some documents are not signed at their current version yet. Only an owner of ${org.org.name} signs these documents: ask ${org.owner.email}.`,
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Sign the/ })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/legal-list-member-1280.png`, fullPage: true });

  for (const name of DOCUMENTS) {
    await page.getByRole("link", { name: `Read the ${name.toLowerCase()}` }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    const text = page.getByRole("article", { name: new RegExp(`^${name}, version `) });
    await expect(text).toContainText("Placeholder text");
    await expect(text.getByRole("heading", { level: 2 }).first()).toBeVisible();
    await expect(
      page.getByRole("status").filter({ hasText: "has not signed this version yet" }),
    ).toContainText(`ask ${org.owner.email}`);
    await expect(page.getByRole("button", { name: /^Sign the/ })).toHaveCount(0);
    if (name === "Terms of service") {
      await page.screenshot({ path: `${SCREENSHOTS}/legal-document-member-1280.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SCREENSHOTS}/legal-document-member-390.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.getByRole("link", { name: "Legal", exact: true }).first().click();
    await expect(page).toHaveURL(/\/legal$/);
  }
  // The address is stable: opened directly, and an unknown one says so.
  await page.goto("/legal/dpa");
  await expect(
    page.getByRole("heading", { name: "Data processing agreement", level: 1 }),
  ).toBeVisible();
  await page.goto("/legal/eula");
  await expect(page.getByRole("heading", { name: "There is no such document" })).toBeVisible();

  // The API refuses a member's signature, saying who signs.
  const refused = await page.request.post("/api/legal/sign", { data: { document: "terms" } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({
    error: `only an owner of the org signs its legal documents: ask an owner of ${org.org.name} to sign (the Legal screen names them)`,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/legal");
  await expect(page.getByRole("heading", { name: "Legal", level: 1 })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-list-member-390.png`, fullPage: true });
  await page.goto(`/publish?ids=${product!.id}`);
  await expect(page.getByRole("region", { name: "Legal documents to sign" })).toBeVisible();
  await page.getByRole("region", { name: "Legal documents to sign" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-publish-member-390.png` });

  // Nothing is wider than the smallest phone.
  await page.setViewportSize({ width: 320, height: 640 });
  const screens = [
    ["/legal", page.getByRole("link", { name: "Read the data processing agreement" })],
    ["/legal/dpa", page.getByRole("article")],
    [`/publish?ids=${product!.id}`, page.getByRole("region", { name: "Legal documents to sign" })],
  ] as const;
  for (const [path, loaded] of screens) {
    await page.goto(path);
    await expect(loaded).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(320);
  }
});

test("an owner is reminded before connecting a store and before publishing, and signs there", async ({
  page,
  org,
  db,
  shop,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Oak stool");
  await shop("Harbour store");
  await signIn(page, org.owner, "/destinations");
  const connect = page.getByRole("region", { name: "Connect a store" });
  const reminder = page.getByRole("region", { name: "Legal documents to sign" });
  await expect(connect.getByRole("region", { name: "Legal documents to sign" })).toContainText(
    "Before you connect a store:",
  );
  await reminder.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-connect-owner-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await reminder.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-connect-owner-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Reading first: the link opens the text, with the sign button below it.
  await reminder.getByRole("link", { name: "Read the privacy policy" }).click();
  await expect(page.getByRole("heading", { name: "Privacy policy", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: /^Sign the privacy policy \(version .+\)$/ }).click();
  // Where the button was, the words that replace it, with the keyboard's focus.
  await expect(page.getByText(`Signed: ${org.org.name} agrees to version`)).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Signed for" })).toContainText(
    `by you (${org.owner.email})`,
  );
  await page.screenshot({ path: `${SCREENSHOTS}/legal-document-owner-1280.png` });

  // Before publishing: the two left, signed right there.
  await page.goto(`/publish?ids=${product!.id}`);
  await expect(reminder).toContainText("Before you publish:");
  await expect(reminder.getByRole("link")).toHaveText([
    "Read the terms of service",
    "Read the data processing agreement",
  ]);
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-publish-owner-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await reminder.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-publish-owner-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Each signed one says so where its button was, and keeps the keyboard's focus there.
  await reminder.getByRole("button", { name: /^Sign the terms of service/ }).click();
  await expect(reminder.getByText(/^Signed \(version/)).toBeFocused();
  await reminder.getByRole("button", { name: /^Sign the data processing agreement/ }).click();
  await expect(reminder.getByText(/^Signed \(version/)).toHaveCount(2);
  await expect(reminder.getByText(/^Signed \(version/).nth(1)).toBeFocused();
  await expect(reminder).toContainText("Every legal document is signed");
  await expect(reminder.getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish to 1 store" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-reminder-signed-1280.png` });

  // Once left, the reminder is gone.
  await page.goto("/destinations");
  await expect(page.getByRole("heading", { name: "Connect a store" })).toBeVisible();
  await expect(reminder).toHaveCount(0);
});
