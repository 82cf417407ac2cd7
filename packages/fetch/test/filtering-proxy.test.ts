import http from "node:http";
import net from "node:net";
import { startFilteringProxy, type FilteringProxy } from "../src/index.js";
import { fakePublicPolicy, startServer, type LocalServer } from "./local-server.js";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function viaProxy(proxy: FilteringProxy, target: string): Promise<Answer> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        headers: { host: new URL(target).host },
        agent: false,
      },
      (res) => {
        let body = "";
        res
          .setEncoding("utf8")
          .on("data", (c: string) => (body += c))
          .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject).end();
  });
}

/** Opens a CONNECT tunnel; resolves with the status line and the socket (still open on 200). */
function connect(
  proxy: FilteringProxy,
  target: string,
): Promise<{ statusLine: string; socket: net.Socket }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    socket.once("data", (chunk) =>
      resolve({ statusLine: chunk.toString("latin1").split("\r\n")[0] ?? "", socket }),
    );
    socket.on("error", reject);
  });
}

describe("startFilteringProxy", () => {
  let site: LocalServer;
  let proxy: FilteringProxy;
  let seenHost = "";

  beforeAll(async () => {
    site = await startServer((req, res) => {
      seenHost = req.headers.host ?? "";
      if (req.url === "/away")
        return res.writeHead(302, { location: `http://127.0.0.1:${site.port}/secret` }).end();
      res
        .writeHead(200, { "content-type": "text/html", connection: "close" })
        .end(`<p>${req.url}</p>`);
    });
    proxy = await startFilteringProxy(fakePublicPolicy(["public.test"]));
  });
  afterAll(async () => {
    await proxy.close();
    await site.close();
  });

  it("listens on loopback", () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("forwards plain http to an allowed site, pinned, with its Host", async () => {
    const answer = await viaProxy(proxy, `http://public.test:${site.port}/page?x=1`);
    expect(answer).toMatchObject({ status: 200, body: "<p>/page?x=1</p>" });
    expect(seenHost).toBe(`public.test:${site.port}`);
  });

  it("refuses a non-public target with 403 and logs it, without touching it", async () => {
    const before = site.connections;
    const answer = await viaProxy(proxy, `http://127.0.0.1:${site.port}/secret`);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(`http://127.0.0.1:${site.port}/secret is a loopback address`);
    expect(proxy.blocked.at(-1)).toContain(`http://127.0.0.1:${site.port}/secret`);
    expect((await viaProxy(proxy, "http://169.254.169.254/latest/meta-data/")).status).toBe(403);
    expect(site.connections).toBe(before);
  });

  it("hands redirects back instead of following them", async () => {
    const answer = await viaProxy(proxy, `http://public.test:${site.port}/away`);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`http://127.0.0.1:${site.port}/secret`);
  });

  it("refuses CONNECT to non-public targets", async () => {
    const before = site.connections;
    for (const target of [
      `127.0.0.1:${site.port}`,
      `localhost:${site.port}`,
      "[::1]:443",
      "10.0.0.1:443",
      "[::ffff:7f00:1]:443",
    ]) {
      const { statusLine, socket } = await connect(proxy, target);
      expect(statusLine).toBe("HTTP/1.1 403 Forbidden");
      socket.destroy();
      expect(proxy.blocked.at(-1)).toContain(target);
    }
    const { statusLine, socket } = await connect(proxy, "no-port-here");
    expect(statusLine).toBe("HTTP/1.1 400 Bad Request");
    socket.destroy();
    expect(site.connections).toBe(before);
  });

  it("tunnels CONNECT to an allowed target, and close() ends open tunnels", async () => {
    const own = await startFilteringProxy(fakePublicPolicy(["public.test"]));
    const { statusLine, socket } = await connect(own, `public.test:${site.port}`);
    expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
    const reply = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (c: Buffer) => (text += c.toString())).on("close", () => resolve(text));
    });
    socket.write(`GET /tunnelled HTTP/1.1\r\nHost: public.test\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 100));
    await own.close();
    expect(await reply).toContain("<p>/tunnelled</p>");
    expect(socket.destroyed || socket.readableEnded).toBe(true);
  });

  it("keeps only the most recent refusals", async () => {
    const small = await startFilteringProxy({ allowPrivate: false }, { blockedLogSize: 2 });
    for (const n of [1, 2, 3]) await viaProxy(small, `http://10.0.0.${n}/`);
    expect(small.blocked.map((b) => b.split(" ")[0])).toEqual([
      "http://10.0.0.2/",
      "http://10.0.0.3/",
    ]);
    await small.close();
  });
});
