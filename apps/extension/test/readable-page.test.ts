import { isReadablePage, pageAddress } from "../src/shared/readable-page";

test("shops' pages can be read; the browser's own pages and the stores cannot", () => {
  expect(isReadablePage("https://shop.example/products/mug")).toBe(true);
  expect(isReadablePage("http://127.0.0.1:8080/p/1")).toBe(true);
  for (const url of [
    "chrome://extensions",
    "chrome-extension://abc/popup.html",
    "about:blank",
    "file:///home/ana/page.html",
    "https://chromewebstore.google.com/detail/x",
    "https://addons.mozilla.org/en-US/firefox/",
    "view-source:https://shop.example/",
    "not a url",
    undefined,
  ]) {
    expect([url, isReadablePage(url)]).toEqual([url, false]);
  }
});

test("a page's address loses its #fragment and nothing else", () => {
  expect(pageAddress("https://shop.example/p/1?variant=2#reviews")).toBe(
    "https://shop.example/p/1?variant=2",
  );
  expect(pageAddress("https://shop.example/p/1")).toBe("https://shop.example/p/1");
});
