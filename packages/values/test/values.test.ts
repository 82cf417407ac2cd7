// The limits every entry point applies to what clients and sources send, before anything
// recursive or the database sees it.
import { MAX_JSON_DEPTH, describeJsonPath, pathTooDeep, unstorableText } from "../src/index.js";
import { stringContaining } from "@catalog/test-support/matchers";

const nested = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

test("a value nested within the limit passes; one level deeper is named by its path", () => {
  expect(pathTooDeep(nested(MAX_JSON_DEPTH))).toBeNull();
  const path = pathTooDeep(nested(MAX_JSON_DEPTH + 1));
  expect(path).toHaveLength(MAX_JSON_DEPTH);
  expect(describeJsonPath(path!)).toBe("a.a.a.a.a.a.…");
});

test("the path of a value nested too deep names array indexes and object keys on the way", () => {
  const value = { ok: [1, { fine: true }], deep: [{ x: [[{ y: nested(3) }]] }] };
  expect(pathTooDeep(value, 5)).toEqual(["deep", 0, "x", 0, 0]);
  expect(pathTooDeep(value, 8)).toEqual(["deep", 0, "x", 0, 0, "y", "a", "a"]);
  expect(pathTooDeep(value, 9)).toBeNull();
});

test("a value nested 100,000 levels deep is refused without overflowing the stack", () => {
  expect(pathTooDeep(nested(100_000))).not.toBeNull();
});

test("NUL and lone surrogates are found in values and keys, named by their path; paired surrogates are text", () => {
  expect(unstorableText({ title: "Mug 😀", tags: ["a", "b"] })).toBeNull();
  expect(unstorableText({ variants: [{ sku: "x\u0000y" }] })).toEqual({
    path: ["variants", 0, "sku"],
    problem: stringContaining("NUL"),
  });
  expect(unstorableText({ ["k\udc00"]: 1 })).toEqual({
    path: ["k\\udc00"],
    problem: stringContaining("lone surrogate (U+DC00)"),
  });
  expect(unstorableText({ a: [{ ok: "x" }, { b: { ["k\u0000"]: 1 } }] })).toEqual({
    path: ["a", 1, "b", "k\\u0000"],
    problem: stringContaining("NUL"),
  });
  expect(unstorableText({ images: ["fine", "bad \ud800 text"] })).toEqual({
    path: ["images", 1],
    problem: stringContaining("lone surrogate (U+D800)"),
  });
});
