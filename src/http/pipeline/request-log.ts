import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Bindings, type ChildLoggerOptions, type DestinationStream, levels } from 'pino';

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

/** The app's log: off, or pino's level and the stream its lines go to. */
export type LogSettings = false | { level: string; stream: DestinationStream };

const INFO_LEVEL = 30;
/** What pino writes after the time on every line (its `base`). */
const BASE_BINDINGS = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/**
 * One log line per request, written when the response is done: the line
 * pino would write for `log.info({ reqId, method, route, status, ms, key_id },
 * 'request')`, field for field, built here as one template string and
 * written straight to the logger's stream, so it stays in order with pino's
 * own lines. pino's generic serialization of each key was a visible share of
 * a point read (docs/performance-log.md); these fields are known, and every string
 * among them is safe to print as it is but the route, which is escaped. Not
 * registered when info lines are off.
 */
export function registerRequestLog(app: FastifyInstance, logger: LogSettings): void {
  if (!logger || (levels.values[logger.level] ?? Number.POSITIVE_INFINITY) > INFO_LEVEL) return;
  const { stream } = logger;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    // reqId is ours or matched /^[A-Za-z0-9._-]+$/ (requestIdFor); the method passed Node's HTTP parser.
    stream.write(
      `{"level":${INFO_LEVEL},"time":${Date.now()}${BASE_BINDINGS},"reqId":"${request.id}","method":"${request.method}",` +
        `"route":${route === undefined ? 'null' : JSON.stringify(route)},"status":${reply.statusCode},` +
        `"ms":${Math.round(reply.elapsedTime * 100) / 100},"key_id":${request.principal?.keyId ?? null},"msg":"request"}\n`,
    );
    done();
  });
}
