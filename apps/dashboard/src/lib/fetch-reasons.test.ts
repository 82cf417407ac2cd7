import { describe, expect, it } from "vitest";
import { plainFetchReason, refusedUrls } from "./fetch-reasons";

const title = (message: string) => plainFetchReason(message)?.title;

describe("plainFetchReason", () => {
  it("says the fetch layer's failures in plain words", () => {
    expect(
      title("shop.invalid could not be found (DNS lookup failed: ENOTFOUND); check the address"),
    ).toBe("Address not found");
    expect(title("https://x.example/p refused the connection; the site may be down")).toBe(
      "The site refused the connection",
    );
    expect(title("no answer within 30 s")).toBe("The site took too long to answer");
    expect(title("https://x.example/p was not found (404 Not Found); check the address")).toBe(
      "Page not found",
    );
    expect(title("no product found on https://x.example/private/404")).toBe(
      "No product on this page",
    );
    expect(
      title("http://10.0.0.5/p is a private address; only public web addresses can be imported"),
    ).toBe("Not a public address");
    expect(
      title("https://x.example/ contains a user name or password; remove them from the address"),
    ).toBe("Address with a password");
  });

  it("knows nothing of other messages", () => {
    expect(plainFetchReason("the price is not a number")).toBeNull();
  });
});

describe("refusedUrls", () => {
  it("reads every refusal of the 422, by index", () => {
    expect(
      refusedUrls(
        "urls[1]: http://0.0.0.0/p is an unspecified address; only public web addresses can be imported; urls[3]: ftp://x/p is not an http(s) address",
      ),
    ).toEqual([
      {
        index: 1,
        reason:
          "http://0.0.0.0/p is an unspecified address; only public web addresses can be imported",
      },
      { index: 3, reason: "ftp://x/p is not an http(s) address" },
    ]);
    // As errorMessage() shows it: the first letter made a capital.
    expect(refusedUrls("Urls[0]: ftp://x/p is not an http(s) address")).toEqual([
      { index: 0, reason: "ftp://x/p is not an http(s) address" },
    ]);
    expect(refusedUrls("the import queue is unavailable")).toEqual([]);
  });
});
