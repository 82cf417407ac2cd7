import type { Job } from "bullmq";
import { createRenderer, type Renderer } from "@catalog/fetch";
import type { ScrapeJob, ScrapeResult } from "@catalog/queue";
import { startFixtureServer } from "@catalog/testing";
import { createScrapeProcessor } from "../src/scrape-processor.js";

// The product exists only after the page's script runs, as on many shop front-ends.
const scriptedPage = `<!doctype html><html><head><title>Loading…</title></head><body><div id="app"></div>
<script>
  const data = { "@context": "https://schema.org", "@type": "Product", name: "Rendered Kettle", sku: "RK-1",
    offers: { "@type": "Offer", price: "59.00", priceCurrency: "GBP" } };
  const s = document.createElement("script"); s.type = "application/ld+json"; s.textContent = JSON.stringify(data);
  document.head.appendChild(s);
  document.getElementById("app").innerHTML = "<h1>Rendered Kettle</h1>";
</script></body></html>`;

let site: Awaited<ReturnType<typeof startFixtureServer>>;
let renderer: Renderer;
const policy = { allowPrivate: true };

beforeAll(async () => {
  site = await startFixtureServer({
    "/static": {
      body: `<html><head><script type="application/ld+json">{"@type":"Product","name":"Static Mug","offers":{"price":"9.50","priceCurrency":"EUR"}}</script></head></html>`,
    },
    "/scripted": { body: scriptedPage },
    "/nothing": { body: "<html><body><p>About us</p></body></html>" },
  });
  renderer = createRenderer({ policy, concurrency: 1 });
});
afterAll(async () => {
  await renderer.close();
  await site.close();
});

const run = (processor: ReturnType<typeof createScrapeProcessor>, url: string) =>
  processor({ data: { url, requestId: "test" } } as Job<ScrapeJob, ScrapeResult>);
const deps = (withBrowser: boolean) => ({
  policy,
  renderer: withBrowser ? renderer : null,
  fetchTimeoutMs: 5000,
  renderTimeoutMs: 15_000,
  maxBytes: 1_000_000,
});

test("static HTML with a product is extracted without a browser", async () => {
  const result = await run(createScrapeProcessor(deps(true)), site.url("/static"));
  expect(result).toMatchObject({
    ok: true,
    rendered: false,
    candidate: { title: "Static Mug", price: { amount: "9.50", currency: "EUR" } },
  });
});

test("a page that builds its product with JavaScript is rendered in Chromium and extracted", async () => {
  const result = await run(createScrapeProcessor(deps(true)), site.url("/scripted"));
  expect(result).toMatchObject({
    ok: true,
    rendered: true,
    candidate: {
      title: "Rendered Kettle",
      sku: "RK-1",
      price: { amount: "59.00", currency: "GBP" },
    },
  });
}, 30_000);

test("without the browser fallback such a page is a failed item saying no product was found", async () => {
  const result = await run(createScrapeProcessor(deps(false)), site.url("/scripted"));
  expect(result).toEqual({ ok: false, error: `no product found on ${site.url("/scripted")}` });
});

test("a page with no product even after rendering says so", async () => {
  const result = await run(createScrapeProcessor(deps(true)), site.url("/nothing"));
  expect(result).toMatchObject({ ok: false });
  expect((result as { error: string }).error).toMatch(/even after rendering/);
}, 30_000);

test("a private address is refused when local ingest is off, as a failed item", async () => {
  const strict = createScrapeProcessor({ ...deps(false), policy: { allowPrivate: false } });
  const result = await run(strict, site.url("/static"));
  expect(result).toMatchObject({ ok: false });
  expect((result as { error: string }).error).toMatch(/127\.0\.0\.1/);
});
