/**
 * The module cache holds code the workers run: it is a private folder of the user's, and a folder
 * someone else could write to, or a link to one, is not used.
 */
import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { moduleCacheDir } from '../../src/runner/module-cache.ts';

const home = (): string => mkdtempSync(join(tmpdir(), 'retrace-cache-'));

test('a new cache folder is made private under $XDG_CACHE_HOME', () => {
  const base = home();
  const dir = moduleCacheDir({ XDG_CACHE_HOME: base });
  expect(dir).toBe(join(base, 'retrace', 'vitest-modules'));
  expect(statSync(dir!).mode & 0o777).toBe(0o700);
  expect(statSync(join(base, 'retrace')).mode & 0o777).toBe(0o700);
  expect(moduleCacheDir({ XDG_CACHE_HOME: base })).toBe(dir); // found again
});

test('a cache folder, or its parent, that others can write to is not used', () => {
  const base = home();
  const dir = moduleCacheDir({ XDG_CACHE_HOME: base })!;
  chmodSync(dir, 0o777);
  expect(moduleCacheDir({ XDG_CACHE_HOME: base })).toBeUndefined();
  chmodSync(dir, 0o700);
  chmodSync(join(base, 'retrace'), 0o775);
  expect(moduleCacheDir({ XDG_CACHE_HOME: base })).toBeUndefined();
});

test('a link in place of the cache folder is not followed', () => {
  const base = home();
  const elsewhere = home();
  mkdirSync(join(base, 'retrace'), { mode: 0o700 });
  symlinkSync(elsewhere, join(base, 'retrace', 'vitest-modules'));
  expect(moduleCacheDir({ XDG_CACHE_HOME: base })).toBeUndefined();
});
