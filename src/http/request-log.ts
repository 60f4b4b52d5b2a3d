import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LogCall = (...args: unknown[]) => void;

/**
 * `request.log`, made lazily. Fastify makes a pino child logger (bound to the
 * request id) for every request, and a child costs about as much as the
 * request's one log line. Most requests never log through it: their line is
 * written by registerRequestLog from the parent logger. The child is made on
 * the first call, when an error or a warning is logged.
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#logger.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  // Methods on the prototype: a request that never logs allocates nothing more.
  fatal(...args: unknown[]): void {
    (this.#logger.fatal as LogCall)(...args);
  }
  error(...args: unknown[]): void {
    (this.#logger.error as LogCall)(...args);
  }
  warn(...args: unknown[]): void {
    (this.#logger.warn as LogCall)(...args);
  }
  info(...args: unknown[]): void {
    (this.#logger.info as LogCall)(...args);
  }
  debug(...args: unknown[]): void {
    (this.#logger.debug as LogCall)(...args);
  }
  trace(...args: unknown[]): void {
    (this.#logger.trace as LogCall)(...args);
  }
  silent(...args: unknown[]): void {
    (this.#logger.silent as LogCall)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: see LazyRequestLogger. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

/**
 * One log line per request, written when the response is done, from the
 * app's logger with the request id: the same line a request's child logger
 * writes, without making one.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    app.log.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key_id: request.principal?.keyId ?? null,
      },
      'request',
    );
    done();
  });
}
