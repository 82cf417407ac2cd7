// Reads a large product workbook with parseDocumentFile (the gateway's parser thread does the
// same): rows/s and the peak RSS of a process that does nothing else.
//
//   pnpm exec tsx bench/xlsx-parse-bench.ts [--rows 100000] [--runs 3]
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseDocumentFile } from "../packages/extract/src/documents/index.js";
import { median } from "./bench-report.js";
import { productWorkbook } from "./fixtures/make-product-xlsx.js";

interface RunResult {
  rows: number;
  failed: number;
  ms: number;
  peakRssMb: number;
}

async function parseOnce(file: string): Promise<RunResult> {
  const started = performance.now();
  let rows = 0;
  let failed = 0;
  for await (const row of parseDocumentFile(file, {
    filename: "products.xlsx",
    maxBytes: 1024 * 1024 * 1024,
  })) {
    rows++;
    if (!row.ok) failed++;
  }
  return {
    rows,
    failed,
    ms: performance.now() - started,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: "100000" },
      runs: { type: "string", default: "3" },
      parse: { type: "string" },
    },
  });
  if (values.parse !== undefined) {
    console.log(JSON.stringify(await parseOnce(values.parse)));
    return;
  }
  const rows = Number(values.rows);
  const file = join(tmpdir(), `products-${rows}-${process.pid}.xlsx`);
  try {
    const workbook = productWorkbook(rows);
    writeFileSync(file, workbook);
    console.log(
      `${rows.toLocaleString("en-US")} rows, ${(workbook.length / 1024 / 1024).toFixed(1)} MB XLSX`,
    );
    const results: RunResult[] = [];
    for (let i = 0; i < Number(values.runs); i++) {
      // Each run in a process of its own, so the peak RSS is the parse's alone.
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, process.argv[1]!, "--parse", file],
        { encoding: "utf8" },
      );
      const result = JSON.parse(out.trim().split("\n").pop()!) as RunResult;
      results.push(result);
      console.log(
        `run ${i + 1}: ${result.rows} rows (${result.failed} refused) in ${(result.ms / 1000).toFixed(2)} s, ` +
          `${Math.round(result.rows / (result.ms / 1000))} rows/s, peak RSS ${result.peakRssMb.toFixed(0)} MB`,
      );
    }
    const ms = median(results.map((r) => r.ms));
    console.log(
      `median: ${(ms / 1000).toFixed(2)} s, ${Math.round(rows / (ms / 1000))} rows/s, peak RSS ${median(results.map((r) => r.peakRssMb)).toFixed(0)} MB`,
    );
  } finally {
    rmSync(file, { force: true });
  }
}

await main();
