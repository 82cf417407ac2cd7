// Reads a generated Google Merchant Center RSS feed with parseDocumentFile, as the gateway's
// parser thread does: items/s and the peak RSS of a process that does nothing else, for two
// sizes, to show that memory does not grow with the feed.
//
//   pnpm exec tsx bench/xml-feed-bench.ts [--mb 50]
import { execFileSync } from "node:child_process";
import { createWriteStream, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { parseDocumentFile } from "../packages/extract/src/documents/index.js";

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
    filename: "feed.xml",
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

/** A feed of about `mb` megabytes in the layout of Google's RSS 2.0 example. */
async function writeFeed(file: string, mb: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(
    `<?xml version="1.0"?>\n<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><title>Bench store</title>\n`,
  );
  let bytes = 0;
  for (let i = 0; bytes < mb * 1024 * 1024; i++) {
    const item =
      `<item><g:id>SKU-${i}</g:id><g:title>Bench product ${i} &amp; co</g:title>` +
      `<g:description><![CDATA[Description of product ${i}, ${"lorem ipsum ".repeat(20)}]]></g:description>` +
      `<g:link>https://shop.example.com/p/${i}</g:link><g:image_link>https://img.example.com/${i}.jpg</g:image_link>` +
      `<g:additional_image_link>https://img.example.com/${i}-2.jpg</g:additional_image_link>` +
      `<g:availability>in_stock</g:availability><g:quantity>${i % 50}</g:quantity>` +
      `<g:price>${(i % 500) + 0.99} USD</g:price><g:brand>Bench</g:brand></item>\n`;
    bytes += item.length;
    await write(item);
  }
  await write("</channel></rss>\n");
  out.end();
  await once(out, "finish");
}

async function main() {
  const { values } = parseArgs({
    options: { mb: { type: "string", default: "50" }, parse: { type: "string" } },
  });
  if (values.parse !== undefined) {
    console.log(JSON.stringify(await parseOnce(values.parse)));
    return;
  }
  for (const mb of [Number(values.mb) / 10, Number(values.mb)]) {
    const file = join(tmpdir(), `feed-${mb}-${process.pid}.xml`);
    try {
      await writeFeed(file, mb);
      // In a process of its own, so the peak RSS is the parse's alone.
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, process.argv[1]!, "--parse", file],
        { encoding: "utf8" },
      );
      const r = JSON.parse(out.trim().split("\n").pop()!) as RunResult;
      console.log(
        `${(statSync(file).size / 1024 / 1024).toFixed(1)} MB feed: ${r.rows} items (${r.failed} refused) in ` +
          `${(r.ms / 1000).toFixed(2)} s, ${Math.round(r.rows / (r.ms / 1000))} items/s, peak RSS ${r.peakRssMb.toFixed(0)} MB`,
      );
    } finally {
      rmSync(file, { force: true });
    }
  }
}

await main();
