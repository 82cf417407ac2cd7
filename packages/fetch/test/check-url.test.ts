import {
  BlockedUrlError,
  checkPublicUrl,
  FetchFailedError,
  fetchPublic,
  InvalidUrlError,
  type UrlPolicy,
} from "../src/index.js";
import { fakePublicPolicy, startServer, type LocalServer } from "./local-server.js";

const strict: UrlPolicy = { allowPrivate: false };
const local: UrlPolicy = { allowPrivate: true };

describe("checkPublicUrl", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end("<html>hi</html>"));
  });
  afterAll(() => server.close());

  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["HTTP://LOCALHOST./", "127.0.0.1"],
  ])("WHATWG URL normalises %s so it is judged as %s", async (raw, address) => {
    await expect(checkPublicUrl(raw, strict)).rejects.toBeInstanceOf(BlockedUrlError);
    if (raw.includes("LOCALHOST")) return;
    const checked = await checkPublicUrl(raw, local);
    expect(checked.address).toBe(address);
  });

  it.each([
    "http://localhost/",
    "http://foo.localhost/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://10.1.2.3/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://224.0.0.1/",
    "http://0.0.0.0/",
    "https://[fe80::1]/",
  ])("refuses %s with a message naming it", async (raw) => {
    const error = await checkPublicUrl(raw, strict).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedUrlError);
    const blocked = error as BlockedUrlError;
    expect(blocked.url).toBe(new URL(raw).href);
    expect(blocked.message).toContain(new URL(raw).href);
    expect(blocked.message).toMatch(/(is|resolves to) an? .*address/);
  });

  it.each([
    ["ftp://example.com/", /not an http\(s\) address/],
    ["file:///etc/passwd", /not an http\(s\) address/],
    ["javascript:alert(1)", /not an http\(s\) address/],
    ["http://user:pw@example.com/", /user name or password/],
    ["http://user@example.com/", /user name or password/],
    ["not a url", /not a valid web address/],
    ["http://", /not a valid web address/],
  ])("refuses %s as invalid", async (raw, message) => {
    const error = await checkPublicUrl(raw, strict).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUrlError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("pw@");
  });

  it("refuses a name that resolves to a private address, naming the address", async () => {
    const policy = fakePublicPolicy([], { "intranet.example": "10.0.0.5" });
    await expect(checkPublicUrl("http://intranet.example/", policy)).rejects.toThrow(
      "http://intranet.example/ resolves to a private address (10.0.0.5)",
    );
  });

  it("refuses a name when any one of its addresses is private (mixed DNS answers)", async () => {
    const policy = fakePublicPolicy([], {
      "mixed.example": "93.184.216.34,127.0.0.1",
      "v6.example": "2606:4700::1,fd00::1",
    });
    await expect(checkPublicUrl("http://mixed.example/", policy)).rejects.toThrow(
      /loopback address \(127\.0\.0\.1\)/,
    );
    await expect(checkPublicUrl("http://v6.example/", policy)).rejects.toThrow(/unique-local/);
  });

  it("pins the first resolved address of a public name", async () => {
    const policy = fakePublicPolicy([], { "shop.example": "93.184.216.34,2606:2800:220:1::1" });
    const checked = await checkPublicUrl("https://Shop.Example/p?id=1", policy);
    expect(checked).toMatchObject({ address: "93.184.216.34", family: 4 });
    expect(checked.url.href).toBe("https://shop.example/p?id=1");
  });

  it("does not ask the resolver about literal addresses", async () => {
    let asked = 0;
    const policy: UrlPolicy = {
      allowPrivate: false,
      resolve: async () => (asked++, [{ address: "8.8.8.8", family: 4 }]),
    };
    await expect(checkPublicUrl("http://10.0.0.1/", policy)).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
    expect((await checkPublicUrl("http://1.1.1.1/", policy)).address).toBe("1.1.1.1");
    expect(asked).toBe(0);
  });

  it("reports a name that does not resolve as a fetch failure", async () => {
    const policy = fakePublicPolicy([]);
    await expect(checkPublicUrl("http://nowhere.example/", policy)).rejects.toThrow(
      FetchFailedError,
    );
    await expect(checkPublicUrl("http://nowhere.example/", policy)).rejects.toThrow(
      /nowhere\.example could not be found/,
    );
  });

  it("with local ingest allows private targets but never unspecified or multicast ones", async () => {
    await expect(checkPublicUrl(`${server.origin}/`, local)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(checkPublicUrl("http://10.1.2.3/", local)).resolves.toMatchObject({
      address: "10.1.2.3",
    });
    await expect(checkPublicUrl("http://0.0.0.0/", local)).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(checkPublicUrl("http://224.0.0.1/", local)).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
  });

  it("fetchPublic refuses loopback without opening a connection", async () => {
    const before = server.connections;
    for (const raw of [
      `${server.origin}/`,
      `http://localhost:${server.port}/`,
      `http://2130706433:${server.port}/`,
      `http://[::ffff:127.0.0.1]:${server.port}/`,
    ]) {
      await expect(fetchPublic(raw, { policy: strict })).rejects.toBeInstanceOf(BlockedUrlError);
    }
    expect(server.connections).toBe(before);
  });
});
