import { createApiKey } from "@catalog/db";
import { freePort } from "@catalog/testing";
import { test, expect } from "./support/extension.js";

test("pair the extension: an unreachable service and a wrong key say which; a good key pairs and is kept; unpair forgets it", async ({
  extension,
  db,
  org,
  stack,
}) => {
  const { key } = await createApiKey(db, org.org.id, "Ana's laptop");
  const popup = await extension.openPopup();
  await expect(popup.getByRole("heading", { name: "Connect to your catalog" })).toBeVisible();
  const address = popup.getByLabel("Service address");
  const keyField = popup.getByLabel("Extension key");

  // Nothing listens there: said at the address.
  await address.fill(`127.0.0.1:${await freePort()}`);
  await keyField.fill(key);
  await popup.getByRole("button", { name: "Pair" }).click();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(
    popup.getByText(/^The service at http:\/\/127\.0\.0\.1:\d+ did not answer\./),
  ).toBeVisible();

  // The service, with a key it does not know: said at the key.
  await address.fill(stack.E2E_BASE_URL);
  await keyField.fill("csk_notakey1_thisisnotasecretthatexists");
  await popup.getByRole("button", { name: "Pair" }).click();
  await expect(keyField).toHaveAttribute("aria-invalid", "true");
  await expect(
    popup.getByText("The service does not know this key, or it was revoked.", { exact: false }),
  ).toBeVisible();
  await expect(address).not.toHaveAttribute("aria-invalid", "true");

  await keyField.fill(key);
  await popup.getByRole("button", { name: "Pair" }).click();
  await expect(
    popup.getByRole("status").filter({ hasText: `Paired with ${org.org.name}.` }),
  ).toBeVisible();
  await expect(popup.getByRole("banner")).toContainText(org.org.name);

  // Kept in the extension's storage: the popup opened again is still paired.
  const again = await extension.openPopup();
  await expect(
    again.getByRole("status").filter({ hasText: `Paired with ${org.org.name}.` }),
  ).toBeVisible();
  await again.getByRole("button", { name: "Unpair" }).click();
  await expect(again.getByText("Forget this pairing?")).toBeVisible();
  await again.getByRole("contentinfo").getByRole("button", { name: "Unpair" }).click();
  await expect(again.getByRole("heading", { name: "Connect to your catalog" })).toBeVisible();
  const reopened = await extension.openPopup();
  await expect(reopened.getByRole("heading", { name: "Connect to your catalog" })).toBeVisible();
});
