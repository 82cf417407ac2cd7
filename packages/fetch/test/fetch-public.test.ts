import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import zlib from "node:zlib";
import {
  BlockedUrlError,
  DEFAULT_USER_AGENT,
  FetchFailedError,
  fetchPublic,
  InvalidUrlError,
  type UrlPolicy,
} from "../src/index.js";
import { fakePublicPolicy, startServer, type LocalServer } from "./local-server.js";

const local: UrlPolicy = { allowPrivate: true };
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`;

function html(
  res: ServerResponse,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
  res.end(body);
}

describe("fetchPublic", () => {
  let site: LocalServer;
  let userAgent = "";
  let acceptEncoding = "";

  beforeAll(async () => {
    site = await startServer((req, res) => {
      const path = req.url ?? "/";
      const n = Number(/\d+/.exec(path)?.[0] ?? 0);
      if (path === "/plain") {
        userAgent = req.headers["user-agent"] ?? "";
        acceptEncoding = String(req.headers["accept-encoding"]);
        return html(res, page("Plain Mug"));
      }
      if (path === "/gzip")
        return html(res, zlib.gzipSync(page("Gzip Mug – €5")), { "content-encoding": "gzip" });
      if (path === "/br")
        return html(res, zlib.brotliCompressSync(page("Brotli Mug")), { "content-encoding": "br" });
      if (path === "/deflate")
        return html(res, zlib.deflateSync(page("Deflate Mug")), { "content-encoding": "deflate" });
      if (path === "/raw-deflate")
        return html(res, zlib.deflateRawSync(page("Raw Mug")), { "content-encoding": "deflate" });
      if (path === "/latin1")
        return html(
          res,
          Buffer.from([...Buffer.from("<p>Caf"), 0xe9, 0x20, 0x80, 0x35, ...Buffer.from("</p>")]),
          { "content-type": "text/html; charset=ISO-8859-1" },
        );
      if (path === "/meta-charset")
        return html(
          res,
          Buffer.from([
            ...Buffer.from('<html><head><meta charset="windows-1252"></head><p>'),
            0x93,
            0x68,
            0x69,
            0x94,
            ...Buffer.from("</p>"),
          ]),
          { "content-type": "text/html" },
        );
      if (path === "/meta-http-equiv")
        return html(
          res,
          Buffer.concat([
            Buffer.from(
              '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>',
            ),
            Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
            Buffer.from("</p>"),
          ]),
          { "content-type": "text/html" },
        );
      if (path === "/no-type") return res.end("<!DOCTYPE html><p>untyped</p>");
      if (path === "/no-type-binary") return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      if (path.startsWith("/hop/")) {
        res.writeHead(n > 1 ? 302 : 301, { location: n > 1 ? `/hop/${n - 1}` : "../plain" });
        return res.end();
      }
      if (path === "/loop") return res.writeHead(302, { location: "/loop" }).end();
      if (path === "/to-loopback")
        return res.writeHead(302, { location: `http://127.0.0.1:${site.port}/plain` }).end();
      if (path === "/to-ftp") return res.writeHead(302, { location: "ftp://public.test/x" }).end();
      if (path === "/big") return html(res, "x".repeat(20_000));
      if (path === "/big-chunked") {
        res.writeHead(200, { "content-type": "text/html" });
        const timer = setInterval(() => res.write("y".repeat(4096)), 5);
        res.on("close", () => clearInterval(timer));
        return;
      }
      if (path === "/bomb")
        return html(res, zlib.gzipSync(Buffer.alloc(5_000_000, 0x61)), {
          "content-encoding": "gzip",
        });
      if (path === "/image")
        return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(10));
      if (path === "/slow") return void setTimeout(() => html(res, page("late")), 2_000);
      if (path === "/slow-body") {
        res.writeHead(200, { "content-type": "text/html" });
        res.write("<html>");
        return;
      }
      if (path === "/gone")
        return res.writeHead(404, { "content-type": "text/html" }).end("<h1>nope</h1>");
      if (path === "/broken")
        return res.writeHead(503, { "content-type": "text/html" }).end("down");
      res.writeHead(500).end();
    });
  });
  afterAll(() => site.close());

  it("fetches a page with a browser-like User-Agent and compression offered", async () => {
    const result = await fetchPublic(`${site.origin}/plain`, { policy: local });
    expect(result).toEqual({
      finalUrl: `${site.origin}/plain`,
      status: 200,
      contentType: "text/html",
      body: page("Plain Mug"),
      redirects: [],
    });
    expect(userAgent).toBe(DEFAULT_USER_AGENT);
    expect(userAgent).toMatch(/^Mozilla\/5\.0 .*Chrome\/\d+/);
    expect(acceptEncoding).toMatch(/gzip.*deflate.*br/);
  });

  it.each([
    ["/gzip", "Gzip Mug – €5"],
    ["/br", "Brotli Mug"],
    ["/deflate", "Deflate Mug"],
    ["/raw-deflate", "Raw Mug"],
  ])("decompresses %s", async (path, title) => {
    const { body } = await fetchPublic(site.origin + path, { policy: local });
    expect(body).toBe(page(title));
  });

  it("decodes the charset named by Content-Type, latin1 as windows-1252", async () => {
    expect((await fetchPublic(`${site.origin}/latin1`, { policy: local })).body).toBe(
      "<p>Café €5</p>",
    );
  });

  it("decodes the charset named by <meta>", async () => {
    expect((await fetchPublic(`${site.origin}/meta-charset`, { policy: local })).body).toContain(
      "<p>\u201Chi\u201D</p>",
    );
    expect((await fetchPublic(`${site.origin}/meta-http-equiv`, { policy: local })).body).toContain(
      "<p>日本</p>",
    );
  });

  it("sniffs HTML when there is no Content-Type, and refuses anything else", async () => {
    expect((await fetchPublic(`${site.origin}/no-type`, { policy: local })).body).toContain(
      "untyped",
    );
    await expect(fetchPublic(`${site.origin}/no-type-binary`, { policy: local })).rejects.toThrow(
      "is not an HTML page (no content type)",
    );
  });

  it("follows relative redirects and lists them", async () => {
    const result = await fetchPublic(`${site.origin}/hop/3`, { policy: local });
    expect(result.finalUrl).toBe(`${site.origin}/plain`);
    expect(result.redirects).toEqual([
      `${site.origin}/hop/2`,
      `${site.origin}/hop/1`,
      `${site.origin}/plain`,
    ]);
    expect(result.body).toBe(page("Plain Mug"));
  });

  it("bounds redirects: a loop or a long chain fails", async () => {
    const loop = await fetchPublic(`${site.origin}/loop`, { policy: local }).catch(
      (e: unknown) => e,
    );
    expect(loop).toBeInstanceOf(FetchFailedError);
    expect((loop as Error).message).toBe(
      `${site.origin}/loop redirected more than 5 times (last to ${site.origin}/loop); it may be a redirect loop`,
    );
    await expect(
      fetchPublic(`${site.origin}/hop/3`, { policy: local, maxRedirects: 2 }),
    ).rejects.toThrow(/redirected more than 2 times/);
  });

  it("re-checks every redirect: a public site redirecting to loopback is refused", async () => {
    const policy = fakePublicPolicy(["public.test"]);
    const before = site.requests.length;
    const error = await fetchPublic(`http://public.test:${site.port}/to-loopback`, {
      policy,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as BlockedUrlError).url).toBe(`http://127.0.0.1:${site.port}/plain`);
    expect((error as Error).message).toBe(
      `http://public.test:${site.port}/to-loopback redirects to http://127.0.0.1:${site.port}/plain, which is a loopback address; only public web addresses can be imported`,
    );
    // The "public" hop was fetched, the loopback one never was.
    expect(site.requests.slice(before)).toEqual(["/to-loopback"]);
    await expect(
      fetchPublic(`http://public.test:${site.port}/to-ftp`, { policy }),
    ).rejects.toBeInstanceOf(InvalidUrlError);
  });

  it("pins the connection: the Host header keeps the name", async () => {
    const policy = fakePublicPolicy(["public.test"]);
    const result = await fetchPublic(`http://public.test:${site.port}/hop/1`, { policy });
    expect(result.finalUrl).toBe(`http://public.test:${site.port}/plain`);
  });

  it("caps the size by Content-Length, while streaming, and after decompression", async () => {
    await expect(
      fetchPublic(`${site.origin}/big`, { policy: local, maxBytes: 10_000 }),
    ).rejects.toThrow(`${site.origin}/big is larger than 10000 bytes`);
    await expect(
      fetchPublic(`${site.origin}/big-chunked`, { policy: local, maxBytes: 50_000 }),
    ).rejects.toThrow("is larger than 50000 bytes");
    await expect(
      fetchPublic(`${site.origin}/bomb`, { policy: local, maxBytes: 1_000_000 }),
    ).rejects.toThrow("is larger than 1000000 bytes");
  });

  it("refuses what is not HTML", async () => {
    const error = await fetchPublic(`${site.origin}/image`, { policy: local }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as Error).message).toBe(`${site.origin}/image is not an HTML page (image/png)`);
    await expect(
      fetchPublic(`${site.origin}/image`, { policy: local, accept: ["image/png"] }),
    ).resolves.toMatchObject({ contentType: "image/png" });
  });

  it("times out on a slow answer and on a stalled body", async () => {
    const started = Date.now();
    await expect(
      fetchPublic(`${site.origin}/slow`, { policy: local, timeoutMs: 300 }),
    ).rejects.toThrow(`${site.origin}/slow did not answer within 300 ms`);
    await expect(
      fetchPublic(`${site.origin}/slow-body`, { policy: local, timeoutMs: 300 }),
    ).rejects.toThrow("did not answer within 300 ms");
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("gives the caller's own abort reason back", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("shutting down")), 50);
    await expect(
      fetchPublic(`${site.origin}/slow`, { policy: local, signal: controller.signal }),
    ).rejects.toThrow("shutting down");
  });

  it("turns HTTP errors into FetchFailedError with the status", async () => {
    const gone = await fetchPublic(`${site.origin}/gone`, { policy: local }).catch(
      (e: unknown) => e,
    );
    expect(gone).toBeInstanceOf(FetchFailedError);
    expect(gone).toMatchObject({
      status: 404,
      url: `${site.origin}/gone`,
      message: `${site.origin}/gone was not found (404 Not Found); check the address`,
    });
    await expect(fetchPublic(`${site.origin}/broken`, { policy: local })).rejects.toMatchObject({
      status: 503,
    });
  });

  it("reports a refused connection plainly", async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    await expect(fetchPublic(`${closed.origin}/`, { policy: local })).rejects.toThrow(
      `${closed.origin}/ refused the connection`,
    );
  });

  it("over HTTPS sends the name as SNI to the pinned address and still verifies the certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fetch-tls-"));
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=public.test",
          "-addext",
          "subjectAltName=DNS:public.test",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ],
        { stdio: "ignore" },
      );
      const names: string[] = [];
      const tls = https.createServer(
        {
          key: readFileSync(join(dir, "key.pem")),
          cert: readFileSync(join(dir, "cert.pem")),
          SNICallback: (name, done) => {
            names.push(name);
            done(null);
          },
        },
        (_req, res) => res.end("<html>secret</html>"),
      );
      await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
      const { port } = tls.address() as AddressInfo;
      const policy = fakePublicPolicy(["public.test"]);
      // Self-signed, so verification must fail: proof it is not switched off by the pinning.
      await expect(fetchPublic(`https://public.test:${port}/`, { policy })).rejects.toThrow(
        `https://public.test:${port}/ has an invalid HTTPS certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      expect(names).toEqual(["public.test"]);
      await new Promise((resolve) => tls.close(resolve));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
