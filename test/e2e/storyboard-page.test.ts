/**
 * `retrace paths show` end to end: a path with real PNG assets on disk, the real CLI, and the
 * storyboard page it writes rendered in headless Chromium, for a path and for a healed proposal.
 * Each crop is one plain colour, so the screenshot shows which images the page drew.
 */
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import type { Path, RecordedAction, Region } from '../../src/domain.ts';
import type { Rgba } from '../../src/vision/types.ts';
import { PathStore, assetName } from '../../src/paths/store.ts';
import { createFrame, encodePng } from '../../src/vision/frame.ts';
import { Project } from '../support/project.ts';
import { countPixels, screenshotPage } from '../support/page-shot.ts';
import { BrowserPage } from '../support/browser-page.ts';
import { storyboardPage } from '../../src/report/storyboard.ts';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const SPEC = 'specs/notes.yaml';
const ANCHOR: Rgba = [200, 0, 200, 255];
const TYPED: Rgba = [0, 190, 210, 255];
const HEALED: Rgba = [250, 150, 0, 255];

const near =
  (c: Rgba) =>
  (r: number, g: number, b: number): boolean =>
    Math.abs(r - c[0]) < 12 && Math.abs(g - c[1]) < 12 && Math.abs(b - c[2]) < 12;

/** A crop of one colour, as an asset. */
function crop(assets: Map<string, Uint8Array>, region: Region, colour: Rgba): string {
  const png = encodePng(createFrame(region.width, region.height, colour));
  const name = assetName(png);
  assets.set(name, png);
  return name;
}

function path(assets: Map<string, Uint8Array>, typedColour: Rgba): Path {
  const anchorBox = { x: 20, y: 20, width: 60, height: 30 };
  const field = { x: 20, y: 80, width: 200, height: 40 };
  const actions: RecordedAction[] = [
    {
      action: { kind: 'click', target: { text: 'New' } },
      anchor: { point: { x: 50, y: 35 }, box: anchorBox, image: crop(assets, anchorBox, ANCHOR), text: 'New' },
      before: 'a',
      after: 'b',
      effects: [],
      dynamic: [],
      settleMs: 120,
    },
    {
      action: { kind: 'type', text: 'Buy milk' },
      before: 'b',
      after: 'c',
      effects: [{ region: field, image: crop(assets, field, typedColour), text: 'Buy milk' }],
      dynamic: [],
      settleMs: 80,
    },
  ];
  return {
    version: 1,
    spec: SPEC,
    goal: 'save',
    source: { kind: 'steps', hash: 'h', text: '- click: New\n- type: Buy milk' },
    planner: 'scripted',
    window: { width: 400, height: 300 },
    actions,
  };
}

describe('retrace paths show', () => {
  const project = new Project().write(
    SPEC,
    'name: Notes\napp:\n  launch: notes\ngoals:\n  - id: save\n    steps: [click: New]\n  - id: other\n    goal: anything\n',
  );
  const store = new PathStore(join(project.root, 'paths'));
  const page = join(project.root, 'reports/storyboards/specs/notes/save.html');

  test('prints the actions and writes a storyboard with the target and effect images boxed', async () => {
    const assets = new Map<string, Uint8Array>();
    await store.write(path(assets, TYPED), assets);
    const result = await project.cli(['paths', 'show', `${SPEC}#save`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${SPEC}#save: 2 actions, made by scripted from its steps, window 400×300`);
    expect(result.stdout).toContain('1. click "New" on "New" at (50, 35); 0 effects, settled in 120 ms');
    expect(result.stdout).toContain('storyboard: reports/storyboards/specs/notes/save.html');

    const shot = await screenshotPage(page);
    expect(countPixels(shot, near(ANCHOR))).toBeGreaterThan(200);
    expect(countPixels(shot, near(TYPED))).toBeGreaterThan(1000);
    expect(countPixels(shot, near([224, 32, 42, 255]))).toBeGreaterThan(100);
    expect(countPixels(shot, near([16, 160, 64, 255]))).toBeGreaterThan(100);
    expect(countPixels(shot, near(HEALED))).toBe(0);
  }, 60_000);

  test('shows a healed proposal beside the original, to a given file', async () => {
    const assets = new Map<string, Uint8Array>();
    await store.propose(path(assets, HEALED), assets);
    const result = await project.cli(['paths', 'show', `${SPEC}#save`, '--html', 'review.html']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`a healed proposal waits: retrace paths accept|reject ${SPEC}#save`);
    expect(project.read('review.html')).toContain('proposal: before');

    const shot = await screenshotPage(join(project.root, 'review.html'), [1800, 900]);
    expect(countPixels(shot, near(TYPED))).toBeGreaterThan(1000);
    expect(countPixels(shot, near(HEALED))).toBeGreaterThan(1000);
  }, 60_000);

  test('a bare --html writes where its help says, and the list names the path as every command takes it', async () => {
    const result = await project.cli(['paths', 'show', `${SPEC}#save`, '--html']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('storyboard: reports/storyboards/specs/notes/save.html');
    const listed = await project.cli(['paths']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${SPEC.replace('.', '\\.')}#save  `, 'm'));
  });

  test("the last run's windows are previews that open at full size", async () => {
    const assets = new Map<string, Uint8Array>();
    const recorded = path(assets, TYPED);
    const full = encodePng(createFrame(800, 600, HEALED));
    const html = storyboardPage({
      original: { path: recorded, asset: (name) => assets.get(name)! },
      lastRunWindows: new Map([[1, { before: full, after: full }]]),
    });
    const file = join(project.root, 'last-run.html');
    writeFileSync(file, html);
    const page = await BrowserPage.open(pathToFileURL(file).href);
    // The images decoded and the page painted twice since: a screenshot sooner can show the last layout.
    const painted = `Promise.all([...document.images].map((i) => i.decode().catch(() => undefined)))
      .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))`;
    try {
      await page.evaluate(painted);
      const preview = countPixels(await page.screenshot(), near(HEALED));
      await page.evaluate(`location.hash = 'run-2-after'`);
      await page.evaluate(painted);
      const zoomed = countPixels(await page.screenshot(), near(HEALED));
      // Previews 360 px wide (the page is wider than the view: at least one shows); then one image at its full 800×600.
      expect(preview).toBeGreaterThan(360 * 260);
      expect(preview).toBeLessThan(2 * 360 * 280);
      expect(zoomed).toBeGreaterThanOrEqual(800 * 600);
    } finally {
      await page.close();
    }
  }, 60_000);

  test('a goal without a path is bad input', async () => {
    const result = await project.cli(['paths', 'show', `${SPEC}#other`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${SPEC}#other: no recorded path`);
  });
});
