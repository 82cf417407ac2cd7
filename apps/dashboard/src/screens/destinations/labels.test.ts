import { expect, it } from "vitest";
import { breakerLabel, connectFormLabel, queuedDropText } from "./labels";

it("breakerLabel names each breaker state in a merchant's words", () => {
  expect(breakerLabel("closed")).toBe("Sending normally");
  expect(breakerLabel("open")).toBe("Paused after errors");
  expect(breakerLabel("halfOpen")).toBe("Trying again");
});

it("queuedDropText counts the publishes disconnecting drops", () => {
  expect(queuedDropText({ waiting: 2, active: 1, delayed: 3, failed: 9, dead: 9 })).toBe(
    "The 6 publishes still queued for this store are dropped.",
  );
  expect(queuedDropText({ waiting: 0, active: 0, delayed: 0, failed: 1, dead: 0 })).toBe(
    "Publishes still queued for this store are dropped.",
  );
  expect(queuedDropText(undefined)).toBe("Publishes still queued for this store are dropped.");
});

it("connectFormLabel uses a or an as the channel's name reads", () => {
  expect(connectFormLabel("eBay")).toBe("Connect an eBay store");
  expect(connectFormLabel("Etsy")).toBe("Connect an Etsy store");
  expect(connectFormLabel("Shopify")).toBe("Connect a Shopify store");
});
