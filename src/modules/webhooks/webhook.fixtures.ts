/** A webhook receiver on loopback for the tests: records what it gets, answers what it is told. */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { App } from '../../app.js';
import type { Db } from '../../db/database.js';
import { deliveryWorkerSettings } from '../../modules.js';
import { type DeliveryWorker, type DeliveryWorkerSettings, startDeliveryWorker } from './delivery.worker.js';

export interface Received {
  /** The request's path and query: which endpoint it was sent to. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status of each next answer, in order; then 204. */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const status = answers.shift() ?? 204;
      if (status < 300)
        received.push({
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      response
        .writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {})
        .end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A receiver for the suite that calls this: listening before its tests,
 * closed after them. `forFacility` is what the changes of one facility
 * brought (each test uses a facility of its own).
 */
export function receiverForSuite(): Receiver & { forFacility(facility: number): Received[] } {
  const suite = {
    url: '',
    received: [] as Received[],
    answers: [] as number[],
    close: async () => {},
    forFacility: (facility: number) =>
      suite.received.filter((r) => JSON.parse(r.body).facility_id === facility),
  };
  before(async () => {
    Object.assign(suite, await startReceiver());
  });
  after(() => suite.close());
  return suite;
}

/** The app's delivery worker, fast: polling every 20 ms and retrying after 50 ms. */
export function startTestWorker(
  app: App,
  overrides: Partial<DeliveryWorkerSettings> = {},
  db: Db = app.db,
): DeliveryWorker {
  const settings = deliveryWorkerSettings(app.config, app.secrets as NonNullable<App['secrets']>);
  return startDeliveryWorker(
    db,
    { ...settings, pollIntervalMs: 20, retryDelaysMs: [50, 50, 50], ...overrides },
    app.log,
  );
}

export const WEBHOOK_TEST_CONFIG = { webhookAllowHttp: true, webhookAllowPrivateUrls: true };
