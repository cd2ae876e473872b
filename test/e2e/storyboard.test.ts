/**
 * Storyboards of real paths, end to end: a goal learned on the counter fixture, replayed on a
 * variant where its button moved (so the replay heals and proposes a new path), and
 * `retrace paths show --html` for each, rendered in headless Chromium. Each page is also
 * rendered with some of its images taken out: the pixels that differ are the images the page
 * drew, so a broken or missing image fails the test.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Path } from '../../src/domain.ts';
import { PathStore } from '../../src/paths/store.ts';
import { Project } from '../support/project.ts';
import { countPixels, screenshotPage } from '../support/page-shot.ts';

const SPEC = `name: Counter
app:
  launch: \${env.FIXTURES}/open counter "\${env.VARIANT}"
  window: Retrace Counter
goals:
  - id: add
    goal: click "Add"
    expect:
      - text: "Count: 1"
`;
const REF = 'specs/counter.yaml#add';

/** Pixels that differ between two screenshots of one size. */
function differing(a: Frame, b: Frame): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4)
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
  return n;
}

/** Window pixels a path's storyboard shows as images: each action's anchor and effect crops. */
const imageArea = (path: Path): number =>
  path.actions.reduce(
    (n, a) =>
      n +
      (a.anchor ? a.anchor.box.width * a.anchor.box.height : 0) +
      a.effects.reduce((m, e) => m + (e.image ? e.region.width * e.region.height : 0), 0),
    0,
  );

/**
 * The page with the images of some panel cells removed. A row's cells: #, action, then the
 * original's before and after panels, then (with a proposal) the proposal's, then its action.
 */
function withoutImages(html: string, cells: readonly number[]): string {
  return html.replace(/<tr( class="healed")?><td>\d+<\/td>[\s\S]*?<\/tr>/g, (row) =>
    row
      .split('</td>')
      .map((cell, i) => (cells.includes(i) ? cell.replace(/<img [^>]*>/g, '') : cell))
      .join('</td>'),
  );
}

describe('storyboards of a learned and a healed path', () => {
  const project = new Project().write('specs/counter.yaml', SPEC);
  const store = new PathStore(join(project.root, 'paths'));
  const shoot = async (name: string, html: string, size: readonly [number, number]): Promise<Frame> => {
    const file = join(project.root, name);
    writeFileSync(file, html);
    return screenshotPage(file, size);
  };

  beforeAll(async () => {
    const learned = await project.cli(['run', '--goal', 'add'], { VARIANT: '' });
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    expect(project.summary().goals).toMatchObject([{ goal: 'add', status: 'passed', mode: 'learned' }]);
  }, 180_000);

  test('the learned path: the page draws its anchor and effect images', async () => {
    const shown = await project.cli(['paths', 'show', REF, '--html', 'learned.html']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('storyboard: learned.html');
    const path = store.read('specs/counter.yaml', 'add')!;
    expect(path.actions[0]?.anchor?.text).toBe('Add');
    expect(path.actions[0]?.effects.length).toBeGreaterThan(0);

    const html = project.read('learned.html');
    const [page, bare] = await Promise.all([
      shoot('learned-shot.html', html, [1200, 420]),
      shoot('learned-bare.html', withoutImages(html, [2, 3]), [1200, 420]),
    ]);
    // The counter's window (360 px wide) is drawn at scale 1; most of a crop differs from the grey.
    expect(differing(page, bare)).toBeGreaterThan(imageArea(path) / 2);
  }, 120_000);

  test('the healed path: the original and the proposal side by side, each with its images', async () => {
    const healed = await project.cli(['run', '--goal', 'add', '--learn', 'off'], { VARIANT: 'layout=swapped' });
    expect(healed.code, healed.stdout + healed.stderr).toBe(0);
    expect(project.summary().goals).toMatchObject([{ goal: 'add', status: 'passed', mode: 'healed' }]);
    const original = store.read('specs/counter.yaml', 'add')!;
    const proposal = store.readProposal('specs/counter.yaml', 'add')!;
    expect(proposal, 'a healed replay proposes its path').toBeDefined();
    // The button moved: the proposal's target is elsewhere.
    expect(proposal.actions[0]?.anchor?.box).not.toEqual(original.actions[0]?.anchor?.box);

    const shown = await project.cli(['paths', 'show', REF, '--html', 'healed.html']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`a healed proposal waits: retrace paths accept|reject ${REF}`);

    const html = project.read('healed.html');
    const size = [2200, 420] as const;
    const [page, noProposal, bare] = await Promise.all([
      shoot('healed-shot.html', html, size),
      shoot('healed-original.html', withoutImages(html, [4, 5]), size),
      shoot('healed-bare.html', withoutImages(html, [2, 3, 4, 5]), size),
    ]);
    expect(differing(noProposal, bare), "the original's images").toBeGreaterThan(imageArea(original) / 2);
    expect(differing(page, noProposal), "the proposal's images").toBeGreaterThan(imageArea(proposal) / 2);
    // The action that changed is highlighted (#fff6d8) for the reviewer.
    expect(countPixels(page, (r, g, b) => r === 255 && g === 246 && b === 216)).toBeGreaterThan(1000);
  }, 180_000);
});
