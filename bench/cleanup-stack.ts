/**
 * Undo steps run newest first, each at most once, whether the bench ends normally, fails or is
 * interrupted; one failing step does not stop the others (a leaked database is worse than a log
 * line).
 */
export class CleanupStack {
  private readonly steps: { label: string; run: () => Promise<unknown> }[] = [];
  private running: Promise<void> | undefined;

  add(label: string, run: () => Promise<unknown>): void {
    this.steps.push({ label, run });
  }

  /**
   * Registers the undo before `creating` settles, so an interrupt in the middle of creating
   * (a database being migrated, say) still waits for it and undoes it.
   */
  adopt<T>(label: string, creating: Promise<T>, undo: (value: T) => Promise<unknown>): Promise<T> {
    this.add(label, async () => {
      const created = await creating.then(
        (value) => ({ value }),
        () => undefined,
      );
      if (created) await undo(created.value);
    });
    return creating;
  }

  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          console.error(`cleanup: ${step.label} failed: ${(error as Error).message}`);
        }
      }
    })();
    return this.running;
  }

  /** Ctrl-C or a kill cleans up first, then exits with the usual 128 + signal code. */
  exitOnSignals(): void {
    const onSignal = (signal: NodeJS.Signals, code: number) => {
      // tsx forwards the terminal's Ctrl-C as well, so a second signal is normal: let cleanup
      // finish.
      if (this.running) return;
      console.error(`\n${signal}: cleaning up before exit`);
      void this.runAll().then(() => process.exit(code));
    };
    process.on("SIGINT", () => onSignal("SIGINT", 130));
    process.on("SIGTERM", () => onSignal("SIGTERM", 143));
  }
}

/** Runs a benchmark's `main` with a cleanup stack and exits: 1 when it threw or returned false. */
export async function runBench(
  main: (cleanup: CleanupStack) => Promise<boolean | void>,
): Promise<never> {
  const cleanup = new CleanupStack();
  cleanup.exitOnSignals();
  let exitCode = 0;
  try {
    if ((await main(cleanup)) === false) exitCode = 1;
  } catch (error) {
    console.error(error);
    exitCode = 1;
  } finally {
    await cleanup.runAll();
  }
  process.exit(exitCode);
}
