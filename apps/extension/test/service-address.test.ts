import { dashboardUrl, normalizeServiceUrl } from "../src/shared/service-address";
import { stringMatching } from "@catalog/test-support/matchers";

test("an address as a merchant types it becomes the service's base", () => {
  expect(normalizeServiceUrl("catalog.example.com")).toEqual({
    ok: true,
    url: "https://catalog.example.com",
  });
  expect(normalizeServiceUrl(" https://catalog.example.com/ ")).toEqual({
    ok: true,
    url: "https://catalog.example.com",
  });
  expect(normalizeServiceUrl("https://shop.example/catalog/?x=1#top")).toEqual({
    ok: true,
    url: "https://shop.example/catalog",
  });
  // This computer: plain http, which is how the demo service runs.
  expect(normalizeServiceUrl("127.0.0.1:3000")).toEqual({ ok: true, url: "http://127.0.0.1:3000" });
  expect(normalizeServiceUrl("localhost:3000/")).toEqual({
    ok: true,
    url: "http://localhost:3000",
  });
  expect(normalizeServiceUrl("HTTP://LOCALHOST:3000")).toEqual({
    ok: true,
    url: "http://localhost:3000",
  });
});

test("what cannot be a service address says why", () => {
  expect(normalizeServiceUrl("")).toMatchObject({
    ok: false,
    error: stringMatching(/Enter the service's address/),
  });
  expect(normalizeServiceUrl("ftp://catalog.example.com")).toMatchObject({
    ok: false,
    error: stringMatching(/https:\/\//),
  });
  expect(normalizeServiceUrl("https://ana:secret@catalog.example.com")).toMatchObject({
    ok: false,
    error: stringMatching(/user name and password/),
  });
  expect(normalizeServiceUrl("http://[::1")).toMatchObject({
    ok: false,
    error: stringMatching(/not a web address/),
  });
});

test("dashboard links are on the paired service", () => {
  expect(dashboardUrl("https://shop.example/catalog", "/products/42")).toBe(
    "https://shop.example/catalog/products/42",
  );
  expect(dashboardUrl("http://127.0.0.1:3000", "imports/7")).toBe(
    "http://127.0.0.1:3000/imports/7",
  );
});
