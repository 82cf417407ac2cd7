import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedInput } from "../src/shared-inputs.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "shared-inputs-"));
  writeFileSync(join(dir, "expected-pages.jsonl"), "{}\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const missing = () => ({
  what: "the page corpus",
  path: join(dir, "absent", "expected-pages.jsonl"),
  tests: "the corpus accuracy test",
});

test("with CI=true a missing input fails, naming what is missing, where it was looked for and which tests need it", () => {
  expect(() => sharedInput(missing(), { CI: "true" })).toThrow(
    new RegExp(
      `the page corpus: not found at ${join(dir, "absent")}.*, and CI is set: the corpus accuracy test must run in CI, so the run fails`,
    ),
  );
  expect(() =>
    sharedInput(
      {
        what: "the channels' contracts",
        path: null,
        expectedAt: "../shared/contracts",
        tests: "contract tests",
      },
      { CI: "1" },
    ),
  ).toThrow(/the channels' contracts: not found at \.\.\/shared\/contracts, and CI is set/);
});

test("without CI a missing input is skipped, saying why", () => {
  const said: unknown[] = [];
  const warn = console.warn;
  console.warn = (message: unknown) => {
    said.push(message);
  };
  try {
    expect(sharedInput(missing(), {})).toBeNull();
    expect(sharedInput(missing(), { CI: "false" })).toBeNull();
  } finally {
    console.warn = warn;
  }
  expect(said).toHaveLength(2);
  expect(said[0]).toMatch(
    /the page corpus: not found at .*absent.*: the corpus accuracy test skipped/,
  );
});

test("a present input is its path, as a path or a file URL, with or without CI", () => {
  const file = join(dir, "expected-pages.jsonl");
  expect(sharedInput({ what: "the page corpus", path: file, tests: "t" }, { CI: "true" })).toBe(
    file,
  );
  expect(
    sharedInput({ what: "the page corpus", path: new URL(`file://${file}`), tests: "t" }, {}),
  ).toBe(file);
});
