import { transactionLimitMs } from "../src/importing/transaction-limit.js";

const FIFTEEN_MINUTES = 15 * 60_000;

test("a document within the default upload cap keeps the base transaction limit", () => {
  expect(transactionLimitMs(FIFTEEN_MINUTES, 50 * 1024 * 1024)).toBe(FIFTEEN_MINUTES);
  expect(transactionLimitMs(FIFTEEN_MINUTES, 0)).toBe(FIFTEEN_MINUTES);
});

test("a 1,000,000-row document is given time at the slowest allowed pace, not cut at 15 minutes", () => {
  // The bench's 1,000,000-row Shopify CSV is about 546 MB.
  const limit = transactionLimitMs(FIFTEEN_MINUTES, 546 * 1024 * 1024);
  expect(limit).toBeGreaterThan(40 * 60_000);
  expect(limit).toBeLessThan(50 * 60_000);
});
