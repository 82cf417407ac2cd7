// The stand-ins (fake sales channels for tests and the demo), their kit and the contract checks
// live behind @catalog/channels/standins: nothing a deployed process loads reaches them, nor the
// packages only they use, and those packages are not runtime dependencies of @catalog/channels.
// Stand-in code is everything under src/standins/ and, in the channels' folders, each channel's
// stand-in: files named `*-standin.ts` or `*-standin-*.ts` (shopify/shopify-standin.ts,
// amazon/amazon-standin-product-types.ts). The production `standin-adapter.ts` and
// `standin-definition.ts` (the generic channel) are not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importGraph, packagesImportedUnder, repoRoot, type ImportGraph } from "./import-graph.js";

const CHANNELS_DIR = "packages/channels/src/";
const STANDINS_DIR = `${CHANNELS_DIR}standins/`;
/** What each deployed process starts from (Dockerfile, docker-compose.yml). */
const SHIPPED = {
  gateway: "apps/gateway/src/server.ts",
  "publish worker": "apps/publish-worker/src/main.ts",
  "import worker": "apps/import-worker/src/main.ts",
  cli: "apps/cli/src/main.ts",
};

const manifest = JSON.parse(
  readFileSync(join(repoRoot, "packages/channels/package.json"), "utf8"),
) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** Whether a file (relative to the repository root) is stand-in code. */
const isStandinCode = (file: string) =>
  file.startsWith(STANDINS_DIR) ||
  (file.startsWith(CHANNELS_DIR) && /-standin(-[^/]*)?\.ts$/.test(file));
const standinFiles = (graph: ImportGraph) => [...graph.files].filter(isStandinCode).sort();

const main = importGraph("packages/channels/src/index.ts");
const standins = importGraph(
  "packages/channels/src/standins/index.ts",
  "packages/channels/src/standins/channel-standins-main.ts",
);
/** Packages that only the stand-ins and the contract checks import. */
const standinOnly = [...standins.packages.keys()].filter((name) => !main.packages.has(name)).sort();

test("the walk finds stand-in code and its packages where there are some", () => {
  expect(standinFiles(standins)).toEqual(
    expect.arrayContaining([
      `${STANDINS_DIR}generic/standin-server.ts`,
      `${STANDINS_DIR}kit/control-api.ts`,
      `${STANDINS_DIR}contract/openapi-contract.ts`,
      `${CHANNELS_DIR}shopify/shopify-standin.ts`,
      `${CHANNELS_DIR}ebay/ebay-standin.ts`,
      `${CHANNELS_DIR}etsy/etsy-standin.ts`,
      `${CHANNELS_DIR}woocommerce/woocommerce-standin.ts`,
      `${CHANNELS_DIR}amazon/amazon-standin.ts`,
      `${CHANNELS_DIR}amazon/amazon-standin-product-types.ts`,
    ]),
  );
  // The channels' own code and the generic channel's production half are not stand-in code.
  expect(
    [
      "shopify/index.ts",
      "amazon/amazon-product-type.ts",
      "standin-adapter.ts",
      "standin-definition.ts",
    ]
      .map((file) => `${CHANNELS_DIR}${file}`)
      .filter(isStandinCode),
  ).toEqual([]);
  expect(standinOnly).toEqual(expect.arrayContaining(["graphql", "openapi-backend", "yaml"]));
  // It follows the workspace's packages through their exports: the publish worker reaches the
  // registry.
  expect(importGraph(SHIPPED["publish worker"]).files).toContain(
    "packages/channels/src/registry.ts",
  );
});

test("@catalog/channels reaches no stand-in code", () => {
  expect(main.files).toContain("packages/channels/src/registry.ts");
  expect(standinFiles(main)).toEqual([]);
});

test.each(Object.entries(SHIPPED))(
  "the %s loads no stand-in code and none of the stand-ins' packages",
  (_, entry) => {
    const graph = importGraph(entry);
    expect(standinFiles(graph)).toEqual([]);
    expect(standinOnly.filter((name) => graph.packages.has(name))).toEqual([]);
  },
);

test("the stand-ins' packages are dev dependencies; what @catalog/channels loads is a runtime dependency", () => {
  expect(standinOnly.filter((name) => name in manifest.dependencies)).toEqual([]);
  expect(standinOnly.filter((name) => !(name in manifest.devDependencies))).toEqual([]);
  expect(
    packagesImportedUnder(main, CHANNELS_DIR).filter((name) => !(name in manifest.dependencies)),
  ).toEqual([]);
});

test("the generic stand-in, which the compose demo runs from the production image, needs only runtime dependencies", () => {
  const generic = importGraph(`${STANDINS_DIR}generic/standin-main.ts`);
  const outside = packagesImportedUnder(generic, CHANNELS_DIR).filter(
    (name) => !(name in manifest.dependencies),
  );
  expect(outside).toEqual([]);
});
