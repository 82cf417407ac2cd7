// What isDatabaseUnavailable calls an outage (503, an import waits) and what it does not, on
// errors real clients throw. A stopped server's errors are exercised end to end in the gateway's
// and publish worker's database-outage tests.
import { connect, createServer, type AddressInfo } from "node:net";
import { createDb, createOrg, isDatabaseUnavailable, type Db } from "@catalog/db";

/** A loopback address nothing listens on: a server's, closed. */
const refused = () =>
  new Promise<string>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

test("Prisma's errors for a server nobody answers on, or that cannot be routed to, are an outage", async () => {
  // 100::/64 is the discard-only prefix: nothing can answer there.
  for (const host of [await refused(), "[100::1]:5432"]) {
    const db = createDb(`postgresql://postgres@${host}/catalog`, { poolSize: 1 });
    try {
      const errors = {
        query: await failure(db.org.count()),
        raw: await failure(db.$queryRaw`SELECT 1`),
        transaction: await failure(db.$transaction(async (tx) => tx.org.count())),
      };
      expect({
        host,
        outage: Object.fromEntries(
          Object.entries(errors).map(([what, error]) => [what, isDatabaseUnavailable(error)]),
        ),
      }).toEqual({ host, outage: { query: true, raw: true, transaction: true } });
    } finally {
      await db.$disconnect();
    }
  }
}, 60_000);

test("a query that fails on a server that answers is not an outage, nor another client's refused connection", async () => {
  const db: Db = createDb(process.env.DATABASE_URL!, { poolSize: 1 });
  try {
    const org = await createOrg(db, "unavailable-check");
    expect(
      isDatabaseUnavailable(await failure(db.org.create({ data: { id: org.id, name: "again" } }))),
    ).toBe(false);
    expect(
      isDatabaseUnavailable(await failure(db.$queryRawUnsafe("SELECT no_such_column FROM orgs"))),
    ).toBe(false);
  } finally {
    await db.$disconnect();
  }
  const address = await refused();
  // fetch's TypeError holds the socket's ECONNREFUSED as its cause; a Redis client's is the
  // socket's own.
  expect(isDatabaseUnavailable(await failure(fetch(`http://${address}/`)))).toBe(false);
  const [host, port] = address.split(":");
  const socketError = await new Promise((resolve) =>
    connect(Number(port), host).once("error", resolve),
  );
  expect(isDatabaseUnavailable(socketError)).toBe(false);
}, 60_000);
