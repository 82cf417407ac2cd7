import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  DocumentLimitError,
  MalformedDocumentError,
  parseDocument,
  UnsupportedDocumentError,
  type DocumentRow,
} from "../src/documents/index.js";

async function collect(content: Buffer | string, meta: { filename?: string } = {}) {
  const rows: DocumentRow[] = [];
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  for await (const row of parseDocument(Readable.from([bytes]), { maxBytes: 50_000_000, ...meta }))
    rows.push(row);
  return rows;
}

/**
 * A secret file and a loopback listener that an XXE would read or call: the tests check that
 * neither was touched (the file's access time is not trusted: noatime mounts; a read would put
 * its text in a product, which the refusal rules out).
 */
let dir: string;
let secret: string;
let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "xxe-"));
  secret = join(dir, "secret.txt");
  writeFileSync(secret, "TOP-SECRET-CONTENT");
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((ok) => server.close(ok));
});

async function refused(xml: string) {
  let error: unknown = null;
  let rows: DocumentRow[] = [];
  try {
    rows = await collect(xml);
  } catch (e) {
    error = e;
  }
  expect(JSON.stringify(rows)).not.toContain("TOP-SECRET");
  return error as Error & { status?: number };
}

describe("XML with a DTD is refused before any entity is expanded or fetched", () => {
  test("XXE: an external entity naming a local file (SYSTEM file:)", async () => {
    const error = await refused(
      `<?xml version="1.0"?><!DOCTYPE products [<!ENTITY xxe SYSTEM "file://${secret}">]>` +
        `<products><product><name>&xxe;</name><price currency="EUR">1</price></product></products>`,
    );
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(
      /declares entities or other definitions in its DOCTYPE \(line 1\).*remove the <!DOCTYPE/,
    );
    expect(statSync(secret).size).toBe(18);
  });

  test("XXE: an external entity naming a URL (SYSTEM http:, loopback): no connection", async () => {
    const error = await refused(
      `<!DOCTYPE rss [<!ENTITY xxe SYSTEM "http://127.0.0.1:${port}/x">]>` +
        `<rss><channel><item><title>&xxe;</title></item></channel></rss>`,
    );
    expect(error).toBeInstanceOf(MalformedDocumentError);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(connections).toBe(0);
  });

  test("a parameter entity", async () => {
    const error = await refused(
      `<?xml version="1.0"?>\n<!DOCTYPE data [\n<!ENTITY % remote SYSTEM "http://127.0.0.1:${port}/evil.dtd">\n%remote;\n]>\n<data><product><name>x</name></product></data>`,
    );
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(/DOCTYPE \(line \d\)/);
    expect(connections).toBe(0);
  });

  test("billion laughs (nested entity expansion)", async () => {
    const levels = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join("");
    const error = await refused(
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${levels}]><products><product><name>&lol9;</name></product></products>`,
    );
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(/declares entities/);
  });

  test("an external DTD (SYSTEM or PUBLIC id) is never fetched", async () => {
    for (const doctype of [
      `<!DOCTYPE products SYSTEM "http://127.0.0.1:${port}/products.dtd">`,
      `<!DOCTYPE products PUBLIC "-//Example//DTD Products//EN" "http://127.0.0.1:${port}/p.dtd">`,
    ]) {
      const error = await refused(
        `<?xml version="1.0"?>\n${doctype}\n<products><product><name>x</name></product></products>`,
      );
      expect(error).toBeInstanceOf(MalformedDocumentError);
      expect(error.message).toMatch(
        /names an external DTD in its DOCTYPE \(line 2\), which is never fetched/,
      );
    }
    expect(connections).toBe(0);
  });

  test("an entity no DTD declares is a well-formedness error naming the line", async () => {
    const error = await refused(
      `<products>\n<product><name>&nbsp;Mug</name></product>\n</products>`,
    );
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(
      /not well-formed at line 2, column \d+: undefined entity; an entity such as &nbsp; is not defined in XML/,
    );
  });

  test("a DOCTYPE without definitions is allowed", async () => {
    const rows = await collect(
      `<?xml version="1.0"?><!DOCTYPE products><products><product><name>Mug</name><price currency="EUR">3</price></product></products>`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ok).toBe(true);
  });
});

describe("broken XML is 422 naming the line", () => {
  test("mismatched tags", async () => {
    const error = await refused(`<products>\n<product><name>Mug</title></product>\n</products>`);
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(/not well-formed at line 2, column \d+: unexpected close tag/);
  });

  test("a file cut short", async () => {
    const error = await refused(`<products>\n<product><name>Mug</name>\n<price>3`);
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(
      /not well-formed at line 3, column \d+: unclosed tag: price; is the file cut short\?/,
    );
  });
});

describe("limits", () => {
  test("elements nested past the depth limit: 422", async () => {
    const deep = "<a>".repeat(100_000);
    const error = await refused(`<products><product>${deep}`);
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/line 1 \(element <a>\) nests elements more than 32 levels deep/);
  });

  test("a 2 MB text node: 413 naming the item and element", async () => {
    const error = await refused(
      `<products><product><name>${"x".repeat(2 * 1024 * 1024)}</name></product></products>`,
    );
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/item 1 \(element <name>\) has a value longer than 1,048,576/);
  });

  test("a text node that never ends is refused while it streams, not held whole", async () => {
    const rows: DocumentRow[] = [];
    let chunks = 0;
    async function* endless() {
      yield Buffer.from("<products><product><name>");
      for (; chunks < 10_000; chunks++) yield Buffer.alloc(64 * 1024, 0x78);
    }
    const reading = (async () => {
      for await (const row of parseDocument(endless(), { maxBytes: 1024 * 1024 * 1024 }))
        rows.push(row);
    })();
    await expect(reading).rejects.toThrow(/item 1 \(after line 1\) has a value longer than/);
    expect(chunks).toBeLessThan(40);
  });

  test("an element with 3,000 attributes: 413", async () => {
    const attrs = Array.from({ length: 3000 }, (_, i) => `a${i}="1"`).join(" ");
    const error = await refused(`<products><product ${attrs}><name>x</name></product></products>`);
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.message).toMatch(/has more than 2,000 attributes/);
  });

  test("an empty list is 422", async () => {
    await expect(collect(`<products></products>`)).rejects.toThrow(
      /root element <products> holds no product elements/,
    );
    await expect(
      collect(
        `<rss xmlns:g="http://base.google.com/ns/1.0"><channel><title>x</title></channel></rss>`,
      ),
    ).rejects.toThrow(/the feed has no <item> elements/);
  });
});

describe("HTML is still refused", () => {
  test("an HTML page (with or without an XML declaration) is 415", async () => {
    for (const page of [
      "<!DOCTYPE html><html><body>shop</body></html>",
      `<?xml version="1.0"?>\n<!-- saved --><html lang="en"><body>shop</body></html>`,
    ]) {
      await expect(collect(page)).rejects.toThrow(UnsupportedDocumentError);
      await expect(collect(page)).rejects.toThrow(/this is an HTML page, not a product list/);
    }
  });
});

test("the secret file is unchanged", () => {
  expect(readFileSync(secret, "utf8")).toBe("TOP-SECRET-CONTENT");
});
