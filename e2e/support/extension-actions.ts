// What the extension's tests do often: pair it as a merchant would, and serve a shop's pages.
import type { Page } from "@playwright/test";
import { expect } from "./fixtures.js";
import type { ExtensionHarness } from "./extension.js";

/** Pairs through the popup's form; afterwards the popup (with no page behind it) says so. */
export async function pairExtension(
  extension: ExtensionHarness,
  serviceUrl: string,
  key: string,
  orgName: string,
): Promise<Page> {
  const popup = await extension.openPopup();
  await popup.getByLabel("Service address").fill(serviceUrl);
  await popup.getByLabel("Extension key").fill(key);
  await popup.getByRole("button", { name: "Pair" }).click();
  await expect(
    popup.getByRole("status").filter({ hasText: `Paired with ${orgName}.` }),
  ).toBeVisible();
  return popup;
}

/** A 1x1 PNG, so product images load from the shop's own (loopback) address. */
export const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
export const image = { body: PIXEL_PNG, contentType: "image/png" };
