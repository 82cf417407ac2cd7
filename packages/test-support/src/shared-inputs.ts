// Inputs that live beside the repository, not in it: ../shared holds the team's corpus (pages,
// documents, price strings) and the sales channels' published contracts. Tests that need one
// ask here, so they all skip, or fail, by one rule.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** ../shared beside the repository (this file is packages/testing/src/). */
export const SHARED_DIR = fileURLToPath(new URL("../../../../shared/", import.meta.url));

/** A path under ../shared, e.g. sharedPath("corpus/expected-pages.jsonl"). */
export function sharedPath(relative: string): string {
  return join(SHARED_DIR, relative);
}

/**
 * CI runs with ../shared beside its clone: there a missing input is a broken run, not a reason to
 * test less.
 */
function inCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "false" && value !== "0";
}

export interface SharedInput {
  /** What the input is, for the message: "the page corpus", "the channels' contracts". */
  what: string;
  /**
   * Where it was looked for (a file or folder); null when the caller's lookup found nothing to
   * name.
   */
  path: string | URL | null;
  /** Where it is normally found, named in the message when `path` is null. */
  expectedAt?: string;
  /** The tests that need it, named in the message: "the corpus accuracy test". */
  tests: string;
}

/**
 * The path of an input from ../shared when it is there. When it is not: with CI set (CI=true, as
 * CI runs) this throws, so the test file fails instead of passing with its corpus or contract
 * tests skipped; otherwise (a developer's clone without ../shared) it says on the console which
 * tests skip and why, and answers null for the caller to skip them.
 */
export function sharedInput(
  input: SharedInput,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const path =
    input.path === null ? null : input.path instanceof URL ? fileURLToPath(input.path) : input.path;
  if (path !== null && existsSync(path)) return path;
  const where = path ?? input.expectedAt ?? SHARED_DIR;
  if (inCi(env)) {
    throw new Error(
      `${input.what}: not found at ${where}, and CI is set: ${input.tests} must run in CI, so the run fails instead of ` +
        "skipping them. Check out the shared folder beside the repository as ../shared (or unset CI to skip them locally).",
    );
  }
  console.warn(
    `${input.what}: not found at ${where} (../shared is not checked out beside the repository): ${input.tests} skipped`,
  );
  return null;
}
