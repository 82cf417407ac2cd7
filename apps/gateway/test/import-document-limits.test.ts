import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestOrg, eventually, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";
import { workbookParts, zipArchive } from "@catalog/testing/zip-archive";

// Hostile uploads: each is refused with a status and a message naming the limit, the gateway
// goes on answering, the spool is empty afterwards and nothing was stored.

const REFUSED_TITLE = "Refused by the database";
const spoolDir = mkdtempSync(join(tmpdir(), "catalog-spool-test-"));
let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({
    DOCUMENT_MAX_BYTES: String(64 * 1024 * 1024),
    DOCUMENT_SPOOL_DIR: spoolDir,
  });
  t = await createTestOrg(gw.db, "document-limits");
  cookie = await login(gw.app, t.member.email, t.member.password);
  // The database itself refuses one title, as it would refuse any row it cannot store.
  await gw.db.$executeRawUnsafe(
    `ALTER TABLE products ADD CONSTRAINT test_refuses_title CHECK (title <> '${REFUSED_TITLE}') NOT VALID`,
  );
});
afterAll(async () => {
  await gw.db.$executeRawUnsafe(
    "ALTER TABLE products DROP CONSTRAINT IF EXISTS test_refuses_title",
  );
  await gw.close();
  rmSync(spoolDir, { recursive: true, force: true });
});

const upload = (file: string | Buffer, filename: string, type: string) => {
  const body = documentUpload(file, filename, { persist: "true" }, type);
  return gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};
const stored = () => gw.db.product.count({ where: { orgId: t.org.id } });

async function expectRefused(
  file: string | Buffer,
  filename: string,
  type: string,
  status: number,
  message: RegExp,
) {
  const res = await upload(file, filename, type);
  expect(res.statusCode).toBe(status);
  expect(errorOf(res)).toMatch(message);
  expect(
    (await gw.app.inject({ method: "GET", url: "/api/products", headers: { cookie } })).statusCode,
  ).toBe(200);
  expect(readdirSync(spoolDir)).toEqual([]);
  expect(await stored()).toBe(0);
}

/** Shared strings that deflate about 4:1, well under the ratio that would call them a bomb. */
function sharedStrings(bytes: number): Buffer {
  const parts: string[] = ["<sst>"];
  let size = 5;
  for (let i = 0; size < bytes; i++) {
    const si = `<si><t>Product ${i} ${((i * 2654435761) % 4294967296).toString(36)} ${((i * 40503) % 65536).toString(16)}</t></si>`;
    parts.push(si);
    size += si.length;
  }
  parts.push("</sst>");
  return Buffer.from(parts.join(""));
}

test("an XLSX whose shared strings unpack to 40 MB (ratio under 100:1) is 413 naming the limit", async () => {
  const xlsx = zipArchive(workbookParts([[0], [1]], sharedStrings(40 * 1024 * 1024)), 1);
  await expectRefused(
    xlsx,
    "strings.xlsx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    413,
    /"xl\/sharedStrings\.xml" unpacks to more than 32 MB, the limit for the parts read whole/,
  );
});

test("a CSV of 1,000,000 columns is 413 naming the limit", async () => {
  const header = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(",");
  await expectRefused(
    `${header}\n${"x,".repeat(999_999)}x\n`,
    "wide.csv",
    "text/csv",
    413,
    /^row 1 has more than 2,000 cells, the limit for one row/,
  );
});

test("a JSON document with 100,000-deep attributes is 422 naming the limit", async () => {
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  await expectRefused(
    `[{"title": "Deep", "attributes": {"x": ${deep}}}]`,
    "deep.json",
    "application/json",
    422,
    /^item 1 nests arrays and objects more than 32 levels deep, the limit for a JSON document$/,
  );
});

test("a 9,000,000-character NDJSON line is 413 naming the limit", async () => {
  const line = JSON.stringify({
    title: "Long",
    ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`part${i}`, "z".repeat(900_000)])),
  });
  await expectRefused(
    `{"title": "Short"}\n${line}\n`,
    "long.ndjson",
    "application/x-ndjson",
    413,
    /^line 2 is longer than 8,388,608 characters/,
  );
});

test("a 2,000,000-character cell is 413 naming the limit", async () => {
  await expectRefused(
    `Title,Description\nShirt,${"d".repeat(2_000_000)}\n`,
    "cell.csv",
    "text/csv",
    413,
    /^row 2 has a value longer than 1,048,576 characters, the limit for one cell or string/,
  );
});

test("a cell past the limit in the fourth batch of a persisted import is 413: nothing stored", async () => {
  // The parser reads batch n+1 while batch n is written: its refusal arrives mid-import.
  const rows = Array.from({ length: 1_600 }, (_, i) => `Late ${i},LATE-${i},1.00,EUR,`);
  await expectRefused(
    `Title,SKU,Price,Currency,Description\n${rows.join("\n")}\nToo long,LATE-X,1.00,EUR,${"d".repeat(2_000_000)}\n`,
    "late.csv",
    "text/csv",
    413,
    /^row 1602 has a value longer than 1,048,576 characters/,
  );
});

test("when the database refuses batch 7 of a persisted import, nothing is stored and the answer is { error }", async () => {
  const rows = Array.from(
    { length: 3_500 },
    (_, i) => `${i === 3_200 ? REFUSED_TITLE : `Batch product ${i}`},BATCH-${i},9.99,EUR`,
  );
  const res = await upload(
    `Title,SKU,Price,Currency\n${rows.join("\n")}\n`,
    "batches.csv",
    "text/csv",
  );
  expect(res.statusCode).toBe(500);
  expect(errorOf(res)).toMatch(/^Internal error; quote request id/);
  expect(readdirSync(spoolDir)).toEqual([]);
  expect(await stored()).toBe(0);
});

test("a client that goes away mid-import stores nothing and leaves no spool", async () => {
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = gw.app.server.address() as { port: number };
  // A transaction holding the first row's SKU makes the import wait on its write, so the client
  // is known to leave while the import runs.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const blocker = gw.db
    .$transaction(
      async (tx) => {
        await tx.product.create({ data: { orgId: t.org.id, title: "Held", sku: "GONE-0" } });
        await released;
        throw new Error("roll back");
      },
      { timeout: 60_000 },
    )
    .catch(() => undefined);

  const rows = Array.from({ length: 5_000 }, (_, i) => `Gone ${i},GONE-${i},1.00,EUR`);
  const body = documentUpload(`Title,SKU,Price,Currency\n${rows.join("\n")}\n`, "gone.csv", {
    persist: "true",
  });
  const req = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/import/document",
    headers: { cookie, ...body.headers },
  });
  req.on("error", () => undefined);
  req.end(body.payload);
  await eventually(async () => {
    const [row] = await gw.db.$queryRawUnsafe<{ waiting: number }[]>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'COPY products%'",
    );
    expect(row?.waiting).toBeGreaterThan(0);
  }, 20_000);
  req.destroy();
  // The server has seen the connection close (and so aborted the import) once it holds none.
  await eventually(async () => {
    const open = await new Promise<number>((resolve, reject) =>
      gw.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))),
    );
    expect(open).toBe(0);
  });
  release();
  await blocker;
  await eventually(async () => expect(readdirSync(spoolDir)).toEqual([]), 20_000);
  expect(await stored()).toBe(0);
  expect(
    (await gw.app.inject({ method: "GET", url: "/api/products", headers: { cookie } })).statusCode,
  ).toBe(200);
});

describe("a document past every explicit limit but not the parser's memory", () => {
  const smallSpool = mkdtempSync(join(tmpdir(), "catalog-spool-test-"));
  let small: Gateway;
  beforeAll(async () => {
    // What a crashed earlier gateway left, and what a live neighbour is using.
    mkdirSync(join(smallSpool, "catalog-upload-999999999-deadbeef-abc123"));
    writeFileSync(
      join(smallSpool, "catalog-upload-999999999-deadbeef-abc123", "upload"),
      "left behind",
    );
    mkdirSync(join(smallSpool, `catalog-upload-${process.ppid}-cafebabe-abc123`));
    small = await startGateway({
      DOCUMENT_MAX_BYTES: String(64 * 1024 * 1024),
      DOCUMENT_SPOOL_DIR: smallSpool,
      DOCUMENT_PARSE_HEAP_MB: "16",
    });
  });
  afterAll(async () => {
    await small.close();
    rmSync(smallSpool, { recursive: true, force: true });
  });

  test("start-up removed the spool of a dead process and kept a live one's", () => {
    expect(readdirSync(smallSpool)).toEqual([`catalog-upload-${process.ppid}-cafebabe-abc123`]);
    rmSync(join(smallSpool, `catalog-upload-${process.ppid}-cafebabe-abc123`), { recursive: true });
  });

  test("exhausts the parser thread, not the gateway: 413 naming the memory limit", async () => {
    const xlsx = zipArchive(workbookParts([[0], [1]], sharedStrings(24 * 1024 * 1024)), 1);
    const body = documentUpload(
      xlsx,
      "heavy.xlsx",
      { persist: "true" },
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const res = await small.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res)).toBe(
      "reading the document needs more than 16 MB of memory, the limit for one import; split it into smaller files or export it as CSV",
    );
    expect(
      (await small.app.inject({ method: "GET", url: "/api/products", headers: { cookie } }))
        .statusCode,
    ).toBe(200);
    expect(readdirSync(smallSpool)).toEqual([]);
    expect(await stored()).toBe(0);
  });
});
