import { expect, it } from "vitest";
import { RUN_STATES, RUN_STATE_LABELS, runTotal } from "./runs";

it("runTotal counts every job of a run, whatever its state", () => {
  expect(runTotal({ queued: 1, running: 2, succeeded: 30, failed: 4, dead: 5 })).toBe(42);
});

it("every run state has a label; succeeded reads as Published", () => {
  expect(RUN_STATES.map((s) => RUN_STATE_LABELS[s])).toEqual([
    "Queued",
    "Running",
    "Published",
    "Failed",
    "Gave up",
  ]);
});
