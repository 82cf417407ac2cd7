// The heap growth limit holds while any document is read, and only then: two imports that
// overlap keep it until the last one ends, and a gateway without HEAP_GROWING_PERCENT never
// touches V8's flags.
import { holdHeapGrowthLimit, setHeapGrowthLimit } from "../src/heap-growth.js";

function recorder() {
  const flags: string[] = [];
  return { flags, set: (flag: string) => void flags.push(flag) };
}

afterEach(() => setHeapGrowthLimit(0));

test("the limit holds from the first reader to the last, whatever order they end in", () => {
  setHeapGrowthLimit(50);
  const v8 = recorder();
  const first = holdHeapGrowthLimit(v8.set);
  const second = holdHeapGrowthLimit(v8.set);
  expect(v8.flags).toEqual(["--heap-growing-percent=50"]);
  first();
  first(); // released twice (a failure after the end, say): counted once
  expect(v8.flags).toEqual(["--heap-growing-percent=50"]);
  second();
  expect(v8.flags).toEqual(["--heap-growing-percent=50", "--heap-growing-percent=0"]);

  // The next import sets it again.
  const third = holdHeapGrowthLimit(v8.set);
  third();
  expect(v8.flags.slice(2)).toEqual(["--heap-growing-percent=50", "--heap-growing-percent=0"]);
});

test("with HEAP_GROWING_PERCENT=0, reading a document leaves V8's own policy alone", () => {
  const v8 = recorder();
  holdHeapGrowthLimit(v8.set)();
  expect(v8.flags).toEqual([]);
});
