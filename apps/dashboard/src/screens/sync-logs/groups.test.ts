import { describe, expect, it } from "vitest";
import type { SyncLog } from "@catalog/gateway/api-types";
import { groupByRun, groupCounts, statusQuery } from "./groups";

const log = (runId: string | null, status: SyncLog["status"] = "succeeded"): SyncLog => ({
  id: Math.random().toString(16).slice(2),
  jobId: "j",
  productId: "p",
  destinationAccountId: "d",
  status,
  attempts: 1,
  error: null,
  remoteId: null,
  remoteUrl: null,
  createdAt: "2026-11-27T10:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  kind: runId ? "publish" : "update",
  trigger: null,
  note: null,
  runId,
  failure: null,
});

describe("groupByRun", () => {
  it("keeps consecutive entries of a run together, and counts the failures", () => {
    const groups = groupByRun([
      log("a"),
      log("a", "dead"),
      log(null),
      log(null),
      log("b", "failed"),
    ]);
    expect(groups.map((g) => [g.runId, g.items.length, g.failed])).toEqual([
      ["a", 2, 1],
      [null, 2, 0],
      ["b", 1, 1],
    ]);
    expect(groups.map(groupCounts)).toEqual([
      "2 entries · 1 failed",
      "2 entries",
      "1 entry · 1 failed",
    ]);
  });

  it("a run interrupted by another makes a second group", () => {
    expect(groupByRun([log("a"), log("b"), log("a")]).map((g) => g.runId)).toEqual(["a", "b", "a"]);
  });

  it("an empty page has no groups", () => {
    expect(groupByRun([])).toEqual([]);
  });
});

describe("statusQuery", () => {
  it("asks for both failed states for 'failures', and passes others through", () => {
    expect(statusQuery("failures")).toEqual(["failed", "dead"]);
    expect(statusQuery("dead")).toBe("dead");
    expect(statusQuery(undefined)).toBeUndefined();
  });
});
