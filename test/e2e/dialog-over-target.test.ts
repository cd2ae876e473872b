/**
 * A dialog drawn over the edge of the button that opened it (issue 24): the Qt order form of the
 * toolkit corpus (fixtures/apps/order/qt-order.py, its widgets published) opens its in-window
 * dialog — a frame Qt publishes as a window — 1 px over Submit's lower edge. The pixels cannot
 * tell Submit's pressed look from the dialog there; the tree can: Submit did not change, and
 * the dialog came whole. So the path learned on the base form keeps Submit's look as feedback
 * and the dialog as element effects, and replays where the buttons moved below the list
 * (`look=moved-buttons`) — as its pixels, one text "Submit / Order sent for Alice / OK", it
 * failed there. A wrong dialog in that moved layout (`bug=wrong-dialog`) still fails.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';
import { TOOLKIT_CASES, writeToolkitBase, writeToolkitVariants, type ToolkitCase } from '../support/toolkit-corpus.ts';

const RUN_MS = 300_000;

const moved = TOOLKIT_CASES.find((c) => c.app === 'qt' && c.args.join(',') === 'look=moved-buttons') as ToolkitCase;
const CASES: readonly ToolkitCase[] = [
  { ...moved, goals: ['submit'] },
  {
    ...moved,
    kind: 'regression',
    args: ['look=moved-buttons', 'bug=wrong-dialog'],
    goals: ['submit'],
    description: 'Submit moved below the list, and its dialog says "Order failed for Alice".',
  },
];

describe('a dialog drawn over the edge of the button that opened it (Qt 5)', () => {
  const project = new Project();
  let ids: Map<string, ToolkitCase>;

  beforeAll(async () => {
    writeToolkitBase(project, { qt: ['submit'] });
    const learned = await project.cli(['run', 'specs/base', '--planner', 'rules'], {}, RUN_MS);
    expect(learned.code, `learning failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    ids = writeToolkitVariants(project, CASES);
    await project.cli(['run', 'specs/variants', '--learn', 'off', '--strict'], {}, RUN_MS);
  }, 2 * RUN_MS);

  test('learning keeps Submit’s look as its feedback and the dialog as what the tree says', () => {
    const path = JSON.parse(project.read('paths/specs/base/qt/submit.path.json')) as Path;
    const click = path.actions[1];
    expect(click?.action).toMatchObject({ kind: 'click', target: { role: 'button', name: 'Submit' } });
    expect(click?.elements?.map((e) => [e.role, e.name, e.change])).toEqual([
      ['window', 'Order', 'appeared'],
      ['label', 'Order sent for Alice', 'appeared'],
      ['button', 'OK', 'appeared'],
    ]);
    // No pixel effect decides: the button pressed is feedback, the dialog element evidence.
    expect(click?.effects.map((e) => e.kind)).toEqual(['feedback', 'element']);
  });

  test('the moved layout replays green; a wrong dialog in it fails', () => {
    const verdicts = project.summary().goals.map((g) => [ids.get(g.spec)?.kind, g.status, g.message ?? '']);
    expect(verdicts).toHaveLength(2);
    expect(verdicts.find(([kind]) => kind === 'benign')).toEqual(['benign', 'passed', '']);
    const wrong = verdicts.find(([kind]) => kind === 'regression');
    expect(wrong?.[1]).toBe('failed');
    expect(wrong?.[2]).toContain('Order failed for Alice');
  });
});
