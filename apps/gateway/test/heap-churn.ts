// A child process for heap-growth.test.ts: a live set of about 40 MB, and batches that survive a
// few young-generation collections before they are dropped (as an import's batches do), churned
// through with limitHeapGrowth(<argv[2]>) applied. Prints the old generation's largest size, MB.
import { getHeapSpaceStatistics } from "node:v8";
import { limitHeapGrowth } from "../src/heap-growth.js";

limitHeapGrowth(Number(process.argv[2]));

const OLD_SPACES = new Set(["old_space", "large_object_space"]);
const oldGeneration = () =>
  getHeapSpaceStatistics()
    .filter((space) => OLD_SPACES.has(space.space_name))
    .reduce((sum, space) => sum + space.space_size, 0);

const live = Array.from({ length: 400_000 }, (_, i) => ({ i, text: `live ${i}` }));
const held: { i: number; text: string }[][] = [];
let largest = 0;
for (let round = 0; round < 400; round++) {
  held.push(Array.from({ length: 20_000 }, (_, i) => ({ i, text: `batch ${round} row ${i}` })));
  if (held.length > 4) held.shift();
  await new Promise((resolve) => setImmediate(resolve));
  largest = Math.max(largest, oldGeneration());
}
console.log(JSON.stringify({ live: live.length, largestMb: largest / 1024 / 1024 }));
