import { test, expect } from "./support/fixtures.js";
import { expireSessions, signOut } from "./support/actions.js";

test("sign in, an expired session, sign out", async ({ page, org, db }) => {
  // A signed-out visitor who opens a screen is asked to sign in first.
  await page.goto("/products");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fproducts/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  await page.getByLabel("Email").fill(org.member.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(/wrong email or password/i);

  await page.getByLabel("Password").fill(org.member.password);
  // The catalog's data (products, destinations for listing names): the session must expire after
  // the screen has loaded, as it would for a user reading it.
  const loaded = Promise.all(
    ["/api/products", "/api/destinations"].map((path) =>
      page.waitForResponse(
        (response) => new URL(response.url()).pathname === path && response.ok(),
      ),
    ),
  );
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole("banner").getByText(org.member.email)).toBeVisible();
  await expect(page.getByRole("heading", { name: "No products yet" })).toBeVisible();
  await loaded;

  // The session expires while the user is searching the catalog: the search asks them to sign in
  // again, says why, and brings them back to it.
  await expireSessions(page, db, org.member);
  await page.getByLabel("Search by title or SKU").fill("lamp");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fproducts%3Fq%3Dlamp/);
  await expect(
    page.getByRole("status").filter({ hasText: "Your session has ended: sign in again" }),
  ).toBeVisible();
  await page.getByLabel("Email").fill(org.member.email);
  await page.getByLabel("Password").fill(org.member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/products\?q=lamp$/);
  await expect(page.getByLabel("Search by title or SKU")).toHaveValue("lamp");
  await expect(page.getByRole("heading", { name: "No products match “lamp”" })).toBeVisible();

  // Signing out ends the session: the screens ask to sign in again, without the "ended" message.
  await signOut(page);
  await page.goto("/products");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fproducts/);
  await expect(page.getByText("Your session has ended")).toHaveCount(0);
  expect((await page.request.get("/api/auth/session")).status()).toBe(401);
});
