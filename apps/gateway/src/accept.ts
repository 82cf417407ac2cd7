// Content negotiation on the Accept header, for the few answers that differ for a browser
// (an HTML page, a redirect) from what API clients get (JSON).

interface Range {
  type: string;
  q: number;
}

function ranges(accept: string | undefined): Range[] {
  if (!accept) return [];
  return accept.split(",").map((part) => {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = q ? Number(q.slice(2)) : 1;
    return { type: type.trim(), q: Number.isFinite(value) ? value : 0 };
  });
}

/** The quality the header gives `mediaType` (the most specific range that matches it wins). */
function quality(list: Range[], mediaType: string): number {
  const [main] = mediaType.split("/");
  const exact = list.find((r) => r.type === mediaType);
  if (exact) return exact.q;
  const wide = list.find((r) => r.type === `${main}/*`);
  if (wide) return wide.q;
  return list.find((r) => r.type === "*/*")?.q ?? 0;
}

/** A browser's navigation: text/html ranks above JSON. No header, or a tie, stays with JSON. */
export function prefersHtml(accept: string | undefined): boolean {
  const list = ranges(accept);
  return quality(list, "text/html") > quality(list, "application/json");
}

/** The client takes HTML at all (named explicitly, not only through a wildcard). */
export function acceptsHtml(accept: string | undefined): boolean {
  return ranges(accept).some((r) => r.type === "text/html" && r.q > 0);
}
