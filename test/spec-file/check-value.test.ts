import { describe, expect, test } from 'vitest';
import { valueIssue, valueProblem } from '../../src/spec-file/check-value.ts';
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

  test('a keyed union picks its variant by the value under the key; a value no variant takes is named', () => {
    const shape = {
      type: 'union',
      key: 'kind',
      variants: [
        obj({ kind: { doc: '', shape: oneOf(['a']) }, n: { doc: '', shape: int(), required: true } }),
        obj({ kind: { doc: '', shape: oneOf(['b', 'c']), required: true }, s: { doc: '', shape: str(), required: true } }),
      ],
    } as const;
    expect(valueProblem({ kind: 'b', s: 'x' }, shape)).toBeUndefined();
    expect(valueProblem({ n: 1 }, shape)).toBeUndefined();
    expect(valueProblem({ kind: 'c', n: 1 }, shape)).toBe('s must be a string, got nothing');
    expect(valueIssue({ list: [{ kind: 'd' }] }, obj({ list: { doc: '', shape: list(shape) } }))).toEqual({
      where: ['list', 0, 'kind'],
      message: 'list[0].kind must be one of a, b, c, got "d"',
    });
  });

  test('a whole mapping is judged in its own words; a nullable key takes null; a key combo must be one', () => {
    const point = obj(
      { x: { doc: '', shape: int({ maximum: 9 }), required: true }, y: { doc: '', shape: int({ maximum: 9 }), required: true } },
      { whole: true, label: 'a point inside 10×10' },
    );
    expect(valueProblem({ x: 10, y: 0 }, point)).toBe('the value must be a point inside 10×10, got {"x":10,"y":0}');
    const exit = obj({ code: { doc: '', shape: int(), required: true, nullable: true } });
    expect(valueProblem({ code: null }, exit)).toBeUndefined();
    expect(valueProblem({ code: 'x' }, exit)).toBe('code must be an integer, got "x"');
    expect(valueProblem({ combo: 'ctrl+shfit+s' }, obj({ combo: { doc: '', shape: str({ format: 'key-combo' }) } }))).toMatch(
      /^combo "ctrl\+shfit\+s" is not a key combo: .*shfit/,
    );
  });
});
