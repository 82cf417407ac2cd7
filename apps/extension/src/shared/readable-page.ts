// Pages Chrome keeps every extension away from: its own pages, other extensions, the Web Store,
// local files (unless the user allowed them) and pages that are not web pages at all.
const STORE_HOSTS = new Set([
  "chromewebstore.google.com",
  "chrome.google.com",
  "addons.mozilla.org",
  "microsoftedge.microsoft.com",
]);

export function isReadablePage(url: string | undefined): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (STORE_HOSTS.has(parsed.hostname)) return false;
  return true;
}

/**
 * The page's address as the catalog keeps it: without the #fragment, which names a spot on the
 * page, not another page.
 */
export function pageAddress(url: string): string {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}
