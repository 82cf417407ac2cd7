import { test, expect } from "./support/fixtures.js";
import { signIn, signOut } from "./support/actions.js";

test("sign the legal documents: the banner goes away", async ({ page, org }) => {
  await signIn(page, org.owner, "/products");
  const banner = page
    .getByRole("status")
    .filter({ hasText: "Legal documents are not all signed." });
  await expect(banner).toBeVisible();
  await banner.getByRole("link", { name: "Review and sign them" }).click();
  await expect(page).toHaveURL(/\/legal$/);
  await expect(
    page.getByText("Some documents are not signed at their current version yet."),
  ).toBeVisible();

  const documents = ["Privacy policy", "Terms of service", "Data processing agreement"];
  for (const [i, name] of documents.entries()) {
    const card = page.getByRole("region", { name });
    await expect(card.getByText("Not signed", { exact: true })).toBeVisible();
    await card
      .getByRole("button", {
        name: new RegExp(`^Sign the ${name.toLowerCase()} \\(version .+\\)$`),
      })
      .click();
    await expect(card.getByText("Signed", { exact: true })).toBeVisible();
    await expect(card.getByRole("definition").first()).toHaveText(`you (${org.owner.email})`);
    // The banner stays until the last one is signed.
    if (i < documents.length - 1) await expect(banner).toBeVisible();
  }
  await expect(banner).toHaveCount(0);
  await expect(page.getByText("Every document is signed at its current version.")).toBeVisible();

  // Signed for the whole org: another member no longer sees the banner either.
  await signOut(page);
  // The banner's absence means something only once the dashboard has the legal status.
  const legalStatus = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/legal/status" && response.ok(),
  );
  await signIn(page, org.member, "/products");
  await legalStatus;
  await expect(page.getByRole("heading", { name: "No products yet" })).toBeVisible();
  await expect(page.getByText("Legal documents are not all signed.")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Legal" }).click();
  await expect(page.getByText("Every document is signed at its current version.")).toBeVisible();
  // Another user's signature names them.
  await expect(
    page.getByRole("region", { name: "Terms of service" }).getByRole("definition").first(),
  ).toHaveText(org.owner.email);
  await expect(page.getByText("Legal documents are not all signed.")).toHaveCount(0);
});
