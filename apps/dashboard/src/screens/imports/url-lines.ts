// The web pages form's checks, before anything is sent: each pasted line is a page address or
// says what is wrong with it, and the counts the form shows; after sending, the lines the service
// refused.
import { plainFetchReason } from "../../lib/fetch-reasons";
import { plural } from "../../ui/format";

/** POST /api/imports takes at most this many URLs (MAX_IMPORT_URLS in the gateway). */
export const MAX_URLS = 500;
export const MAX_URL_LENGTH = 2048;
export const MISSING_SCHEME = "starts without https://";

export interface LineCheck {
  line: number;
  text: string;
  problem: string;
}
export interface UrlLines {
  urls: string[];
  bad: LineCheck[];
  duplicates: number;
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LOOKS_LIKE_HOST = /^[\w-]+(\.[\w-]+)+/;

/** Non-empty lines, each checked for what is obviously wrong; duplicates are read once. */
export function checkUrlLines(text: string): UrlLines {
  const urls: string[] = [];
  const seen = new Set<string>();
  const bad: LineCheck[] = [];
  let duplicates = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const problem = urlProblem(line);
    if (problem) {
      bad.push({ line: i + 1, text: line, problem });
      return;
    }
    if (seen.has(line)) {
      duplicates++;
      return;
    }
    seen.add(line);
    urls.push(line);
  });
  return { urls, bad, duplicates };
}

/** What is wrong with one trimmed line as a page address, or null. */
export function urlProblem(line: string): string | null {
  if (line.length > MAX_URL_LENGTH)
    return `longer than ${MAX_URL_LENGTH.toLocaleString()} characters`;
  if (/\s/.test(line)) return "contains spaces: put one address on each line";
  if (!HAS_SCHEME.test(line))
    return LOOKS_LIKE_HOST.test(line) ? MISSING_SCHEME : "not a web address";
  let url: URL;
  try {
    url = new URL(line);
  } catch {
    return "not a web address";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return "only http:// and https:// pages can be read";
  if (!url.hostname) return "has no host name";
  return null;
}

/** The text without the lines (1-based numbers) listed as bad. */
export function withoutLines(text: string, lines: Iterable<number>): string {
  const drop = new Set(lines);
  return text
    .split(/\r?\n/)
    .filter((_, i) => !drop.has(i + 1))
    .join("\n");
}

/** "shop.example/p/1" becomes "https://shop.example/p/1"; other lines stay as they are. */
export function withScheme(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => {
      const t = l.trim();
      return t && !HAS_SCHEME.test(t) && LOOKS_LIKE_HOST.test(t) ? `https://${t}` : l;
    })
    .join("\n");
}

/** Why the form cannot be sent as it is, or null. */
export function submitProblem(check: UrlLines): string | null {
  if (check.urls.length === 0 && check.bad.length === 0)
    return "Paste at least one product page address (one per line)";
  if (check.bad.length > 0)
    return `Fix or remove the ${check.bad.length === 1 ? "line" : `${check.bad.length} lines`} listed below first`;
  if (check.urls.length > MAX_URLS)
    return `One import takes at most ${MAX_URLS} addresses; this has ${check.urls.length}. Split it into several imports.`;
  return null;
}

/** "3 addresses (1 repeated line left out) · 2 lines to fix", under the text area. */
export function countText(check: UrlLines): string {
  const { urls, bad, duplicates } = check;
  if (urls.length === 0 && bad.length === 0) return "No addresses yet";
  return (
    `${urls.length.toLocaleString()} ${plural(urls.length, "address", "addresses")}` +
    (duplicates ? ` (${duplicates} repeated ${plural(duplicates, "line")} left out)` : "") +
    (bad.length ? ` · ${bad.length} ${plural(bad.length, "line")} to fix` : "") +
    (urls.length > MAX_URLS ? ` · over the limit of ${MAX_URLS}` : "")
  );
}

/** The submit button's words. */
export function previewLabel(count: number): string {
  return count > 0 ? `Preview ${count.toLocaleString()} ${plural(count, "page")}` : "Preview pages";
}

/**
 * "urls[3]: http://… is a loopback address": the message names the address; the index means nothing
 * here.
 */
export function withoutUrlIndex(message: string): string {
  return message.replace(/^urls\[\d+\]:\s*/i, "");
}

export interface RefusedLine {
  line: number;
  url: string;
  /** In plain words. */
  reason: string;
  /** As the service said it. */
  detail: string;
}

/**
 * The refusals (by index in the addresses sent) at their lines of `text`: every line holding a
 * refused address (a repeated one is sent once).
 */
export function refusedLines(
  text: string,
  sent: string[],
  refusals: { index: number; reason: string }[],
): RefusedLine[] {
  const byUrl = new Map(
    refusals
      .filter((r) => sent[r.index] !== undefined)
      .map((r) => [sent[r.index]!, r.reason] as const),
  );
  const out: RefusedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const url = raw.trim();
    const detail = byUrl.get(url);
    if (detail === undefined) return;
    const plain = plainFetchReason(detail);
    out.push({
      line: i + 1,
      url,
      reason: plain ? `${plain.title}. ${plain.advice}` : detail,
      detail,
    });
  });
  return out;
}
