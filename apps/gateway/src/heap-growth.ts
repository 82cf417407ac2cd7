import { setFlagsFromString } from "node:v8";

/**
 * Lets the heap grow by at most `percent` past what the last full collection kept before V8
 * collects again (0 leaves V8's own choice, which grows it up to four times when the process
 * allocates fast). V8 reads the setting at each full collection, so it applies from the call on,
 * to worker threads as well (the document parser's).
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
