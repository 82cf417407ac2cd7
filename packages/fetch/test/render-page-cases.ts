// The render tests, run against Chromium launched by the test's own process
// (render-page.test.ts) and against a renderer process it connects to (render-page-remote.test.ts).
import {
  BlockedUrlError,
  createRenderer,
  FetchFailedError,
  fetchPublic,
  type Renderer,
  type RendererOptions,
} from "../src/index.js";
import { fakePublicPolicy, startServer, type LocalServer } from "./local-server.js";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const policy = fakePublicPolicy(["public.test"]);

// The product only exists after the page's script has fetched it; the static HTML has none.
const APP_PAGE = `<!doctype html><html><body><div id="app">loading</div><img src="/photo.png">
<script>fetch("/api/product").then((r) => r.json()).then((p) => {
  document.getElementById("app").innerHTML = '<h1 class="product">' + p.name + "</h1>";
});</script></body></html>`;

function probePage(secretPort: number): string {
  const secret = `127.0.0.1:${secretPort}`;
  return `<!doctype html><html><body><p>probe</p>
<iframe src="http://${secret}/frame"></iframe>
<script src="/redirect-to-secret.js"></script>
<script>
  fetch("http://${secret}/xhr").catch(() => {});
  fetch("https://${secret}/tls").catch(() => {});
  fetch("http://localhost:${secretPort}/by-name").catch(() => {});
  try { new WebSocket("ws://${secret}/ws"); } catch {}
</script></body></html>`;
}

export interface Browsers {
  /** Where createRenderer gets its browser: `{}` (launched here) or `{ rendererUrl }`. */
  options(): Partial<RendererOptions>;
  /** Kills the browser the renderer uses (and whatever brings a new one, as an orchestrator would). */
  kill(): Promise<void>;
}

export function renderPageTests(browsers: Browsers): void {
  let site: LocalServer;
  let secret: LocalServer;
  let renderer: Renderer;
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    secret = await startServer((_req, res) => res.end("secret"));
    site = await startServer((req, res) => {
      const path = req.url ?? "/";
      const send = (body: string, type = "text/html") =>
        res.writeHead(200, { "content-type": type }).end(body);
      if (path === "/app") return send(APP_PAGE);
      if (path === "/api/product")
        return send(JSON.stringify({ name: "Blue Mug" }), "application/json");
      if (path === "/probe") return send(probePage(secret.port));
      if (path === "/redirect-to-secret.js")
        return res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/script.js` }).end();
      if (path === "/leave")
        return res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/` }).end();
      if (path === "/hang") return; // never answers
      if (path === "/busy")
        return send("<p>busy</p><script>setTimeout(() => { for (;;) {} }, 0)</script>");
      if (path === "/missing")
        return res.writeHead(404, { "content-type": "text/html" }).end("<h1>gone</h1>");
      if (path.startsWith("/slow/")) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return void setTimeout(() => {
          inFlight -= 1;
          send(`<p>${path}</p>`);
        }, 1_000);
      }
      res.writeHead(404).end();
    });
    renderer = createRenderer({ ...browsers.options(), policy, settleMs: 500 });
  });
  afterAll(async () => {
    await renderer.close();
    await site.close();
    await secret.close();
  });

  it("renders content that only JavaScript builds, skipping images", async () => {
    const url = `http://public.test:${site.port}/app`;
    const fetched = await fetchPublic(url, { policy });
    expect(fetched.body).not.toContain("Blue Mug");
    const rendered = await renderer.render(url);
    expect(rendered.finalUrl).toBe(url);
    expect(rendered.html).toContain('<h1 class="product">Blue Mug</h1>');
    expect(site.requests).toContain("/api/product");
    expect(site.requests).not.toContain("/photo.png");
  });

  it("refuses, through the proxy, whatever the page itself tries to load from private addresses", async () => {
    const rendered = await renderer.render(`http://public.test:${site.port}/probe`);
    expect(rendered.html).toContain("probe");
    expect(secret.connections).toBe(0);
    const refused = renderer.blocked.join("\n");
    for (const target of [
      `http://127.0.0.1:${secret.port}/frame`,
      `http://127.0.0.1:${secret.port}/xhr`,
      `http://127.0.0.1:${secret.port}/script.js`, // reached through a redirect of an allowed URL
      `http://localhost:${secret.port}/by-name`,
      `127.0.0.1:${secret.port} `, // CONNECT, for https:// and ws://
    ]) {
      expect(refused).toContain(target);
    }
  });

  it("refuses a blocked start URL without opening anything", async () => {
    await expect(renderer.render(`http://127.0.0.1:${secret.port}/`)).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
    await expect(renderer.render("file:///etc/passwd")).rejects.toThrow(
      "is not an http(s) address",
    );
    expect(secret.connections).toBe(0);
  });

  it("refuses a page that redirects to a private address", async () => {
    const error = await renderer
      .render(`http://public.test:${site.port}/leave`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toBe(
      `http://public.test:${site.port}/leave redirects to http://127.0.0.1:${secret.port}/, which is a loopback address; only public web addresses can be imported`,
    );
    expect(secret.connections).toBe(0);
  });

  it("turns HTTP errors into FetchFailedError with the status", async () => {
    await expect(renderer.render(`http://public.test:${site.port}/missing`)).rejects.toMatchObject({
      status: 404,
      name: "FetchFailedError",
    });
  });

  it("gives a clear error when rendering takes too long, also when the page's script never yields", async () => {
    const started = Date.now();
    await expect(
      renderer.render(`http://public.test:${site.port}/hang`, { timeoutMs: 1_000 }),
    ).rejects.toThrow(`Rendering http://public.test:${site.port}/hang took longer than 1000 ms`);
    const busy = await renderer
      .render(`http://public.test:${site.port}/busy`, { timeoutMs: 1_500 })
      .catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(FetchFailedError);
    expect((busy as Error).message).toContain("took longer than 1500 ms");
    expect(Date.now() - started).toBeLessThan(8_000);
    // The renderer still works afterwards.
    const page = await renderer.render(`http://public.test:${site.port}/app`);
    expect(page.html).toContain("Blue Mug");
  });

  it("gets a new browser after the one it used dies", async () => {
    await renderer.render(`http://public.test:${site.port}/app`);
    await browsers.kill();
    const again = await renderer.render(`http://public.test:${site.port}/app`);
    expect(again.html).toContain("Blue Mug");
  });

  it("renders at most `concurrency` pages at once and queues the rest", async () => {
    const two = createRenderer({ ...browsers.options(), policy, concurrency: 2, settleMs: 0 });
    try {
      inFlight = 0;
      maxInFlight = 0;
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) => two.render(`http://public.test:${site.port}/slow/${n}`)),
      );
      results.forEach((result, i) => expect(result.html).toContain(`/slow/${i + 1}`));
      expect(maxInFlight).toBe(2);
    } finally {
      await two.close();
    }
  });
}
