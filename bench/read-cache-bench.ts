// Read-cache bench (issue 32, item 3): what one hit on the gateway's in-process read cache
// (apps/gateway/src/read-cache.ts, the sessions and catalog pages served from memory) costs as the
// cache fills, for a hot key (9 reads in 10, as a popular page or a busy session is read) and
// for reads spread over every entry. A hot key's hit must cost about the same whatever the cache
// holds (the target); spread reads grow somewhat with the entries as they leave the CPU's caches.
//
//   pnpm exec tsx bench/read-cache-bench.ts [--reads 300000] [--rounds 3]
import { parseArgs } from "node:util";
import { ReadCache } from "../apps/gateway/src/read-cache.js";

const HELD = [10, 5_000, 20_000];
/** A hit at the largest size may cost at most this many times a hit at the smallest. */
const TARGET_RATIO = 2;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { reads: { type: "string" }, rounds: { type: "string" } },
});
const reads = Number(values.reads ?? 300_000);
const rounds = Number(values.rounds ?? 3);

type Pattern = "hot key" | "spread";

/** Nanoseconds per hit, the median of `rounds` timed runs of `reads` hits each. */
async function nsPerHit(held: number, pattern: Pattern): Promise<number> {
  const cache = new ReadCache<string>({ maxEntries: held, maxAgeMs: 3_600_000 });
  cache.enabled = true;
  const keys = Array.from({ length: held }, (_, i) => `session-token-${i}`);
  for (const key of keys) await cache.getOrLoad("sessions", key, "v1", async () => key);
  const load = async () => {
    throw new Error("a bench read missed the cache");
  };
  const keyOf =
    pattern === "hot key"
      ? (i: number) => keys[i % 10 === 0 ? (i * 7_919) % held : 0]!
      : (i: number) => keys[(i * 7_919) % held]!;
  const runs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < reads; i++) await cache.getOrLoad("sessions", keyOf(i), "v1", load);
    runs.push(Number(process.hrtime.bigint() - start) / reads);
  }
  return runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
}

console.log(
  `read-cache bench: ${reads.toLocaleString("en-US")} hits x ${rounds} rounds per size; node ${process.version}`,
);
console.log("\nentries held   hot key ns/hit   spread ns/hit   hot key vs 10 entries");
const results: Record<Pattern, number[]> = { "hot key": [], spread: [] };
for (const held of HELD) {
  const hot = await nsPerHit(held, "hot key");
  const spread = await nsPerHit(held, "spread");
  results["hot key"].push(hot);
  results.spread.push(spread);
  const ratio = hot / results["hot key"][0]!;
  console.log(
    `${held.toLocaleString("en-US").padStart(12)}   ${hot.toFixed(0).padStart(14)}   ${spread.toFixed(0).padStart(13)}   ${ratio.toFixed(2).padStart(21)}x`,
  );
}
const hot = results["hot key"];
const ratio = hot[hot.length - 1]! / hot[0]!;
console.log(
  `[${ratio <= TARGET_RATIO ? "PASS" : "FAIL"}] hot key: a hit at ${HELD[HELD.length - 1]!.toLocaleString("en-US")} entries costs <= ${TARGET_RATIO}x one at ${HELD[0]}: ${ratio.toFixed(2)}x`,
);
