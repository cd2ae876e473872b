/**
 * A dialog drawn over the edge of the button that opened it (issue 24): the Qt order form of the
 * toolkit corpus (fixtures/apps/order/qt-order.py, its widgets published) opens its in-window
 * dialog — a frame Qt publishes as a window — 1 px over Submit's lower edge. The pixels cannot
 * tell Submit's pressed look from the dialog there; the tree can: Submit did not change, and
 * the dialog came whole. So the path learned on the base form keeps Submit's look as feedback
 * and the dialog as element effects, and replays where the buttons moved below the list
 * (`look=moved-buttons`) — as its pixels, one text "Submit / Order sent for Alice / OK", it
 * failed there. A wrong dialog in that moved layout (`bug=wrong-dialog`) still fails, also where
 * the tree cannot be read (`RETRACE_ACCESSIBILITY=off`): the dialog's evidence is then its pixels.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';
import type { Summary } from '../../src/report/summary.ts';
import { TOOLKIT_CASES, writeToolkitBase, writeToolkitVariants, type ToolkitCase } from '../support/toolkit-corpus.ts';

const RUN_MS = 300_000;

type Verdict = [kind: string | undefined, status: string, message: string];

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
  let withTree: Verdict[];
  let treeless: Verdict[];
  const verdicts = (summary: Summary): Verdict[] => summary.goals.map((g) => [ids.get(g.spec)?.kind, g.status, g.message ?? '']);

  beforeAll(async () => {
    writeToolkitBase(project, { qt: ['submit'] });
    const learned = await project.cli(['run', 'specs/base', '--planner', 'rules'], {}, RUN_MS);
    expect(learned.code, `learning failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    ids = writeToolkitVariants(project, CASES);
    await project.cli(['run', 'specs/variants', '--learn', 'off', '--strict'], {}, RUN_MS);
    withTree = verdicts(project.summary());
    const regression = [...ids].find(([, c]) => c.kind === 'regression')?.[0] as string;
    await project.cli(['run', regression, '--learn', 'off', '--strict'], { RETRACE_ACCESSIBILITY: 'off' }, RUN_MS);
    treeless = verdicts(project.summary());
  }, 3 * RUN_MS);

  test('learning keeps Submit’s look as its feedback and the dialog as what the tree says', () => {
    const path = JSON.parse(project.read('paths/specs/base/qt/submit.path.json')) as Path;
    const click = path.actions[1];
    expect(click?.action).toMatchObject({ kind: 'click', target: { role: 'button', name: 'Submit' } });
    expect(click?.elements?.map((e) => [e.role, e.name, e.change])).toEqual([
      ['window', 'Order', 'appeared'],
      ['label', 'Order sent for Alice', 'appeared'],
      ['button', 'OK', 'appeared'],
    ]);
    // No pixel effect decides: the button pressed is feedback, the dialog element evidence,
    // with the words it shows (its element's name, "Order", is its title).
    expect(click?.effects.map((e) => e.kind)).toEqual(['feedback', 'element']);
    expect(click?.effects[1]?.text).toMatch(/^Order sent for Alice\b/);
  });

  test('the moved layout replays green; a wrong dialog in it fails', () => {
    expect(withTree).toHaveLength(2);
    expect(withTree.find(([kind]) => kind === 'benign')).toEqual(['benign', 'passed', '']);
    const wrong = withTree.find(([kind]) => kind === 'regression');
    expect(wrong?.[1]).toBe('failed');
    expect(wrong?.[2]).toContain('Order failed for Alice');
  });

  test('where the tree cannot be read, the wrong dialog still fails: what the tree decided is checked by its pixels', () => {
    expect(treeless).toHaveLength(1);
    expect(treeless[0]?.[1]).toBe('failed');
    expect(treeless[0]?.[2]).toContain('Order failed for Alice');
  });
});
