import { describe, expect, test } from 'vitest';
import { valueProblem } from '../../src/spec-file/check-value.ts';
import { bool, int, list, num, obj, oneOf, str } from '../../src/spec-file/shape.ts';

const item = obj({
  name: { doc: 'a name', shape: str({ minLength: 1 }), required: true },
  size: { doc: 'a size', shape: int({ minimum: 1 }) },
});

describe('valueProblem: the shape language on a JSON value', () => {
  test('a value of its shape has no problem; unknown keys pass only an open mapping', () => {
    expect(valueProblem({ name: 'a', size: 2 }, item)).toBeUndefined();
    expect(valueProblem({ name: 'a', extra: 1 }, item)).toBe('the value has an unknown key "extra"');
    expect(valueProblem({ name: 'a', extra: 1 }, obj(item.type === 'object' ? item.fields : {}, { open: true }))).toBeUndefined();
  });

  test('the first problem is named by its JSON path, in the words of describeShape', () => {
    const shape = obj({ items: { doc: 'items', shape: list(item, { minItems: 1 }), required: true } });
    expect(valueProblem({ items: [] }, shape)).toBe('items must be a list of a mapping, got []');
    expect(valueProblem({ items: [{ name: 'a' }, { name: '' }] }, shape)).toBe('items[1].name must be a non-empty string, got ""');
    expect(valueProblem({ items: [{ name: 'a', size: 1.5 }] }, shape)).toBe('items[0].size must be an integer ≥ 1, got 1.5');
    expect(valueProblem({}, shape)).toBe('items must be a list of a mapping, got nothing');
  });

  test('numbers are finite and in range, enums exact, booleans booleans', () => {
    expect(valueProblem(-1, num({ minimum: 0 }))).toBe('the value must be a number ≥ 0, got -1');
    expect(valueProblem(Number.NaN, num())).toBe('the value must be a number, got null');
    expect(valueProblem('Passed', oneOf(['passed', 'failed']))).toBe('the value must be one of passed, failed, got "Passed"');
    expect(valueProblem('true', bool())).toBe('the value must be true or false, got "true"');
    expect(valueProblem(true, bool())).toBeUndefined();
  });
});
