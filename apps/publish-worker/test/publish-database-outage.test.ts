// PostgreSQL stopped for a few seconds while publishes are in flight (a server of this file's
// own, stopped and started again): what the API accepted is published once, no more, and what it
// could not accept it says so (503) rather than losing it.
import { eventually, startPrivatePostgres, type PrivatePostgres } from "@catalog/testing";
import {
  startPipeline,
  syncLogsOf,
  type InjectResponse,
  type Pipeline,
} from "./pipeline-harness.js";
import { stringMatching } from "@catalog/test-support/matchers";

let pg: PrivatePostgres;
let p: Pipeline;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  p = await startPipeline({}, { databaseUrl: pg.url });
  p.startWorker();
}, 60_000);
// A test that failed during its outage leaves the server running for the next.
afterEach(() => pg.start());
afterAll(async () => {
  await p?.close();
  await pg?.close();
});

const syncLogIds = (res: InjectResponse) =>
  res.json<{ jobs: { syncLogId: string }[] }>().jobs.map((j) => j.syncLogId);

test("publishes accepted before and after a database outage are each published once at the channel; one sent during it is told to come back", async () => {
  const stores = ["outage-a", "outage-b"];
  const destinations = await Promise.all(stores.map((store) => p.addDestination(store)));
  const products = await p.addProducts(8, "Outage");
  // Each channel call takes a while, so calls are in flight when PostgreSQL stops.
  for (const store of stores) p.standin.setFault(store, { kind: "slow", delayMs: 300 });

  const before = await p.publish(products, destinations);
  expect(before.statusCode).toBe(200);
  const accepted = syncLogIds(before);
  await eventually(
    async () =>
      expect(
        p.standin.store("outage-a").counts.create + p.standin.store("outage-b").counts.create,
      ).toBeGreaterThan(0),
    15_000,
  );

  await pg.stop();
  const during = await p.publish(products, destinations);
  expect(during.statusCode).toBe(503);
  expect(during.headers["retry-after"]).toBe("5");
  expect(during.json()).toEqual({ error: stringMatching(/database is unavailable/) });
  // A few seconds down, the workers' calls finishing and their jobs trying to start meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await pg.start();

  // The client sends it again once the database is back.
  let after = await p.publish(products, destinations);
  const back = Date.now();
  while (after.statusCode === 503 && Date.now() - back < 5_000)
    after = await p.publish(products, destinations);
  expect(after.statusCode).toBe(200);
  accepted.push(...syncLogIds(after));

  await eventually(async () => {
    const logs = await syncLogsOf(p.db, accepted);
    expect(logs.map((log) => log.status)).toEqual(Array(accepted.length).fill("succeeded"));
  }, 45_000);
  for (const store of stores) {
    const { listings, counts } = p.standin.store(store);
    expect({ store, listings: listings.length, created: counts.create }).toEqual({
      store,
      listings: products.length,
      created: products.length,
    });
  }
  const listings = await p.db.listing.findMany({ where: { productId: { in: products } } });
  expect(listings.map((l) => l.status)).toEqual(
    Array(products.length * stores.length).fill("published"),
  );
}, 90_000);
