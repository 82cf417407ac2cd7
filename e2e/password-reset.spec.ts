import { test, expect, type Page } from "./support/fixtures.js";
import { mailedLink, signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

/** The screen at 1280 and 390 px (and no sideways scrolling at 320). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a forgotten password is reset by an emailed link: signed out everywhere, then signed in with the new one", async ({
  page,
  browser,
  org,
  stack,
}) => {
  const user = org.member;
  // The user is still signed in elsewhere (another browser): the reset ends that session too.
  const elsewhere = await browser.newPage({ baseURL: stack.E2E_BASE_URL });
  await signIn(elsewhere, user);

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(user.email);
  await shoot(page, "password-reset-ask");

  await page.getByLabel("Email").fill("");
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("alert")).toHaveText("Enter the email address you sign in with");

  // An address without an account reads exactly what a known one does.
  const nobody = `nobody-${org.org.id}@example.test`;
  await page.getByLabel("Email").fill(nobody);
  await page.getByRole("button", { name: "Send the link" }).click();
  const sent = page.getByRole("heading", { name: "Check your mail" });
  await expect(sent).toBeFocused();
  const unknownWords = await page.locator(".card").innerText();
  await page.getByRole("button", { name: "send another link" }).click();
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(sent).toBeFocused();
  expect((await page.locator(".card").innerText()).replace(user.email, nobody)).toBe(unknownWords);
  await shoot(page, "password-reset-check-mail");

  const link = await mailedLink(page.request, stack, user.email);
  expect(link).toMatch(new RegExp(`^${stack.E2E_BASE_URL}/reset-password\\?token=[\\w-]{43}$`));
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(/^This link works until /)).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("a new password for e2e");
  await page.getByLabel("New password again").fill("a new password for e2f");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByLabel("New password again")).toHaveAccessibleDescription(
    "The two passwords are not the same",
  );
  await shoot(page, "password-reset-choose");
  await page.getByLabel("New password again").fill("a new password for e2e");
  await page.getByRole("button", { name: "Save the new password" }).click();

  await expect(page).toHaveURL(/\/sign-in\?changed=1$/);
  await expect(
    page.getByRole("status").filter({
      hasText:
        "Your password was changed and you were signed out everywhere. Sign in with your new password.",
    }),
  ).toBeVisible();
  await shoot(page, "password-reset-signed-out");
  // The other browser's session has ended: its next screen asks to sign in.
  expect((await elsewhere.request.get("/api/auth/session")).status()).toBe(401);
  await elsewhere.reload();
  await expect(elsewhere.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(
    elsewhere.getByRole("status").filter({ hasText: "Your session has ended: sign in again" }),
  ).toBeVisible();
  await elsewhere.close();

  await signIn(page, { ...user, password: "a new password for e2e" });

  // The link worked once: opened again, it says so before any password is typed.
  await page.goto(link);
  await expect(page.getByRole("alert")).toHaveText(
    "This password reset link was already used. Ask for a new one if you need to.",
  );
});

test("an expired reset link says so and offers a new one", async ({ page, org, stack, db }) => {
  const user = org.owner;
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("heading", { name: "Check your mail" })).toBeVisible();
  const link = await mailedLink(page.request, stack, user.email);
  await db.passwordReset.updateMany({
    where: { userId: user.id },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });

  await page.goto(link);
  await expect(page.getByRole("alert")).toHaveText(
    "This password reset link has expired or a newer one was sent. Ask for a new one.",
  );
  await expect(page.getByRole("alert")).toBeFocused();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  await shoot(page, "password-reset-expired");
  await page.getByRole("link", { name: "Send me a new link" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
});

test("asking for links too often for one address says to wait, in words", async ({ page, org }) => {
  await page.goto("/forgot-password");
  // Three links an address may be sent in 15 minutes; the fourth is refused.
  for (let i = 0; i < 3; i++) {
    await page.getByLabel("Email").fill(org.member.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("heading", { name: "Check your mail" })).toBeFocused();
    await page.getByRole("button", { name: "send another link" }).click();
  }
  await page.getByLabel("Email").fill(org.member.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Too many links were asked for, from here or for this address. Wait a few minutes, then try again.",
  );
  await shoot(page, "password-reset-too-many");
});
