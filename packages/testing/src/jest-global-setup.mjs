// One database and one Redis key prefix per test run; they reach every test worker through
// the environment. Test files share them and keep apart by creating their own orgs.
import { runTestRun } from "./run-test-run.mjs";

export default function globalSetup() {
  Object.assign(process.env, JSON.parse(runTestRun("setup")));
}
