import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOptions } from '@node-rs/argon2';
import { commonPasswordsFromPackage } from '../../../scripts/generate-common-passwords.js';
import { COMMON_PASSWORDS } from './common-passwords.js';
import {
  ARGON2ID_PARAMETERS,
  DUMMY_HASH,
  hashPassword,
  needsRehash,
  verifyAgainstDummy,
  verifyPassword,
} from './password-hash.js';
import { passwordProblem } from './password-rules.js';

const email = 'dana.kowalski@example.test';
const good = 'correct horse battery staple';

describe('password hashing', () => {
  test('a hashed password verifies, and a wrong one does not', async () => {
    const stored = await hashPassword(good);
    assert.equal(await verifyPassword(stored, good), true);
    assert.equal(await verifyPassword(stored, 'correct horse battery stapler'), false);
    assert.equal(await verifyPassword(stored, ''), false);
  });

  test('the hash is Argon2id with the parameters set, and holds no part of the password', async () => {
    const stored = await hashPassword(good);
    assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(needsRehash(stored), false);
    for (const word of good.split(' ')) assert.equal(stored.includes(word), false);
    assert.equal(stored.includes(Buffer.from(good).toString('base64').slice(0, 12)), false);
  });

  test('two hashes of one password differ (a salt each) and both verify', async () => {
    const [first, second] = await Promise.all([hashPassword(good), hashPassword(good)]);
    assert.notEqual(first, second);
    assert.equal(await verifyPassword(first, good), true);
    assert.equal(await verifyPassword(second, good), true);
  });

  test('the same characters typed in another Unicode form verify (NFKC)', async () => {
    const composed = 'caf\u00e9 au lait, s\u2019il vous pla\u00eet';
    const stored = await hashPassword(composed);
    assert.equal(await verifyPassword(stored, composed.normalize('NFD')), true);
  });

  test('a malformed stored hash matches nothing and asks to be rehashed', async () => {
    assert.equal(await verifyPassword('not a hash', good), false);
    assert.equal(needsRehash('not a hash'), true);
    assert.equal(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaA'), true);
  });

  test('an unknown account is verified against a hash of the same cost, and fails', async () => {
    const used = parseOptions(DUMMY_HASH);
    assert.equal(used.algorithm, ARGON2ID_PARAMETERS.algorithm);
    assert.equal(used.memoryCost, ARGON2ID_PARAMETERS.memoryCost);
    assert.equal(used.timeCost, ARGON2ID_PARAMETERS.timeCost);
    assert.equal(used.parallelism, ARGON2ID_PARAMETERS.parallelism);
    assert.equal(await verifyAgainstDummy(good), false);
    assert.equal(await verifyAgainstDummy(''), false);
  });

  test('many hashes at once all complete (they take turns)', async () => {
    const stored = await hashPassword(good);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => verifyPassword(stored, i % 2 === 0 ? good : `${good}!`)),
    );
    assert.deepEqual(answers, [true, false, true, false, true, false]);
  });
});

describe('password rules (NIST SP 800-63B)', () => {
  test('a long passphrase of any characters is accepted; no composition rule', () => {
    assert.equal(passwordProblem(good, { email }), undefined);
    assert.equal(passwordProblem('alllowercaseletters', { email }), undefined);
    assert.equal(passwordProblem('żółta łódź na jeziorze', { email }), undefined);
  });

  test('fewer than 12 characters is refused, counted in code points', () => {
    assert.match(passwordProblem('elevenchars', { email }) ?? '', /at least 12 characters/);
    assert.equal(passwordProblem('twelve chars', { email }), undefined);
    // Eleven emoji are 22 UTF-16 units but 11 characters.
    assert.match(passwordProblem('🦊'.repeat(11), { email }) ?? '', /at least 12/);
    assert.equal(passwordProblem('🦊🐻'.repeat(6), { email }), undefined);
  });

  test('more than 128 characters is refused', () => {
    assert.equal(passwordProblem('ab'.repeat(64), { email }), undefined);
    assert.match(passwordProblem(`${'ab'.repeat(64)}c`, { email }) ?? '', /at most 128 characters/);
  });

  test('the e-mail address, or its name part, in the password is refused', () => {
    assert.match(passwordProblem(email, { email }) ?? '', /e-mail address/);
    assert.match(passwordProblem(`my ${email.toUpperCase()} pw`, { email }) ?? '', /e-mail/);
    assert.match(passwordProblem('Dana.Kowalski-2026!', { email }) ?? '', /e-mail/);
    // A name part under four characters would refuse too much: not compared.
    assert.equal(passwordProblem('a pal of mine is here', { email: 'pal@example.test' }), undefined);
  });

  test("the product's name in the password is refused, however written", () => {
    for (const password of [
      'facility-admin',
      'Facility Admin 2026',
      'my_facility_admin!',
      'FACILITYADMIN99',
    ]) {
      assert.match(passwordProblem(password, { email }) ?? '', /product's name/, password);
    }
  });

  test('a most common password is refused, in any case', () => {
    assert.match(passwordProblem('qwerty123456', { email }) ?? '', /most common/);
    assert.match(passwordProblem('QWERTY123456', { email }) ?? '', /most common/);
    assert.match(passwordProblem('1qaz2wsx3edc', { email }) ?? '', /most common/);
  });

  test('one character repeated is refused', () => {
    assert.match(passwordProblem('a'.repeat(20), { email }) ?? '', /repeated/);
  });

  test('a lone surrogate (no character) is refused', () => {
    assert.match(passwordProblem(`valid start \ud800 end`, { email }) ?? '', /invalid character/);
  });

  test('the bundled common passwords are those of the package (scripts/generate-common-passwords.ts)', () => {
    assert.deepEqual([...COMMON_PASSWORDS], commonPasswordsFromPackage());
    assert.ok(COMMON_PASSWORDS.size > 100);
  });
});
