import { createPublicUrlScreen, type ResolvedAddress, type UrlPolicy } from "../src/url-guard.js";

/** A resolver that answers from a table and counts its lookups. */
function tableResolver(table: Record<string, string>) {
  const lookups: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    const address = table[hostname];
    if (!address) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };
  return { resolve, lookups };
}

test("image URLs at private, loopback, link-local and metadata addresses are refused, by literal or by name", async () => {
  const { resolve } = tableResolver({
    "cdn.shop.example": "93.184.216.34",
    "internal.shop.example": "10.0.0.7",
    "rebind.example": "169.254.169.254",
  });
  const screen = createPublicUrlScreen({ allowPrivate: false, resolve });
  const verdicts = Object.fromEntries(
    await Promise.all(
      [
        "https://cdn.shop.example/a.png",
        "http://127.0.0.1:4999/a.png",
        "http://169.254.169.254/b.png",
        "http://[::1]/c.png",
        "http://img.localhost/d.png",
        "https://internal.shop.example/e.png",
        "https://rebind.example/f.png",
        "https://unknown.example/g.png",
        "ftp://cdn.shop.example/h.png",
        "https://user:pw@cdn.shop.example/i.png",
      ].map(async (url) => [url, await screen.refusal(url)] as const),
    ),
  );
  expect(verdicts).toEqual({
    "https://cdn.shop.example/a.png": null,
    "http://127.0.0.1:4999/a.png": "is a loopback address",
    "http://169.254.169.254/b.png": "is a link-local address",
    "http://[::1]/c.png": "is a loopback address",
    "http://img.localhost/d.png": "resolves to a loopback address (127.0.0.1)",
    "https://internal.shop.example/e.png": "resolves to a private address (10.0.0.7)",
    "https://rebind.example/f.png": "resolves to a link-local address (169.254.169.254)",
    // What a name that does not resolve will point to when a channel asks is unknown: refused.
    "https://unknown.example/g.png":
      "has a host that could not be found (DNS lookup failed: ENOTFOUND)",
    "ftp://cdn.shop.example/h.png": "is not an http(s) address",
    "https://user:pw@cdn.shop.example/i.png": "contains a user name or password",
  });
});

test("a host that cannot be resolved is refused with the reason, with local ingest too", async () => {
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    if (hostname === "empty.example") return [];
    if (hostname === "broken.example") throw new Error("resolver crashed");
    throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" });
  };
  for (const allowPrivate of [false, true]) {
    const screen = createPublicUrlScreen({ allowPrivate, resolve });
    expect(await screen.refusal("https://cdn.gone.invalid/a.png")).toBe(
      "has a host that could not be found (DNS lookup failed: EAI_AGAIN)",
    );
    expect(await screen.refusal("https://empty.example/a.png")).toBe(
      "has a host that could not be found (no DNS records)",
    );
    expect(await screen.refusal("https://broken.example/a.png")).toBe(
      "has a host that could not be found (DNS lookup failed: resolver crashed)",
    );
  }
});

test("local ingest lets private addresses through, as it does for pages", async () => {
  const screen = createPublicUrlScreen({ allowPrivate: true });
  expect(await screen.refusal("http://127.0.0.1:4999/a.png")).toBeNull();
  expect(await screen.refusal("http://0.0.0.0/a.png")).toBe("is an unspecified address");
});

test("each distinct host is resolved once per screen, however many URLs name it", async () => {
  const { resolve, lookups } = tableResolver({
    "cdn.shop.example": "93.184.216.34",
    "img.shop.example": "93.184.216.35",
  });
  const policy: UrlPolicy = { allowPrivate: false, resolve };
  const screen = createPublicUrlScreen(policy);
  const urls = Array.from(
    { length: 100_000 },
    (_, i) => `https://${i % 2 ? "cdn" : "img"}.shop.example/p/${i}.jpg`,
  );
  const verdicts = await Promise.all(urls.map((url) => screen.refusal(url)));
  expect(verdicts.every((v) => v === null)).toBe(true);
  expect(lookups.sort()).toEqual(["cdn.shop.example", "img.shop.example"]);
});
