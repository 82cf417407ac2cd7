import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";

/** What the browser extension sends with a key: one captured product. */
async function capture(baseUrl: string, key: string, title: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/extension/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": key },
    body: JSON.stringify({ url: "https://shop.example.com/p/1", product: { title } }),
  });
  return response.status;
}

test("create an extension key, copy it, use it, revoke it", async ({ page, org, stack }) => {
  await page
    .context()
    .grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.E2E_BASE_URL });
  await signIn(page, org.owner, "/keys");
  await expect(page.getByRole("heading", { name: "Extension keys", level: 1 })).toBeVisible();
  // The org's factory-made key is there already; the new one is named for where it goes.
  const form = page.getByRole("region", { name: "Create a key" });
  await form.getByLabel("Name").fill("Ana's laptop");
  await form.getByRole("button", { name: "Create key" }).click();

  const created = page.getByRole("region", { name: "Key “Ana's laptop” created" });
  await expect(created).toContainText("Copy it now: you will not see it again.");
  const secret = (await created.getByLabel("The new key").textContent())!.trim();
  await created.getByRole("button", { name: "Copy" }).click();
  await expect(created.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // The key the page showed is the one that works.
  expect(await capture(stack.E2E_BASE_URL, secret, "Captured teapot")).toBe(200);
  await created.getByRole("button", { name: "I have saved it" }).click();
  await expect(created).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = page.getByRole("row").filter({ hasText: "Ana's laptop" });
  // Keys read csk_<8 characters>_<secret>: the list shows each key's start, as its owner has it.
  const start = secret.slice(0, secret.indexOf("_", "csk_".length) + 1);
  expect(start).toMatch(/^csk_[A-Za-z0-9]{8}_$/);
  await expect(row).toContainText(`${start}…`);
  await expect(row.getByText("Active")).toBeVisible();
  // The capture above used it: after a reload the list says so.
  await page.reload();
  await expect(row.getByText("Active")).toBeVisible();
  await expect(row.getByRole("cell").nth(3)).not.toHaveText("Never");

  await row.getByRole("button", { name: "Revoke Ana's laptop" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke “Ana's laptop”?" });
  await expect(dialog).toContainText("stops working at once");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText(/^Revoked/)).toBeVisible();
  await expect(row.getByRole("button", { name: "Revoke Ana's laptop" })).toHaveCount(0);
  expect(await capture(stack.E2E_BASE_URL, secret, "Captured kettle")).toBe(401);
});
