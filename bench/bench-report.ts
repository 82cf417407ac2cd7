import type { Sample, Target } from "./load-run.js";

export const LIST_MIN_RATIO = 0.4;
/** List page 1 and the session check against the bare server sending the same page body. */
export const BODY_MIN_RATIO = 0.6;
export const SEARCH_MAX_P99_MS = 50;
/** Cache-miss searches: p99 under 20 ms up to 100,000 products, under 50 ms at 1,000,000. */
export const missSearchMaxP99Ms = (products: number) => (products > 100_000 ? 50 : 20);
export const DEEP_PAGE_MAX_P99_MS = 50;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface Row {
  target: Target;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * Median over rounds of (this req/s / bare req/s in the same round): drift between rounds cancels
   * out.
   */
  ratio: number;
  /** The same against the bare server sending the cached page's body (NaN without one). */
  bodyRatio: number;
  kbPerResponse: number;
  /** The server's CPU per request, µs (NaN when not measured). */
  cpuUsPerRequest: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
}

/** `samples[round][target]`, targets in the same order as `targets`. */
export function summarise(targets: Target[], samples: Sample[][]): Row[] {
  const baseIndex = targets.findIndex((t) => t.baseline);
  const bodyIndex = targets.findIndex((t) => t.bodyCeiling);
  return targets.map((target, i) => {
    const own = samples.map((round) => round[i] as Sample);
    const statusCodes: Record<string, number> = {};
    for (const s of own)
      for (const [code, n] of Object.entries(s.statusCodes))
        statusCodes[code] = (statusCodes[code] ?? 0) + n;
    return {
      target,
      reqPerSec: median(own.map((s) => s.reqPerSec)),
      p50Ms: median(own.map((s) => s.p50Ms)),
      p99Ms: median(own.map((s) => s.p99Ms)),
      ratio: median(
        samples.map(
          (round) => (round[i] as Sample).reqPerSec / (round[baseIndex] as Sample).reqPerSec,
        ),
      ),
      bodyRatio:
        bodyIndex === -1
          ? Number.NaN
          : median(
              samples.map(
                (round) => (round[i] as Sample).reqPerSec / (round[bodyIndex] as Sample).reqPerSec,
              ),
            ),
      kbPerResponse: median(own.map((s) => s.bytesPerResponse)) / 1024,
      cpuUsPerRequest: median(own.map((s) => s.cpuUsPerRequest ?? Number.NaN)),
      non2xx: own.reduce((sum, s) => sum + s.non2xx, 0),
      statusCodes,
      errors: own.reduce((sum, s) => sum + s.errors + s.timeouts, 0),
    };
  });
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => (l[c] ?? "").length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join("  ");
  return [format(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(format)].join(
    "\n",
  );
}

export function formatRound(round: number, targets: Target[], samples: Sample[]): string {
  const cells = targets.map((t, i) => {
    const s = samples[i] as Sample;
    const bad =
      s.non2xx + s.errors + s.timeouts > 0
        ? ` !${s.non2xx} non-2xx/${s.errors + s.timeouts} err`
        : "";
    return `${t.name} ${Math.round(s.reqPerSec)}/s p99 ${s.p99Ms}ms${bad}`;
  });
  return `round ${round}: ${cells.join(" | ")}`;
}

export function formatTable(rows: Row[]): string {
  return table(
    [
      "route",
      "req/s",
      "p50 ms",
      "p99 ms",
      "vs bare",
      "vs body",
      "CPU µs/req",
      "KB/resp",
      "non-2xx",
      "errors",
    ],
    rows.map((r) => [
      r.target.name,
      Math.round(r.reqPerSec).toLocaleString("en-US"),
      r.p50Ms.toFixed(1),
      r.p99Ms.toFixed(1),
      `${(r.ratio * 100).toFixed(1)}%`,
      Number.isNaN(r.bodyRatio) ? "-" : `${(r.bodyRatio * 100).toFixed(1)}%`,
      Number.isNaN(r.cpuUsPerRequest) ? "-" : r.cpuUsPerRequest.toFixed(0),
      r.kbPerResponse.toFixed(1),
      String(r.non2xx),
      String(r.errors),
    ]),
  );
}

export interface Verdict {
  lines: string[];
  /**
   * False when any response was not a 2xx or failed: the figures would then measure something else.
   */
  valid: boolean;
}

export interface VerdictRoutes {
  /** Searches repeating a few terms (read-cache hits after the first request). */
  isSearch: (row: Row) => boolean;
  isList: (row: Row) => boolean;
  /** Routes held to BODY_MIN_RATIO of the page-body ceiling (list page 1, session check). */
  isBodyBound: (row: Row) => boolean;
  isMissSearch: (row: Row) => boolean;
  isDeepPage: (row: Row) => boolean;
  products: number;
}

export function verdicts(rows: Row[], routes: VerdictRoutes): Verdict {
  const lines: string[] = [];
  const broken = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  const valid = broken.length === 0;
  if (!valid) {
    lines.push("!".repeat(78));
    lines.push(
      "!! INVALID RUN: some responses were not 2xx or failed; the figures above do not measure the routes.",
    );
    for (const r of broken)
      lines.push(
        `!!   ${r.target.name}: status counts ${JSON.stringify(r.statusCodes)}, errors/timeouts ${r.errors}`,
      );
    lines.push("!".repeat(78));
  }
  const tag = (pass: boolean) => (!valid ? "INVALID" : pass ? "PASS" : "FAIL");

  const list = rows.find(routes.isList);
  if (list) {
    lines.push(
      `[${tag(list.ratio >= LIST_MIN_RATIO)}] list >= ${LIST_MIN_RATIO * 100}% of bare hello-world req/s: ${(list.ratio * 100).toFixed(1)}%`,
    );
  }
  for (const row of rows.filter(routes.isBodyBound)) {
    lines.push(
      `[${tag(row.bodyRatio >= BODY_MIN_RATIO)}] ${row.target.name} >= ${BODY_MIN_RATIO * 100}% of bare page-body req/s: ${(row.bodyRatio * 100).toFixed(1)}%`,
    );
  }
  const searches = rows.filter(routes.isSearch);
  const worst = searches.reduce<Row | undefined>(
    (w, r) => (w === undefined || r.p99Ms > w.p99Ms ? r : w),
    undefined,
  );
  if (worst) {
    const each = searches.map((r) => `${r.target.name} ${r.p99Ms.toFixed(1)}`).join(", ");
    lines.push(
      `[${tag(worst.p99Ms < SEARCH_MAX_P99_MS)}] search p99 < ${SEARCH_MAX_P99_MS} ms (worst of every repeated-term search run): ${worst.p99Ms.toFixed(1)} ms (${each})`,
    );
  }
  const missLimit = missSearchMaxP99Ms(routes.products);
  for (const row of rows.filter(routes.isMissSearch)) {
    lines.push(
      `[${tag(row.p99Ms < missLimit)}] ${row.target.name} p99 < ${missLimit} ms at ${routes.products.toLocaleString("en-US")} products: ${row.p99Ms.toFixed(1)} ms (p50 ${row.p50Ms.toFixed(1)} ms)`,
    );
  }
  for (const row of rows.filter(routes.isDeepPage)) {
    lines.push(
      `[${tag(row.p99Ms < DEEP_PAGE_MAX_P99_MS)}] ${row.target.name} p99 < ${DEEP_PAGE_MAX_P99_MS} ms: ${row.p99Ms.toFixed(1)} ms (p50 ${row.p50Ms.toFixed(1)} ms)`,
    );
  }
  return { lines, valid };
}
