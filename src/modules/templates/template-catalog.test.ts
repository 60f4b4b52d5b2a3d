import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { loadTemplateCatalog, TemplateCatalogError } from './template.catalog.js';
import {
  expectedListing,
  operatorFile,
  operatorTemplates,
  shipped,
  validTemplate,
  workDir,
  writeCatalogFile,
} from './template.fixtures.js';

describe('loadTemplateCatalog', () => {
  function assertCatalogError(file: string, ...fragments: (string | RegExp)[]) {
    assert.throws(
      () => loadTemplateCatalog(file),
      (error: unknown) => {
        assert.ok(error instanceof TemplateCatalogError, `not a TemplateCatalogError: ${error}`);
        assert.ok(error.message.includes(file), `the message names the file: ${error.message}`);
        for (const fragment of fragments) {
          if (typeof fragment === 'string') assert.ok(error.message.includes(fragment), error.message);
          else assert.match(error.message, fragment);
        }
        return true;
      },
    );
  }

  test('loads the shipped file by default and finds templates by id', () => {
    const catalog = loadTemplateCatalog();
    const all = catalog.list({ afterId: 0, limit: 1000 });
    assert.deepEqual(all, expectedListing(shipped));
    assert.equal(catalog.findById(all[0].id)?.name, all[0].name);
    assert.equal(catalog.findById(123456), undefined);
  });

  test('a valid operator file loads, ordered by id', () => {
    const catalog = loadTemplateCatalog(operatorFile);
    assert.deepEqual(catalog.list({ afterId: 0, limit: 10 }), expectedListing(operatorTemplates));
    assert.deepEqual(
      catalog.list({ sportId: 77, afterId: 42, limit: 10 }).map((t) => t.id),
      [900],
    );
  });

  test('a file with a byte order mark loads', () => {
    const file = writeCatalogFile(`\uFEFF${JSON.stringify({ templates: [validTemplate()] })}`);
    assert.equal(loadTemplateCatalog(file).findById(1)?.name, 'Padel monthly');
  });

  test('a missing file is a clear error', () => {
    assertCatalogError(join(workDir, 'does-not-exist.json'), 'Cannot read');
  });

  test('invalid JSON is a clear error', () => {
    assertCatalogError(writeCatalogFile('{"templates": [ {"id": 1,'), 'not valid JSON');
    assertCatalogError(writeCatalogFile(''), 'not valid JSON');
  });

  test('a field with a bad value is named with its pointer', () => {
    const file = writeCatalogFile({
      templates: [validTemplate(), validTemplate({ id: 2, price_amount: -5, currency: 'eur' })],
    });
    assertCatalogError(file, '/templates/1/price_amount', '/templates/1/currency');
  });

  test('a bad billing period, entitlement key or entitlement value is named', () => {
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ billing_period: 'daily' })] }),
      '/templates/0/billing_period',
      'monthly',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: '_bad key', value: 1 }] })] }),
      '/templates/0/entitlements/0/key',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: 'a', value: null }] })] }),
      '/templates/0/entitlements/0/value',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: 'a', value: { x: 1 } }] })] }),
      '/templates/0/entitlements/0/value',
    );
  });

  test('a number too large for a finite value is rejected', () => {
    const text = JSON.stringify({ templates: [validTemplate({ entitlements: [{ key: 'a', value: 7 }] })] });
    assertCatalogError(
      writeCatalogFile(text.replace('"value":7', '"value":1e400')),
      '/templates/0/entitlements/0/value',
    );
  });

  test('missing and unknown fields are named', () => {
    const { currency: _currency, ...withoutCurrency } = validTemplate();
    assertCatalogError(writeCatalogFile({ templates: [withoutCurrency] }), '/templates/0', 'currency');
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ colour: 'red' })] }),
      '/templates/0',
      'colour',
    );
    assertCatalogError(writeCatalogFile({ templates: [], version: 2 }), 'version');
    assertCatalogError(writeCatalogFile([validTemplate()]), 'templates');
  });

  test('duplicate template ids are rejected, naming the id', () => {
    const file = writeCatalogFile({
      templates: [
        validTemplate({ id: 5 }),
        validTemplate({ id: 6 }),
        validTemplate({ id: 5, name: 'Other' }),
      ],
    });
    assertCatalogError(file, /\b5\b/, 'same id');
  });

  test('duplicate entitlement keys in one template are rejected', () => {
    const file = writeCatalogFile({
      templates: [
        validTemplate({
          entitlements: [
            { key: 'court_hours', value: 1 },
            { key: 'court_hours', value: 2 },
          ],
        }),
      ],
    });
    assertCatalogError(file, '/templates/0/entitlements/1/key', 'court_hours');
  });

  test('a blank name is rejected', () => {
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ name: '   ' })] }),
      '/templates/0/name',
    );
  });

  test('buildApp refuses to start with an invalid templates file', async () => {
    const file = writeCatalogFile({ templates: [validTemplate({ duration_days: 0 })] });
    await assert.rejects(
      buildApp(
        { ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'none', templatesFile: file },
        { logger: false },
      ),
      (error: unknown) =>
        error instanceof TemplateCatalogError &&
        error.message.includes(file) &&
        error.message.includes('/templates/0/duration_days'),
    );
  });
});
