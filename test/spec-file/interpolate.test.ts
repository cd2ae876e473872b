import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.ts';
import {
  containsSecret,
  describeForDisplay,
  interpolate,
  parseTemplate,
  placeholders,
  resolveTemplate,
} from '../../src/spec-file/interpolate.ts';
import { MASK, SecretMasker } from '../../src/spec-file/secrets.ts';

describe('interpolate', () => {
  const env = { USER_NAME: 'Ada', TOKEN: 's3cr3t-token', EMPTY: '' };

  it('replaces env and secret placeholders', () => {
    const masker = new SecretMasker();
    expect(interpolate('Hello, ${env.USER_NAME}! ${secret.TOKEN}', env, { masker })).toBe('Hello, Ada! s3cr3t-token');
    expect(interpolate('${ env.USER_NAME }', env, { masker })).toBe('Ada');
    expect(interpolate('[${env.EMPTY}]', env, { masker })).toBe('[]');
  });

  it('leaves text without placeholders alone, and $${ writes a literal ${', () => {
    expect(interpolate('cost: $5, {braces}', env)).toBe('cost: $5, {braces}');
    expect(interpolate('$${env.USER_NAME} is ${env.USER_NAME}', env)).toBe('${env.USER_NAME} is Ada');
  });

  it('teaches the masker every secret it resolves, and only secrets', () => {
    const masker = new SecretMasker();
    interpolate('${env.USER_NAME} ${secret.TOKEN}', env, { masker });
    expect(masker.mask('user Ada typed s3cr3t-token')).toBe(`user Ada typed ${MASK}`);
  });

  it('throws InvalidInputError naming the unset variable, without revealing secrets', () => {
    expect(() => interpolate('${env.NOPE}', env)).toThrow(InvalidInputError);
    expect(() => interpolate('${env.NOPE}', env)).toThrow('the environment variable NOPE is not set');
    expect(() => interpolate('${secret.TOKEN} ${secret.GONE}', env)).toThrow(
      `"${MASK} ${MASK}" uses \${secret.GONE}, but the secret GONE is not set`,
    );
  });

  it('rejects unknown namespaces and malformed placeholders', () => {
    expect(() => interpolate('${foo.X}', env)).toThrow('unknown namespace "foo" (expected env or secret)');
    expect(() => interpolate('${USER_NAME}', env)).toThrow('malformed placeholder "${USER_NAME}"');
    expect(() => interpolate('${env.X', env)).toThrow('unterminated placeholder');
  });
});

describe('placeholders, containsSecret, describeForDisplay', () => {
  it('lists well-formed placeholders with their positions', () => {
    expect(placeholders('a ${env.A} b ${secret.B} ${foo.C}')).toEqual([
      { namespace: 'env', name: 'A', raw: '${env.A}', index: 2 },
      { namespace: 'secret', name: 'B', raw: '${secret.B}', index: 13 },
    ]);
    expect(parseTemplate('${foo.C}').problems).toEqual([{ kind: 'unknown-namespace', namespace: 'foo', raw: '${foo.C}', index: 0 }]);
  });

  it('says whether a template reveals a secret', () => {
    expect(containsSecret('${secret.PASSWORD}')).toBe(true);
    expect(containsSecret('${env.PASSWORD}')).toBe(false);
    expect(containsSecret('$${secret.PASSWORD}')).toBe(false);
  });

  it('shows secrets as •••• and keeps the rest as written', () => {
    expect(describeForDisplay('login ${env.USER} / ${secret.PASSWORD}!')).toBe(`login \${env.USER} / ${MASK}!`);
  });

  it('resolves without side effects, reporting every problem', () => {
    expect(resolveTemplate('${env.A}${secret.B}', { A: '1', B: '2' })).toEqual({ ok: true, value: '12', secrets: ['2'] });
    const r = resolveTemplate('${env.A} ${secret.B}', {});
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toHaveLength(2);
  });
});

describe('SecretMasker', () => {
  it('masks every occurrence of every learned secret', () => {
    const m = new SecretMasker();
    m.learn('hunter2');
    m.learn('tok-123');
    expect(m.mask('pw=hunter2 token=tok-123 again hunter2')).toBe(`pw=${MASK} token=${MASK} again ${MASK}`);
    expect(m.reveals('nothing here')).toBe(false);
    expect(m.reveals('xhunter2x')).toBe(true);
  });

  it('masks the longer of two overlapping secrets whole', () => {
    const m = new SecretMasker();
    m.learn('abc');
    m.learn('abcdef');
    expect(m.mask('abcdef abc')).toBe(`${MASK} ${MASK}`);
  });

  it('masks secrets with regex characters and their JSON-escaped spelling', () => {
    const m = new SecretMasker();
    m.learn('a.b*"c\\d');
    expect(m.mask('x a.b*"c\\d y')).toBe(`x ${MASK} y`);
    expect(m.mask(JSON.stringify({ typed: 'a.b*"c\\d' }))).toBe(`{"typed":"${MASK}"}`);
    expect(m.mask('aXb')).toBe('aXb');
  });

  it('masks what OCR makes of a secret: a changed case, a misread letter, a split word', () => {
    const m = new SecretMasker();
    m.learn('Zebra7Quartz');
    expect(m.mask('the screen shows: "Zebra7QuartZ"')).toBe(`the screen shows: "${MASK}"`);
    expect(m.mask('Saved Zebra7Ouartz.')).toBe(`Saved ${MASK}.`);
    expect(m.mask('list: Zebra7 Quartz, done')).toBe(`list: ${MASK}, done`);
    // Far enough from the secret to be something else.
    expect(m.mask('Zebra Quarry Zebra7')).toBe('Zebra Quarry Zebra7');
    expect(m.isVariant('zebra7quartz')).toBe(true);
    expect(m.isVariant('Zebra8Qu4rtz')).toBe(true);
    expect(m.isVariant('Zebra8Qu4rtx')).toBe(false);
  });

  it('masks short secrets exactly only: their near misses are ordinary words', () => {
    const m = new SecretMasker();
    m.learn('hunt2');
    expect(m.mask('hunt2 hunt3 Hunt2')).toBe(`${MASK} hunt3 Hunt2`);
  });

  it('masks short secrets too (documented: every occurrence of them)', () => {
    const m = new SecretMasker();
    m.learn('7');
    expect(m.mask('1 7 77')).toBe(`1 ${MASK} ${MASK}${MASK}`);
  });

  it('ignores an empty secret and can be cleared', () => {
    const m = new SecretMasker();
    m.learn('');
    expect(m.size).toBe(0);
    expect(m.mask('abc')).toBe('abc');
    m.learn('abc');
    m.clear();
    expect(m.mask('abc')).toBe('abc');
  });
});
