import { setFlagsFromString } from "node:v8";

let percent = 0;
let readers = 0;

/** The gateway's HEAP_GROWING_PERCENT, set once at start (0: never limit). */
export function setHeapGrowthLimit(value: number): void {
  percent = value;
}

/**
 * Lets the heap grow by at most the configured percent past what the last full collection kept
 * before V8 collects again, until the returned function is called; with several holders, until the
 * last one releases. Reading a document (or storing an import) makes garbage fast, and V8 left
 * alone grows the heap up to four times what is live; the limit costs every request more full
 * collections, so it holds only while documents are read or imports stored. V8 reads the flag at
 * each full collection, so it applies from the call on, to worker threads as well (the document
 * parser's); 0 gives V8 its own choice back.
 */
export function holdHeapGrowthLimit(setFlags = setFlagsFromString): () => void {
  if (percent <= 0) return () => {};
  if (readers++ === 0) setFlags(`--heap-growing-percent=${percent}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--readers === 0) setFlags("--heap-growing-percent=0");
  };
}
