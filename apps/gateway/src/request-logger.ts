import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions, LogFn } from "pino";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;
type Level = (typeof LEVELS)[number];

const noop: LogFn = () => {};

type LevelAware = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger, made when something is first logged through it. Pino builds a child's
 * bindings through the redaction (its wildcard paths apply to every binding) as soon as the child
 * is made: about 2 µs a request. At `info` Fastify logs every request's lines, so the child is made
 * anyway; at `warn` and above (the benches' level, or a deployment's that does not want request
 * lines) a request that logs nothing makes none. What it logs is exactly what the child would log.
 */
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly fatal: LogFn;
  readonly error: LogFn;
  readonly warn: LogFn;
  readonly info: LogFn;
  readonly debug: LogFn;
  readonly trace: LogFn;
  readonly silent: LogFn = noop;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    const method = (level: Level): LogFn =>
      parent.isLevelEnabled(level)
        ? (...args: Parameters<LogFn>) => this.real[level](...args)
        : noop;
    [this.fatal, this.error, this.warn, this.info, this.debug, this.trace] = LEVELS.map(method) as [
      LogFn,
      LogFn,
      LogFn,
      LogFn,
      LogFn,
      LogFn,
    ];
  }

  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a request's logger made lazily, unless its route sets a level
 * or serializers of its own (then made at once, as Fastify does).
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  const levelAware = typeof (logger as Partial<LevelAware>).isLevelEnabled === "function";
  if (options.level !== undefined || options.serializers || !levelAware)
    return logger.child(bindings, options);
  return new RequestLogger(logger as LevelAware, bindings, options);
}
