/**
 * The OpenAPI document as generators and readers use it: named components,
 * documented operations, and examples that the schemas accept. It does not
 * depend on the database, so it runs once, on SQLite.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type ErrorCode, problemDefinition } from '../src/core/errors.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Json = any;

const NAMED = [
  'Plan',
  'PlanCreate',
  'PlanUpdate',
  'PlanPage',
  'PlanTemplate',
  'PlanTemplatePage',
  'BillingPeriod',
  'Entitlements',
  'EntitlementsReplace',
  'Entitlement',
  'EntitlementSet',
  'EntitlementValue',
  'Member',
  'MemberCreate',
  'MemberUpdate',
  'MemberStatus',
  'MemberRole',
  'MemberPage',
  'Policy',
  'PolicyUpdate',
  'AuditEvent',
  'AuditEventPage',
  'Problem',
  'ValidationProblem',
  'FieldError',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the OpenAPI document', () => {
  let app: App;
  let doc: Json;
  before(async () => {
    app = await buildApp({ ...loadConfig({}), databaseUrl: 'sqlite::memory:' }, { logger: false });
    doc = (await app.inject({ url: '/openapi.json' })).json();
  });
  after(() => app.close());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })),
    );

  /** A validator that knows every component, as a generator reading the document would. */
  const validatorOf = () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'document', components: doc.components });
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    return (schema: Json, value: unknown) => {
      const inDocument = JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/');
      const validate = compiled.get(inDocument) ?? ajv.compile(JSON.parse(inDocument));
      compiled.set(inDocument, validate);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
  };

  test('every resource, body, page and problem is a named component', () => {
    for (const name of NAMED) assert.ok(doc.components.schemas[name], `no component ${name}`);
    assert.equal(doc.components.schemas.Member.properties.status.$ref, '#/components/schemas/MemberStatus');
    assert.equal(doc.components.schemas.PlanPage.properties.plans.items.$ref, '#/components/schemas/Plan');
  });

  test('every request and response body of the API is a reference to a component', () => {
    for (const { path, method, operation } of operations()) {
      if (!path.startsWith('/admin/')) continue;
      const bodies = [operation.requestBody, ...Object.values(operation.responses)] as Json[];
      for (const media of bodies.flatMap((body) => Object.values(body?.content ?? {})) as Json[]) {
        assert.match(media.schema.$ref ?? '', /^#\/components\/schemas\//, `${method} ${path}`);
      }
    }
  });

  test('every request body and every answer with a body shows an example', () => {
    for (const { path, method, operation } of operations()) {
      const bodies = [
        ['request', operation.requestBody],
        ...Object.entries(operation.responses).map(([status, body]) => [status, body]),
      ] as [string, Json][];
      for (const [part, body] of bodies) {
        if (body === undefined || body.$ref !== undefined) continue;
        for (const [type, media] of Object.entries(body.content ?? {}) as [string, Json][]) {
          const schema = media.schema.$ref === undefined ? media.schema : undefined;
          assert.ok(
            media.example !== undefined ||
              media.examples !== undefined ||
              schema?.examples !== undefined ||
              media.schema.$ref !== undefined,
            `${method} ${path} ${part} ${type} has no example`,
          );
        }
      }
    }
  });

  test('every operation has a unique operationId, a tag, a summary, a description and a 4xx answer', () => {
    const ids = new Set<string>();
    for (const { path, method, operation } of operations()) {
      const name = `${method} ${path}`;
      assert.match(operation.operationId ?? '', /^[a-z][A-Za-z]+$/, name);
      assert.ok(!ids.has(operation.operationId), `${name}: operationId used twice`);
      ids.add(operation.operationId);
      assert.equal(operation.tags?.length, 1, name);
      assert.ok(operation.summary, name);
      assert.ok((operation.description ?? '').length > 40, name);
      assert.ok(
        Object.keys(operation.responses).some((status) => status.startsWith('4')),
        name,
      );
    }
  });

  test("each problem answer lists its codes, each with an example of that code's status", () => {
    const members = doc.paths['/admin/facilities/{facility_id}/members/{member_id}'];
    const conflict = members.patch.responses['409'];
    assert.match(conflict.description, /invalid_status_transition/);
    assert.match(conflict.description, /freeze_not_allowed/);
    const examples = conflict.content['application/problem+json'].examples;
    assert.equal(examples.plan_full.value.code, 'plan_full');
    assert.equal(examples.plan_full.value.instance, '/admin/facilities/1/members/42');
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses) as [string, Json][]) {
        const media = response.content?.['application/problem+json'];
        for (const [code, example] of Object.entries(media?.examples ?? {}) as [string, Json][]) {
          const expected = problemDefinition(code as ErrorCode).status;
          assert.ok(
            status === String(expected) || (status === '5XX' && expected >= 500),
            `${code} under ${status}`,
          );
          assert.equal(example.value.status, expected);
        }
      }
    }
  });

  test('every example is accepted by its schema', () => {
    const problemsOf = validatorOf();
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
      assert.ok(schema.examples?.length > 0 || name === 'FieldError', `${name} has no example`);
      for (const example of schema.examples ?? []) {
        assert.deepEqual(problemsOf({ $ref: `#/components/schemas/${name}` }, example), [], name);
        checked++;
      }
    }
    for (const { path, method, operation } of operations()) {
      const bodies = [operation.requestBody, ...Object.values(operation.responses)] as Json[];
      for (const media of bodies.flatMap((body) => Object.values(body?.content ?? {})) as Json[]) {
        const examples = [
          ...(media.example === undefined ? [] : [media.example]),
          ...Object.values(media.examples ?? {}).map((e: Json) => e.value),
        ];
        if (path.startsWith('/admin/'))
          assert.ok(examples.length > 0, `${method} ${path} has a body with no example`);
        for (const example of examples) {
          assert.deepEqual(problemsOf(media.schema, example), [], `${method} ${path}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 100, `only ${checked} examples`);
  });

  test('the served document is the committed openapi.json', () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(doc, committed, 'openapi.json is out of date: run "npm run openapi" and commit it');
  });

  test('info.version is the package version', async () => {
    const { packageVersion } = await import('../src/package-info.js');
    assert.equal(doc.info.version, packageVersion);
  });
});
