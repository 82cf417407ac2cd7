import { describe, expect, it } from "vitest";
import {
  MAX_URLS,
  MISSING_SCHEME,
  checkUrlLines,
  countText,
  previewLabel,
  submitProblem,
  urlProblem,
  withScheme,
  withoutLines,
  withoutUrlIndex,
} from "./url-lines";

describe("checkUrlLines", () => {
  it("keeps each page address once, in order, and skips blank lines", () => {
    const check = checkUrlLines(
      "https://shop.example/a\n\n  https://shop.example/b  \r\nhttps://shop.example/a\n",
    );
    expect(check.urls).toEqual(["https://shop.example/a", "https://shop.example/b"]);
    expect(check.duplicates).toBe(1);
    expect(check.bad).toEqual([]);
  });

  it("lists what is wrong with each bad line, by its line number", () => {
    const check = checkUrlLines(
      "https://shop.example/a\nshop.example/b\nhello there\nftp://files.example/x",
    );
    expect(check.urls).toEqual(["https://shop.example/a"]);
    expect(check.bad).toEqual([
      { line: 2, text: "shop.example/b", problem: MISSING_SCHEME },
      { line: 3, text: "hello there", problem: "contains spaces: put one address on each line" },
      {
        line: 4,
        text: "ftp://files.example/x",
        problem: "only http:// and https:// pages can be read",
      },
    ]);
  });
});

describe("urlProblem", () => {
  it("accepts http and https pages", () => {
    expect(urlProblem("https://shop.example/p/1?x=2")).toBeNull();
    expect(urlProblem("http://127.0.0.1:8080/p")).toBeNull();
  });

  it("says what is wrong in words the user can act on", () => {
    expect(urlProblem("blue mug")).toBe("contains spaces: put one address on each line");
    expect(urlProblem("mug")).toBe("not a web address");
    expect(urlProblem("www.shop.example/mug")).toBe(MISSING_SCHEME);
    expect(urlProblem("https://")).toBe("not a web address");
    expect(urlProblem("mailto:shop@example.com")).toBe(
      "only http:// and https:// pages can be read",
    );
    expect(urlProblem(`https://shop.example/${"a".repeat(2048)}`)).toBe(
      "longer than 2,048 characters",
    );
  });
});

describe("the fixes offered for bad lines", () => {
  it("adds https:// only where a line looks like an address without it", () => {
    expect(withScheme("shop.example/a\nhttps://shop.example/b\nnot an address\n")).toBe(
      "https://shop.example/a\nhttps://shop.example/b\nnot an address\n",
    );
  });

  it("removes exactly the listed lines", () => {
    expect(withoutLines("a\nb\r\nc\nd", [2, 4])).toBe("a\nc");
  });
});

describe("submitProblem", () => {
  it("asks for an address when there is none", () => {
    expect(submitProblem(checkUrlLines("  \n"))).toBe(
      "Paste at least one product page address (one per line)",
    );
  });

  it("asks to fix the bad lines first", () => {
    expect(submitProblem(checkUrlLines("https://a.example/\nbad"))).toBe(
      "Fix or remove the line listed below first",
    );
    expect(submitProblem(checkUrlLines("bad\nworse"))).toBe(
      "Fix or remove the 2 lines listed below first",
    );
  });

  it("refuses more addresses than one import takes", () => {
    const text = Array.from({ length: MAX_URLS + 1 }, (_, i) => `https://shop.example/p/${i}`).join(
      "\n",
    );
    expect(submitProblem(checkUrlLines(text))).toBe(
      "One import takes at most 500 addresses; this has 501. Split it into several imports.",
    );
  });

  it("lets a clean list through", () => {
    expect(submitProblem(checkUrlLines("https://shop.example/p/1"))).toBeNull();
  });
});

describe("the counter and the button", () => {
  it("counts addresses, repeated lines and lines to fix", () => {
    expect(countText(checkUrlLines(""))).toBe("No addresses yet");
    expect(countText(checkUrlLines("https://a.example/"))).toBe("1 address");
    expect(
      countText(checkUrlLines("https://a.example/\nhttps://a.example/\nhttps://b.example/\nbad")),
    ).toBe("2 addresses (1 repeated line left out) · 1 line to fix");
  });

  it("says when the list is over the limit", () => {
    const text = Array.from({ length: MAX_URLS + 2 }, (_, i) => `https://shop.example/p/${i}`).join(
      "\n",
    );
    expect(countText(checkUrlLines(text))).toBe("502 addresses · over the limit of 500");
  });

  it("names the number of pages to preview", () => {
    expect(previewLabel(0)).toBe("Preview pages");
    expect(previewLabel(1)).toBe("Preview 1 page");
    expect(previewLabel(1200)).toBe("Preview 1,200 pages");
  });
});

it("drops the gateway's urls[n] prefix from a refusal", () => {
  expect(withoutUrlIndex("urls[3]: http://127.0.0.1/ is a loopback address")).toBe(
    "http://127.0.0.1/ is a loopback address",
  );
  expect(withoutUrlIndex("Too many imports at once")).toBe("Too many imports at once");
});
