import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { sharedInput, sharedPath } from "@catalog/test-support/shared-inputs";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { startGateway, type Gateway } from "./harness.js";

// Every page of the shared corpus (../shared/corpus, read in place) sent through the extension's
// route as the user's browser would: previewed, then saved. Whatever the extractor reads from a
// real page, the route answers 200 or a 4xx saying why, never a 500. With CI set, the corpus'
// absence fails the run.
const expectations = sharedInput({
  what: "the page corpus",
  path: sharedPath("corpus/expected-pages.jsonl"),
  tests: "the extension ingest corpus test",
});

interface CorpusPage {
  file: string;
  url: string | null;
}

const pages: CorpusPage[] =
  expectations === null
    ? []
    : readFileSync(expectations, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as CorpusPage);

let gw: Gateway;
let t: TestOrg;

(expectations === null ? describe.skip : describe)("the extension route on the corpus", () => {
  beforeAll(async () => {
    gw = await startGateway();
    t = await createTestOrg(gw.db, "extension-corpus");
  });
  afterAll(() => gw.close());

  test("every page previews and saves with a 200 or a 4xx that says why", async () => {
    expect(pages.length).toBeGreaterThanOrEqual(100);
    const failures: string[] = [];
    for (const page of pages) {
      const html = gunzipSync(readFileSync(sharedPath(`corpus/${page.file}`))).toString("utf8");
      // As the extension sends it (pageAddress in apps/extension): without the #fragment.
      const url = (page.url ?? `https://corpus.example/${page.file}`).replace(/#.*$/s, "");
      for (const persist of [false, true]) {
        const res = await gw.app.inject({
          method: "POST",
          url: "/api/extension/ingest",
          headers: { "x-service-api-key": t.apiKey },
          payload: { url, html, persist },
        });
        const error = res.statusCode === 200 ? null : res.json<{ error?: unknown }>().error;
        if (res.statusCode !== 200 && (res.statusCode >= 500 || typeof error !== "string"))
          failures.push(
            `${page.file} persist=${persist}: ${res.statusCode} ${res.body.slice(0, 300)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
