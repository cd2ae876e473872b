/**
 * `retrace inspect` end to end: a real zenity dialog on retrace's own display, real OCR, and the
 * page it writes rendered in headless Chromium.
 */
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Project } from '../support/project.ts';
import { countPixels, screenshotPage } from '../support/page-shot.ts';
import type { Inspection } from '../../src/author/inspect.ts';

const SPEC = `# a zenity dialog
name: Zenity
app:
  launch: zenity --info --title "Retrace Info" --text "The file was saved."
  window: Retrace Info
goals:
  - id: ok
    goal: click "OK"
`;

/** The word boxes' border colour on the page: rgba(0, 90, 255, .9) over the window. */
const isWordBlue = (r: number, g: number, b: number): boolean => r < 60 && g > 60 && g < 130 && b > 200;

describe('retrace inspect', () => {
  const project = new Project().write('specs/zenity.yaml', SPEC);

  test('lists the word "OK" with a box inside the window, and the page draws the boxes', async () => {
    const result = await project.cli(['inspect', 'specs/zenity.yaml']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const dir = join(project.root, 'reports/inspect/specs/zenity');
    const inspection = JSON.parse(project.read('reports/inspect/specs/zenity/inspect.json')) as Inspection;
    const { width, height } = inspection.window;
    expect(inspection.window.title).toBe('Retrace Info');
    const ok = inspection.words.find((w) => w.text === 'OK');
    expect(ok, JSON.stringify(inspection.words)).toBeDefined();
    const box = ok!.box;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    expect(ok!.confidence).toBeGreaterThan(50);
    // The OK button is a control the segmenter finds, and the word lies inside it.
    expect(inspection.controls.some((c) => c.box.x <= box.x && c.box.y <= box.y && c.box.x + c.box.width >= box.x + box.width)).toBe(true);
    expect(inspection.elements).toEqual([]);
    expect(project.exists('reports/inspect/specs/zenity/window.png')).toBe(true);

    // The same page without its word boxes: the blue the boxes add is the difference.
    const html = project.read('reports/inspect/specs/zenity/index.html');
    const bare = join(dir, 'bare.html');
    writeFileSync(bare, html.replace(/<div class="box word"[^>]*><\/div>/g, ''));
    const [drawn, without] = await Promise.all([screenshotPage(join(dir, 'index.html')), screenshotPage(bare)]);
    const added = countPixels(drawn, isWordBlue) - countPixels(without, isWordBlue);
    // Each word box is outlined: at least its perimeter in pixels, for every word.
    const perimeters = inspection.words.reduce((n, w) => n + w.box.width + w.box.height, 0);
    expect(added).toBeGreaterThan(perimeters);
  }, 120_000);
});
