import { Worker } from "node:worker_threads";

/**
 * The document parser threads, kept for the next job once they have answered one. Starting a
 * thread (an isolate, then the parsers' modules) costs about 0.3 s: most of a small import,
 * which starts one to read the columns and another to read the rows (a background import three).
 * A thread that answered its job is kept idle for `IDLE_MS`, and the next job with the same
 * heap limit takes it; at most `MAX_IDLE` wait, so documents cost the gateway at most one
 * parser thread's heap beyond those in use. An idle thread does not keep the process alive.
 */
const IDLE_MS = 30_000;
const MAX_IDLE = 1;

export interface ThreadSpec {
  entry: URL;
  module: string;
  resourceLimits: {
    maxOldGenerationSizeMb: number;
    maxYoungGenerationSizeMb: number;
    stackSizeMb: number;
  };
}

interface Idle {
  worker: Worker;
  heapMb: number;
  timer: NodeJS.Timeout;
}

const idle: Idle[] = [];

function forget(worker: Worker): Idle | undefined {
  const at = idle.findIndex((entry) => entry.worker === worker);
  if (at < 0) return undefined;
  const [entry] = idle.splice(at, 1);
  clearTimeout(entry!.timer);
  return entry;
}

function startThread(spec: ThreadSpec): Worker {
  const worker = new Worker(spec.entry, {
    workerData: { module: spec.module },
    resourceLimits: spec.resourceLimits,
  });
  // A thread that fails or stops while idle has no job to tell: it is only dropped.
  worker.on("error", () => forget(worker));
  worker.on("exit", () => forget(worker));
  return worker;
}

const heapOf = (spec: ThreadSpec) => spec.resourceLimits.maxOldGenerationSizeMb;

/** An idle thread with this heap limit, or a new one; it keeps the process alive until released. */
export function takeThread(spec: ThreadSpec): Worker {
  const waiting = idle.find((entry) => entry.heapMb === heapOf(spec));
  if (!waiting) return startThread(spec);
  forget(waiting.worker);
  waiting.worker.ref();
  return waiting.worker;
}

/**
 * Starts a thread for a job about to come unless one waits already (one with another heap limit
 * fills the idle slot too: the new thread would only be stopped): called as an upload starts,
 * its start overlaps the upload instead of following it.
 */
export function prestartThread(spec: ThreadSpec): void {
  if (idle.length >= MAX_IDLE) return;
  void releaseThread(startThread(spec), heapOf(spec));
}

/** Keeps a thread that answered its job (and has no listener of the job left) for the next one. */
export function releaseThread(worker: Worker, heapMb: number): Promise<void> {
  if (idle.length >= MAX_IDLE) return worker.terminate().then(() => undefined);
  worker.unref();
  const timer = setTimeout(() => {
    if (forget(worker)) void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, heapMb, timer });
  return Promise.resolve();
}

/** How many threads wait for a job. */
export const idleParseThreads = (): number => idle.length;

/** Stops the idle threads (the gateway's close). */
export async function closeParseThreads(): Promise<void> {
  const stopping = idle.splice(0);
  for (const { timer } of stopping) clearTimeout(timer);
  await Promise.all(stopping.map(({ worker }) => worker.terminate()));
}
