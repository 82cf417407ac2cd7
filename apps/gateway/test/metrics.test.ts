import { randomBytes } from "node:crypto";
import { createTestOrg } from "@catalog/testing";
import { startGatewayHealth } from "../src/health-port.js";
import { login, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";

let gw: Gateway;
let health: { port: number; close(): Promise<void> };
beforeAll(async () => {
  gw = await startGateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
  });
  health = await startGatewayHealth(gw.config, gw);
});
afterAll(async () => {
  await health.close();
  await gw.close();
});

// Every gateway of the process counts into the one registry its health port serves.
const scrape = async () => {
  const res = await fetch(`http://127.0.0.1:${health.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
};
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test("/metrics counts requests by route template, so ids in URLs do not make new series", async () => {
  const id = "00000000-0000-4000-8000-000000000001";
  for (let i = 0; i < 2; i++) await gw.app.inject({ method: "GET", url: `/api/products/${id}` });
  const unknown = `/no/such/${randomBytes(4).toString("hex")}.txt`;
  await gw.app.inject({ method: "GET", url: unknown });
  const text = await scrape();
  expect(
    sample(
      text,
      'catalog_http_requests_total{method="GET",route="/api/products/:id",status="401"}',
    ),
  ).toBe(2);
  expect(text).toMatch(
    /catalog_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/products\/:id"\}/,
  );
  // A URL no route serves counts as "unmatched": one series, whatever the path.
  expect(
    sample(text, 'catalog_http_requests_total{method="GET",route="unmatched",status="404"}'),
  ).toBeGreaterThanOrEqual(1);
  expect(text).not.toContain(id);
  expect(text).not.toContain(unknown);
});

test("/metrics is not served on the public port, which the ingress exposes: a JSON 404, not the dashboard", async () => {
  const res = await gw.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { accept: "text/html" },
  });
  expect(res.statusCode).toBe(404);
  expect(res.json<{ error: string }>().error).toMatch(/No route for GET \/metrics/);
  expect(res.body).not.toContain("catalog_http_requests_total");
  // The health port answers the probes too.
  expect((await fetch(`http://127.0.0.1:${health.port}/readyz`)).status).toBe(200);
});

test("import rows are counted by source and outcome as they are read", async () => {
  // A gateway of the run's limits: the file's own allows two requests a window.
  const importer = await startGateway();
  const t = await createTestOrg(importer.db, "metrics");
  const cookie = await login(importer.app, t.member.email, t.member.password);
  const rows = async (outcome: string) => {
    const text = await scrape();
    return sample(text, `catalog_import_rows_total{source="document",outcome="${outcome}"}`) ?? 0;
  };
  const [created, failed] = [await rows("create"), await rows("error")];
  const body = documentUpload(
    "Title,SKU,Price,Currency\nJug,MET-JUG,9.00,EUR\nCup,MET-CUP,4.00,EUR\n,MET-NONE,1.00,EUR\n",
    "rows.csv",
  );
  try {
    const res = await importer.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(await rows("create")).toBe(created + 2);
    expect(await rows("error")).toBe(failed + 1);
  } finally {
    await importer.close();
  }
});
