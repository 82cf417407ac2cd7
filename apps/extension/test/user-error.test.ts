import {
  errorFromNetwork,
  errorFromResponse,
  retryAtFrom,
  retryable,
  waitText,
} from "../src/shared/user-error";

const now = Date.parse("2026-11-24T12:00:00Z");

test("a revoked or unknown key asks to pair again, whatever the service said", () => {
  const error = errorFromResponse(
    401,
    { error: "missing or invalid x-service-api-key" },
    null,
    now,
  );
  expect(error.kind).toBe("unauthorized");
  expect(error.message).toMatch(
    /Create a key in the dashboard's Extension keys screen and pair again/,
  );
});

test("the service's 429 says when to try again, from Retry-After", () => {
  const error = errorFromResponse(
    429,
    { error: "rate limit exceeded (the service's limit): retry in 30 s" },
    "30",
    now,
  );
  expect(error).toEqual({
    kind: "rateLimited",
    retryAt: now + 30_000,
    message: "The service is receiving too many requests from you. Try again in 30 s.",
  });
  // A channel's wait passed through keeps the service's words.
  const channel = errorFromResponse(
    429,
    { error: "shopify asked to wait before more publishing" },
    "120",
    now,
  );
  expect(channel.message).toBe("Shopify asked to wait before more publishing. Try again in 2 min.");
});

test("Retry-After as seconds, as a date, or missing", () => {
  expect(retryAtFrom("5", now)).toBe(now + 5000);
  expect(retryAtFrom("0.2", now)).toBe(now + 1000);
  expect(retryAtFrom(new Date(now + 90_000).toUTCString(), now)).toBe(now + 90_000);
  expect(retryAtFrom("soon", now)).toBe(now + 60_000);
  expect(retryAtFrom(null, now)).toBe(now + 60_000);
});

test("waiting times read in the largest unit that fits, rounded up", () => {
  expect(waitText(now + 400, now)).toBe("in 1 s");
  expect(waitText(now + 59_000, now)).toBe("in 59 s");
  expect(waitText(now + 61_000, now)).toBe("in 2 min");
  expect(waitText(now + 3 * 3600_000, now)).toBe("in 3 h");
  expect(waitText(now - 5000, now)).toBe("in 1 s");
});

test("refusals keep the service's own message; server errors and unknown answers say what to do", () => {
  expect(
    errorFromResponse(422, { error: 'body field "url" must be an http(s) URL' }, null, now),
  ).toEqual({ kind: "rejected", message: 'Body field "url" must be an http(s) URL' });
  expect(errorFromResponse(413, undefined, null, now)).toEqual({
    kind: "rejected",
    message: "This page is too large to send to the service.",
  });
  expect(errorFromResponse(404, "<html>Not found</html>", null, now)).toEqual({
    kind: "rejected",
    message: "The service refused the request (HTTP 404).",
  });
  expect(errorFromResponse(503, { error: "the service is shutting down" }, null, now).message).toBe(
    "The service could not do this right now (HTTP 503): the service is shutting down. Try again in a moment.",
  );
});

test("no answer at all: offline, or the service is not there", () => {
  expect(errorFromNetwork("http://127.0.0.1:3000", true)).toEqual({
    kind: "unreachable",
    message:
      "The service at http://127.0.0.1:3000 did not answer. Check that it is running and that the address is right.",
  });
  expect(errorFromNetwork("http://127.0.0.1:3000", false).message).toBe(
    "You are offline. Connect to the internet and try again.",
  );
});

test("a refusal names the page, not the request field it was in; only what may pass next time is offered again", () => {
  const refused = errorFromResponse(
    422,
    {
      error:
        "urls[0]: http://127.0.0.1:8080/p/mug is a loopback address; only public web addresses can be imported",
    },
    null,
    now,
  );
  expect(refused.message).toBe(
    "The page http://127.0.0.1:8080/p/mug is a loopback address; only public web addresses can be imported",
  );
  expect(retryable(refused)).toBe(false);
  expect(retryable(errorFromResponse(401, undefined, null, now))).toBe(false);
  expect(retryable(errorFromResponse(429, undefined, "3", now))).toBe(true);
  expect(retryable(errorFromResponse(502, undefined, null, now))).toBe(true);
  expect(retryable(errorFromNetwork("http://127.0.0.1:3000", true))).toBe(true);
});
