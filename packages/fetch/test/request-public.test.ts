// Requests and downloads for addresses a merchant gave us, made long after the address was first
// seen: checked again each time, connected only to the checked address, bounded.
import {
  BlockedUrlError,
  FetchFailedError,
  fetchPublicBytes,
  requestPublic,
  type UrlPolicy,
} from "../src/public.js";
import { fakePublicPolicy, startServer, type LocalServer } from "./local-server.js";

const local: UrlPolicy = { allowPrivate: true };
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

let site: LocalServer;
const seen: { method: string; body: string; type: string | undefined }[] = [];

beforeAll(async () => {
  site = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        type: req.headers["content-type"],
      });
      if (req.url === "/api")
        return res
          .writeHead(201, { "content-type": "application/json", "x-remaining": "9" })
          .end('{"id":7}');
      if (req.url === "/moved") return res.writeHead(301, { location: "/api" }).end();
      if (req.url === "/big")
        return res.writeHead(200, { "content-type": "application/json" }).end("x".repeat(5_000));
      if (req.url === "/photo.png")
        return res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      if (req.url === "/to-photo") return res.writeHead(302, { location: "/photo.png" }).end();
      if (req.url === "/page")
        return res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
      if (req.url === "/untyped") return res.end(PNG);
      if (req.url === "/down") return res.writeHead(503).end();
      res.writeHead(404).end();
    });
  });
});
afterAll(() => site.close());

describe("requestPublic", () => {
  it("sends the method, headers and body, and gives back status, headers and the body as bytes", async () => {
    const answer = await requestPublic({
      method: "POST",
      url: `${site.origin}/api`,
      headers: { "content-type": "application/json" },
      body: '{"name":"Mug ☕"}',
      policy: local,
      signal: AbortSignal.timeout(2_000),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers["x-remaining"]).toBe("9");
    expect(answer.body.toString("utf8")).toBe('{"id":7}');
    expect(seen.at(-1)).toEqual({
      method: "POST",
      body: '{"name":"Mug ☕"}',
      type: "application/json",
    });
  });

  it("refuses a name that now resolves to a private address, before any connection", async () => {
    const before = site.connections;
    const rebound = fakePublicPolicy([], { "shop.example": "10.0.0.5" });
    const error = await requestPublic({
      method: "GET",
      url: `http://shop.example:${site.port}/api`,
      policy: rebound,
      signal: AbortSignal.timeout(2_000),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toMatch(/shop\.example.*resolves to a private/);
    await expect(
      requestPublic({
        method: "GET",
        url: `${site.origin}/api`,
        policy: { allowPrivate: false },
        signal: AbortSignal.timeout(2_000),
      }),
    ).rejects.toBeInstanceOf(BlockedUrlError);
    expect(site.connections).toBe(before);
  });

  it("connects to the checked address under the store's name, follows no redirect and caps the answer", async () => {
    const answer = await requestPublic({
      method: "GET",
      url: `http://shop.test:${site.port}/moved`,
      policy: fakePublicPolicy(["shop.test"]),
      signal: AbortSignal.timeout(2_000),
    });
    expect(answer.status).toBe(301);
    expect(answer.headers).toMatchObject({ location: "/api" });
    await expect(
      requestPublic({
        method: "GET",
        url: `${site.origin}/big`,
        policy: local,
        signal: AbortSignal.timeout(2_000),
        maxBytes: 1_000,
      }),
    ).rejects.toThrow("is larger than 1000 bytes");
  });

  it("a refused connection fails with the socket's code", async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    await expect(
      requestPublic({
        method: "GET",
        url: `${closed.origin}/`,
        policy: local,
        signal: AbortSignal.timeout(2_000),
      }),
    ).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("fetchPublicBytes", () => {
  it("gives an image's bytes, through a re-checked redirect", async () => {
    const image = await fetchPublicBytes(`${site.origin}/to-photo`, {
      policy: local,
      accept: ["image/*"],
      expected: "an image",
    });
    expect(image).toMatchObject({
      finalUrl: `${site.origin}/photo.png`,
      contentType: "image/png",
      redirects: [`${site.origin}/photo.png`],
    });
    expect(image.bytes.equals(PNG)).toBe(true);
  });

  it("refuses what is not of the accepted type, or has none, as not worth retrying; a server error is transient", async () => {
    const page = await fetchPublicBytes(`${site.origin}/page`, {
      policy: local,
      accept: ["image/*"],
      expected: "an image",
    }).catch((e: unknown) => e);
    expect(page).toMatchObject({
      message: `${site.origin}/page is not an image (text/html)`,
      transient: false,
    });
    await expect(
      fetchPublicBytes(`${site.origin}/untyped`, {
        policy: local,
        accept: ["image/*"],
        expected: "an image",
      }),
    ).rejects.toThrow("is not an image (no content type)");
    const down = await fetchPublicBytes(`${site.origin}/down`, {
      policy: local,
      accept: ["image/*"],
      expected: "an image",
    }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(FetchFailedError);
    expect(down).toMatchObject({ status: 503, transient: true });
  });

  it("refuses a private address", async () => {
    await expect(
      fetchPublicBytes(`${site.origin}/photo.png`, {
        policy: { allowPrivate: false },
        accept: ["image/*"],
        expected: "an image",
      }),
    ).rejects.toBeInstanceOf(BlockedUrlError);
  });
});
