import type { FastifyBaseLogger } from "fastify";
import type { PublishRunView } from "./run-view.js";

type Listener = (run: PublishRunView, json: string) => void;

interface Watch {
  listeners: Set<Listener>;
  last: { run: PublishRunView; json: string } | null;
  timer: NodeJS.Timeout | null;
  stopped: boolean;
}

/**
 * Follows publish runs for live views. However many streams follow one run on this gateway
 * instance, the run is read once per interval (one poller per run, shared), and listeners hear
 * of it only when its JSON changed. A poller stops when its last listener leaves or the run is
 * finished. Polling PostgreSQL (the record the workers write) rather than queue events keeps it
 * right across gateway instances, worker restarts and Redis losses.
 */
export class RunWatchers {
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly load: (orgId: string, runId: string) => Promise<PublishRunView>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Runs being polled now (for the tests' and operators' view of the work a stream costs). */
  get polling(): number {
    return this.watches.size;
  }

  /**
   * The run now (throws the load's 404 for an unknown run); served from a running poller when there
   * is one.
   */
  async current(orgId: string, runId: string): Promise<PublishRunView> {
    const last = this.watches.get(key(orgId, runId))?.last;
    return last ? last.run : this.load(orgId, runId);
  }

  /** Calls `listener` with each changed state of the run after `seen`; returns the unsubscribe. */
  watch(orgId: string, runId: string, seen: PublishRunView, listener: Listener): () => void {
    const id = key(orgId, runId);
    let watch = this.watches.get(id);
    if (!watch) {
      watch = {
        listeners: new Set(),
        last: { run: seen, json: JSON.stringify(seen) },
        timer: null,
        stopped: false,
      };
      this.watches.set(id, watch);
      this.schedule(id, watch, orgId, runId);
    }
    watch.listeners.add(listener);
    const w = watch;
    return () => {
      w.listeners.delete(listener);
      if (w.listeners.size === 0) this.stop(id, w);
    };
  }

  /** Stops every poller (the gateway is closing). */
  close(): void {
    for (const [id, watch] of this.watches) this.stop(id, watch);
  }

  private schedule(id: string, watch: Watch, orgId: string, runId: string): void {
    watch.timer = setTimeout(() => void this.poll(id, watch, orgId, runId), this.intervalMs);
  }

  private async poll(id: string, watch: Watch, orgId: string, runId: string): Promise<void> {
    try {
      const run = await this.load(orgId, runId);
      const json = JSON.stringify(run);
      if (watch.stopped) return;
      if (json !== watch.last?.json) {
        watch.last = { run, json };
        for (const listener of [...watch.listeners]) listener(run, json);
      }
      if (run.finished) return this.stop(id, watch);
    } catch (err) {
      // A database or Redis hiccup: the stream stays open and the next poll tries again.
      this.log.warn({ err, runId }, "reading a followed publish run failed; trying again");
    }
    if (!watch.stopped) this.schedule(id, watch, orgId, runId);
  }

  private stop(id: string, watch: Watch): void {
    watch.stopped = true;
    if (watch.timer) clearTimeout(watch.timer);
    if (this.watches.get(id) === watch) this.watches.delete(id);
  }
}

const key = (orgId: string, runId: string) => `${orgId}:${runId}`;
