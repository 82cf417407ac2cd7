import { getEventListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { startDeadline, timeoutReason } from "../src/index.js";

test("a deadline that runs out aborts with its reason and says it expired", async () => {
  const deadline = startDeadline(20, timeoutReason(20));
  expect(deadline.signal.aborted).toBe(false);
  await sleep(60);
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.expired).toBe(true);
  expect(deadline.signal.reason).toMatchObject({
    name: "TimeoutError",
    message: "The operation timed out after 20 ms",
  });
});

test("the caller's abort passes through with the caller's reason, and is not an expiry", () => {
  const caller = new AbortController();
  const deadline = startDeadline(10_000, timeoutReason(10_000), caller.signal);
  const why = new Error("the worker is shutting down");
  caller.abort(why);
  expect(deadline.signal.reason).toBe(why);
  expect(deadline.expired).toBe(false);

  const already = startDeadline(10_000, timeoutReason(10_000), caller.signal);
  expect(already.signal.reason).toBe(why);
});

test("a released deadline never fires and lets go of the caller's signal", async () => {
  const caller = new AbortController();
  const deadlines = Array.from({ length: 100 }, () =>
    startDeadline(20, timeoutReason(20), caller.signal),
  );
  expect(getEventListeners(caller.signal, "abort")).toHaveLength(100);
  for (const deadline of deadlines) deadline.release();
  // A long-lived signal (a lane's, the worker's) keeps nothing of the calls that are done.
  expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  await sleep(60);
  expect(deadlines.some((d) => d.signal.aborted || d.expired)).toBe(false);
});
