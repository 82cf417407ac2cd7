import { test, expect } from "./support/fixtures.js";
import { SCREENSHOTS } from "./support/paths.js";
import { signIn, signOut } from "./support/actions.js";

test("an owner signs the legal documents on the Legal screen; a member sees who signed", async ({
  page,
  org,
}) => {
  await signIn(page, org.owner, "/products");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Legal" }).click();
  await expect(page).toHaveURL(/\/legal$/);
  await expect(
    page.getByText("Some documents are not signed at their current version yet."),
  ).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/legal-list-owner-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/legal-list-owner-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  const documents = ["Privacy policy", "Terms of service", "Data processing agreement"];
  for (const name of documents) {
    const card = page.getByRole("region", { name });
    await expect(card.getByText("Not signed", { exact: true })).toBeVisible();
    await expect(card.getByRole("link", { name: `Read the ${name.toLowerCase()}` })).toBeVisible();
    await card
      .getByRole("button", {
        name: new RegExp(`^Sign the ${name.toLowerCase()} \\(version .+\\)$`),
      })
      .click();
    await expect(card.getByText("Signed", { exact: true })).toBeVisible();
    await expect(card.getByRole("definition").first()).toHaveText(`you (${org.owner.email})`);
  }
  await expect(page.getByText("Every document is signed at its current version.")).toBeVisible();

  // Signed for the whole org: a member sees it, and who signed.
  await signOut(page);
  await signIn(page, org.member, "/legal");
  await expect(page.getByText("Every document is signed at its current version.")).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Terms of service" }).getByRole("definition").first(),
  ).toHaveText(org.owner.email);
});
