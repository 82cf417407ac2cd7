import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  ChannelWaitError,
  classifyChannelResponse,
  classifyNetworkError,
  GiveUpChannelError,
  isChannelError,
  parseRetryAfter,
  RetryableChannelError,
} from "../src/index.js";

const throttled = JSON.stringify({ error: { code: "throttled", message: "slow down" } });

describe("classifyChannelResponse", () => {
  test("2xx is no error", () => {
    expect(classifyChannelResponse("standin", 200, null, "{}")).toBeNull();
    expect(classifyChannelResponse("standin", 201, null, "")).toBeNull();
  });

  test("429 with delta-seconds waits that long and names the channel", () => {
    const error = classifyChannelResponse(
      "etsy",
      429,
      new Headers({ "Retry-After": "120" }),
      throttled,
    );
    expect(error).toBeInstanceOf(ChannelWaitError);
    expect(error).toMatchObject({
      channel: "etsy",
      status: 429,
      retryAfterMs: 120_000,
      outcome: "wait",
      message: "etsy answered 429: slow down",
    });
  });

  test("429 with an HTTP-date waits until then", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:01:30 GMT", now)).toBe(90_000);
    const at = new Date(Date.now() + 90_000).toUTCString();
    const error = classifyChannelResponse(
      "standin",
      429,
      { "retry-after": at },
      throttled,
    ) as ChannelWaitError;
    expect(error.retryAfterMs).toBeGreaterThan(88_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(90_000);
  });

  test("Retry-After missing or unreadable defaults to 30 s; extremes are clamped to [1 s, 1 h]", () => {
    expect((classifyChannelResponse("standin", 429, {}, "") as ChannelWaitError).retryAfterMs).toBe(
      30_000,
    );
    expect(parseRetryAfter("soon")).toBe(30_000);
    expect(parseRetryAfter("0")).toBe(1_000);
    expect(parseRetryAfter("0.2")).toBe(1_000);
    expect(parseRetryAfter("86400")).toBe(3_600_000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:00 GMT")).toBe(1_000);
    expect(new ChannelWaitError("x", { channel: "standin", retryAfterMs: 5 }).retryAfterMs).toBe(
      1_000,
    );
  });

  test("a throttled code or a 503 that says when to return is a wait too", () => {
    expect(classifyChannelResponse("standin", 400, null, throttled)).toBeInstanceOf(
      ChannelWaitError,
    );
    expect(classifyChannelResponse("standin", 503, { "Retry-After": "5" }, "")).toMatchObject({
      retryAfterMs: 5_000,
      outcome: "wait",
    });
  });

  test("5xx, 408 and 425 are retryable and keep the channel's message", () => {
    const error = classifyChannelResponse(
      "standin",
      503,
      null,
      JSON.stringify({ error: { message: "maintenance" } }),
    );
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect(error).toMatchObject({
      status: 503,
      outcome: "retry",
      message: "standin answered 503: maintenance",
    });
    expect(classifyChannelResponse("standin", 408, null, "")).toBeInstanceOf(RetryableChannelError);
    expect(classifyChannelResponse("standin", 425, null, "")).toBeInstanceOf(RetryableChannelError);
    const html = classifyChannelResponse("standin", 502, null, `<html>${"x".repeat(1000)}</html>`)!;
    expect(html.message.length).toBeLessThan(350);
  });

  test("401 and 403 give up as auth", () => {
    const error = classifyChannelResponse(
      "standin",
      401,
      null,
      JSON.stringify({ error: { code: "unauthorized", message: "bad token" } }),
    );
    expect(error).toBeInstanceOf(GiveUpChannelError);
    expect(error).toMatchObject({
      kind: "auth",
      status: 401,
      channelMessage: "bad token",
      outcome: "give-up",
    });
    expect(classifyChannelResponse("standin", 403, null, "")).toMatchObject({
      kind: "auth",
      message: "standin answered 403",
    });
  });

  test("422 and other 4xx give up as validation, keeping the channel's words and field", () => {
    const body = JSON.stringify({
      error: { code: "invalid", message: "title is required", field: "title" },
    });
    expect(classifyChannelResponse("standin", 422, null, body)).toMatchObject({
      kind: "validation",
      channelMessage: "title is required",
      field: "title",
      message: "standin answered 422: title is required",
    });
    // The other channels' error shapes (see shared/contracts).
    expect(
      classifyChannelResponse("etsy", 400, null, JSON.stringify({ error: "Invalid taxonomy_id" })),
    ).toMatchObject({ channelMessage: "Invalid taxonomy_id" });
    expect(
      classifyChannelResponse(
        "ebay",
        400,
        null,
        JSON.stringify({ errors: [{ errorId: 25002, message: "Bad SKU" }] }),
      ),
    ).toMatchObject({ channelMessage: "Bad SKU" });
    expect(
      classifyChannelResponse(
        "woocommerce",
        400,
        null,
        JSON.stringify({ code: "product_invalid_sku", message: "Duplicate SKU" }),
      ),
    ).toMatchObject({ channelMessage: "Duplicate SKU", kind: "validation" });
    expect(classifyChannelResponse("standin", 404, null, "Not Found")).toMatchObject({
      kind: "validation",
      message: "standin answered 404: Not Found",
    });
  });
});

describe("classifyNetworkError", () => {
  let server: http.Server;
  let origin = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/reset") return void req.socket.destroy();
      const timer = setTimeout(() => res.end("late"), 2_000);
      res.on("close", () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  test("a connection reset is retryable", async () => {
    const error = classifyNetworkError("standin", await failureOf(fetch(`${origin}/reset`)));
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect(error.message).toMatch(/^standin could not be reached: /);
    expect(error.status).toBeUndefined();
  }, 5_000);

  test("a refused connection is retryable and says so", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = classifyNetworkError(
      "shopify",
      await failureOf(fetch(`http://127.0.0.1:${port}/`)),
    );
    expect(error.message).toBe(
      "shopify could not be reached: the connection was refused (ECONNREFUSED)",
    );
  }, 5_000);

  test("a timeout is retryable and says it timed out", async () => {
    const error = classifyNetworkError(
      "standin",
      await failureOf(fetch(`${origin}/slow`, { signal: AbortSignal.timeout(100) })),
      { timeoutMs: 100 },
    );
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect(error.message).toBe("standin timed out after 100 ms");
  }, 5_000);

  test("an AbortError is a timeout only when our timer fired", async () => {
    const controller = new AbortController();
    const pending = failureOf(fetch(`${origin}/slow`, { signal: controller.signal }));
    controller.abort();
    const aborted = await pending;
    expect(classifyNetworkError("standin", aborted).message).toBe("standin request was aborted");
    expect(classifyNetworkError("standin", aborted, { timedOut: true }).message).toBe(
      "standin timed out",
    );
  }, 5_000);

  test("isChannelError recognises the three classes only", () => {
    expect(isChannelError(classifyNetworkError("standin", new Error("x")))).toBe(true);
    expect(isChannelError(new GiveUpChannelError("x", { channel: "standin", kind: "auth" }))).toBe(
      true,
    );
    expect(isChannelError(new Error("x"))).toBe(false);
    expect(isChannelError(null)).toBe(false);
  });
});
