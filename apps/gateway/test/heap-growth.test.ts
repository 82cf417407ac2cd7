// The gateway's heap policy (HEAP_GROWING_PERCENT): garbage that outlives the young generation,
// as a document import's batches do, is collected before the heap grows far past what is live.
// Left to V8, the same churn grows the old generation to more than twice the bounded size.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadGatewayConfig } from "@catalog/config/gateway";

const run = promisify(execFile);

async function largestOldGenerationMb(percent: number): Promise<number> {
  const { stdout } = await run(process.execPath, [
    "--import",
    "tsx",
    "apps/gateway/test/heap-churn.ts",
    String(percent),
  ]);
  return (JSON.parse(stdout) as { largestMb: number }).largestMb;
}

test("with the default limit the old generation stays well under what V8 alone lets it reach", async () => {
  const { HEAP_GROWING_PERCENT } = loadGatewayConfig({});
  const [bounded, unbounded] = await Promise.all([
    largestOldGenerationMb(HEAP_GROWING_PERCENT),
    largestOldGenerationMb(0),
  ]);
  expect(bounded).toBeLessThan(unbounded * 0.65);
}, 60_000);
