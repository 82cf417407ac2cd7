import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";

/** What an integration does with a token: read the catalog. */
async function readCatalog(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/products`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}

for (const width of [1280, 390]) {
  test(`an owner creates a scoped API token, copies it, sees it used, and revokes it (${width} px)`, async ({
    page,
    org,
    stack,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.E2E_BASE_URL });
    await signIn(page, org.owner, "/api-tokens");
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
    const form = page.getByRole("region", { name: "Create a token" });
    await form.getByLabel("Name").fill("ERP nightly sync");
    // No scope chosen: the form says what is missing and sends nothing.
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(form).toContainText("Choose at least one thing the token may do");
    await form.getByLabel(/Read catalog/).check();
    await form.getByLabel(/^Publish/).check();
    await form.getByLabel("Expires").selectOption({ label: "30 days" });
    await page.screenshot({
      path: `e2e/artifacts/screenshots/api-tokens-create-${width}.png`,
      fullPage: true,
    });
    await form.getByRole("button", { name: "Create token" }).click();

    const created = page.getByRole("region", { name: "Token “ERP nightly sync” created" });
    await expect(created).toContainText("Copy it now: you will not see it again.");
    const secret = (await created.getByLabel("The new token").textContent())!.trim();
    expect(secret).toMatch(/^cat_[A-Za-z0-9]{8}_/);
    await created.getByRole("button", { name: "Copy" }).click();
    await expect(created.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.screenshot({
      path: `e2e/artifacts/screenshots/api-tokens-secret-${width}.png`,
      fullPage: true,
    });

    expect(await readCatalog(stack.E2E_BASE_URL, secret)).toBe(200);
    await created.getByRole("button", { name: "I have saved it" }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    await page.reload();
    const row = page.getByRole("row").filter({ hasText: "ERP nightly sync" });
    await expect(row).toContainText(`${secret.slice(0, 13)}…`);
    await expect(row).toContainText("catalog:read");
    await expect(row).toContainText("publish");
    await expect(row).toContainText(/Active\s*expires in/);
    await expect(row.getByRole("cell").nth(3)).not.toHaveText("Never");
    await page.screenshot({
      path: `e2e/artifacts/screenshots/api-tokens-list-${width}.png`,
      fullPage: true,
    });

    await row.getByRole("button", { name: "Revoke ERP nightly sync" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke “ERP nightly sync”?" });
    await dialog.getByRole("button", { name: "Revoke token" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText(/^Revoked/)).toBeVisible();
    expect(await readCatalog(stack.E2E_BASE_URL, secret)).toBe(401);
  });
}

test("a member sees that only owners manage API tokens", async ({ page, org }) => {
  await signIn(page, org.member, "/api-tokens");
  await expect(page.getByText("Only your organisation's owners manage API tokens.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Create a token" })).toHaveCount(0);
});
