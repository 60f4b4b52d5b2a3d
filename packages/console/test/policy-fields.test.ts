/**
 * The console's policy form says, for each field, whether the service
 * enforces it: the same as the service's own OpenAPI document says.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { POLICY_FIELDS } from '../src/policy-fields.js';

const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
const properties: Record<string, { description: string }> =
  document.components.schemas.PolicyUpdate.properties;

test('the policy form shows every field the service takes', () => {
  assert.deepEqual(POLICY_FIELDS.map((field) => field.name).sort(), Object.keys(properties).sort());
});

test("each policy field is marked enforced exactly when the service's document says it acts on it", () => {
  for (const field of POLICY_FIELDS) {
    const storedOnly = properties[field.name]?.description.includes('this service does not enforce it');
    assert.equal(field.enforced, !storedOnly, field.name);
  }
});
