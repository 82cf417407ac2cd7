// Every screen passes axe-core's WCAG 2.1 A and AA rules (contrast, names of buttons, links and
// fields, landmarks, list structure...) with no violation of any impact, signed out and signed
// in, with data on every screen (support/every-screen.ts).
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";
import { fillEveryScreen, openScreen } from "./support/every-screen.js";
import { axeViolations } from "./support/axe.js";

const soft = expect.configure({ soft: true });

test("every screen passes axe-core's WCAG 2.1 A and AA rules", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  const screens = await fillEveryScreen({ org, shop, db, stack, playwright });

  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  soft(await axeViolations(page), "sign-in").toEqual([]);

  await signIn(page, org.owner, "/products");
  for (const screen of screens) {
    await openScreen(page, screen);
    soft(await axeViolations(page), screen.name).toEqual([]);
  }
});
