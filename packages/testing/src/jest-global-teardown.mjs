import { runTestRun } from "./run-test-run.mjs";

export default function globalTeardown() {
  runTestRun("teardown");
}
