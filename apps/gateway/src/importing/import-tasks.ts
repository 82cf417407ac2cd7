import type { FastifyBaseLogger } from "fastify";
import {
  IMPORT_LEASE_MS,
  ImportStopped,
  ServiceError,
  failImport,
  updateOwnedImport,
  type Db,
} from "@catalog/db";
import { Semaphore } from "@catalog/fetch/semaphore";

/** A heartbeat several times within the lease, so one slow write does not lose the import. */
const HEARTBEAT_MS = Math.floor(IMPORT_LEASE_MS / 4);

const STOPPED_GATEWAY = "interrupted: the service restarted; start the import again";

export interface ImportTask {
  importId: string;
  /** The status the work runs in: the lease is renewed only while the import is still in it. */
  status: "previewing" | "storing";
  /** Put in front of the reason when the work fails ("storing failed, nothing was stored: ..."). */
  failurePrefix: string;
  work(signal: AbortSignal): Promise<void>;
  /** Runs however the task ends, even if it never got a slot (the document's spool). */
  cleanup?(): Promise<void>;
}

/**
 * The gateway's background imports (/api/imports): each runs after its request has been
 * answered, so closing the browser changes nothing. At most `concurrency` run at once per
 * gateway (each may hold a parser thread, a transaction or a window of scrape jobs); the rest
 * wait their turn, their lease renewed meanwhile. An import the user discarded, or that a reader
 * found past its lease, stops at its next step. Closing the gateway stops every import and marks
 * it failed, so none stays "previewing" after a restart; one killed outright is failed by the
 * first reader once its lease has expired.
 */
export class ImportTasks {
  private readonly slots: Semaphore;
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();
  private closing = false;

  constructor(
    private readonly db: Db,
    concurrency: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.slots = new Semaphore(concurrency);
  }

  start(task: ImportTask): void {
    if (this.closing)
      throw new ServiceError(
        503,
        "the service is shutting down; start the import again in a moment",
      );
    const controller = new AbortController();
    const heartbeat = setInterval(() => {
      updateOwnedImport(this.db, task.importId, task.status, {})
        .then((owned) => {
          if (!owned) controller.abort(new ImportStopped());
        })
        .catch((error: unknown) =>
          this.log.warn({ err: error, importId: task.importId }, "import heartbeat failed"),
        );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const done = this.slots
      .run(async () => {
        controller.signal.throwIfAborted();
        await task.work(controller.signal);
      })
      .catch((error: unknown) => this.fail(task, error))
      .finally(async () => {
        clearInterval(heartbeat);
        await task
          .cleanup?.()
          .catch((error: unknown) =>
            this.log.warn({ err: error, importId: task.importId }, "import cleanup failed"),
          );
        this.running.delete(task.importId);
      });
    this.running.set(task.importId, { controller, done });
  }

  /**
   * Stops this gateway's work on an import (the user discarded it); other gateways notice at their
   * next step.
   */
  abort(importId: string): void {
    this.running.get(importId)?.controller.abort(new ImportStopped());
  }

  /** Stops every import and waits until each has been marked failed. */
  async close(): Promise<void> {
    this.closing = true;
    const tasks = [...this.running.values()];
    for (const { controller } of tasks) controller.abort(new Error(STOPPED_GATEWAY));
    await Promise.all(tasks.map((t) => t.done));
  }

  private async fail(task: ImportTask, error: unknown): Promise<void> {
    // Discarded, or failed by a reader: someone else has already said what became of it.
    if (error instanceof ImportStopped) return;
    let reason: string;
    if (error instanceof ServiceError) reason = error.message;
    else if (this.closing) reason = STOPPED_GATEWAY;
    else {
      this.log.error({ err: error, importId: task.importId }, "background import failed");
      reason =
        "an internal error stopped it; start the import again (the service log has the details)";
    }
    await failImport(this.db, task.importId, `${task.failurePrefix}${reason}`).catch(
      (failure: unknown) =>
        this.log.error(
          { err: failure, importId: task.importId },
          "could not mark the import failed",
        ),
    );
  }
}
