/** relationTargets: the refs a GetRelationSet reply relates by one type, from any reply a bus may send. */
import { describe, expect, test } from 'vitest';
import { relationTargets } from '../../src/desktop/atspi/read-tree.ts';
import { RELATION_LABEL_FOR, RELATION_LABELLED_BY } from '../../src/desktop/atspi/roles.ts';

describe('relationTargets', () => {
  const reply = [
    [
      [RELATION_LABEL_FOR, [[':1.7', '/org/a11y/atspi/accessible/12']]],
      [RELATION_LABELLED_BY, [[':1.7', '/org/a11y/atspi/accessible/3']]],
    ],
  ];

  test('the refs of the relation asked for, and only those', () => {
    expect(relationTargets(reply, RELATION_LABEL_FOR)).toEqual([':1.7/org/a11y/atspi/accessible/12']);
    expect(relationTargets(reply, RELATION_LABELLED_BY)).toEqual([':1.7/org/a11y/atspi/accessible/3']);
    expect(relationTargets(reply, 9)).toEqual([]);
  });

  test('a reply that is not a relation set relates nothing', () => {
    for (const bad of [undefined, [], [42], [[[RELATION_LABEL_FOR, 'x']]], [[[RELATION_LABEL_FOR, [[1, 2], 'y', [':1.7']]]]], [[null]]]) {
      expect(relationTargets(bad, RELATION_LABEL_FOR)).toEqual([]);
    }
  });
});
