/**
 * Absolute http(s) URL for an href found in a page, or null for data:, javascript: and junk.
 * With no base to resolve against (base ""), a relative href stays relative rather than
 * being pinned to a made-up host.
 */
export function resolveUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  const trimmed = href.trim().replace(/\s+/g, "%20");
  if (trimmed === "" || /^(data|javascript|about|blob|mailto|tel):/i.test(trimmed)) return null;
  if (base === "") {
    if (trimmed.startsWith("//")) return `https:${trimmed}`;
    return /^https?:\/\//i.test(trimmed) ? safeUrl(trimmed) : trimmed;
  }
  try {
    const url = new URL(trimmed, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The page URL a relative link is read against: `<base href>` when there is one. */
export function documentBase(pageUrl: string, baseHref: string | undefined): string {
  const page = safeUrl(pageUrl);
  if (!baseHref) return page ?? "";
  if (!page) return safeUrl(baseHref.trim()) ?? "";
  return resolveUrl(baseHref, page) ?? page;
}

function safeUrl(url: string): string | null {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

/** The widest candidate of a srcset ("a.jpg 300w, b.jpg 1200w" gives b.jpg). */
export function largestFromSrcset(srcset: string | undefined): string | null {
  if (!srcset) return null;
  let best: { url: string; size: number } | null = null;
  for (const part of srcset.split(/,\s+/)) {
    const [url, descriptor = "1x"] = part.trim().split(/\s+/);
    if (!url) continue;
    const size = parseFloat(descriptor) * (descriptor.endsWith("x") ? 1000 : 1);
    if (!best || size > best.size) best = { url, size };
  }
  return best?.url ?? null;
}
