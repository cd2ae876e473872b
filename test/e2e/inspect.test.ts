/**
 * `retrace inspect` end to end: real zenity dialogs on retrace's own display (their elements read
 * over its accessibility bus, as a run reads them), real OCR, and the page it writes rendered in
 * headless Chromium; and an X app that publishes no elements.
 */
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Project } from '../support/project.ts';
import { countPixels, screenshotPage } from '../support/page-shot.ts';
import type { Inspection } from '../../src/author/inspect.ts';
import { escapeHtml } from '../../src/safe-text.ts';
import { BrowserPage } from '../support/browser-page.ts';
import { pathToFileURL } from 'node:url';

const SPEC = `# a zenity dialog
name: Zenity
app:
  launch: zenity --info --title "Retrace Info" --text "The file was saved."
  window: Retrace Info
goals:
  - id: ok
    goal: click "OK"
`;

const FORM_SPEC = `# a zenity form
name: Form
app:
  launch: zenity --forms --title "Retrace Form" --text Details --add-entry Name --add-entry "<b>&amp;City</b>"
  window: Retrace Form
goals:
  - id: fill
    goal: type "Alice" into entry "Name"
`;

const NO_TREE_SPEC = `# xmessage (Athena widgets) publishes nothing over the accessibility bus
name: Message
app:
  launch: xmessage -name retrace-message -title "Retrace Message" "Nothing to read here"
  window: Retrace Message
goals:
  - id: ok
    goal: click "okay"
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
    expect(inspection.elements.find((e) => e.role === 'button' && e.name === 'OK')?.target).toBe('click button "OK"');
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

  test("lists the app's elements (role, name, states, box, target) in inspect.json and on the page", async () => {
    project.write('specs/form.yaml', FORM_SPEC);
    const result = await project.cli(['inspect', 'specs/form.yaml']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const inspection = JSON.parse(project.read('reports/inspect/specs/form/inspect.json')) as Inspection;
    expect(inspection.elementsSource).toBe('atspi');
    expect(inspection.elementsNote).toBeNull();
    const { width, height } = inspection.window;
    const named = (role: string, name: string) => inspection.elements.find((e) => e.role === role && e.name === name);
    const expected: [string, string, string][] = [
      ['entry', 'Name', 'type "…" into entry "Name"'],
      ['entry', '<b>&amp;City</b>', 'type "…" into entry "<b>&amp;City</b>"'],
      ['button', 'OK', 'click button "OK"'],
    ];
    const html = project.read('reports/inspect/specs/form/index.html');
    for (const [role, name, target] of expected) {
      const e = named(role, name);
      expect(e, `${role} ${name} in ${JSON.stringify(inspection.elements.map((x) => [x.role, x.name]))}`).toBeDefined();
      expect(e!.target).toBe(target);
      expect(e!.states).toContain('showing');
      expect(e!.box.width).toBeGreaterThan(0);
      expect(e!.box.x + e!.box.width).toBeLessThanOrEqual(width);
      expect(e!.box.y + e!.box.height).toBeLessThanOrEqual(height);
      // Its row on the page: escaped, never markup.
      expect(html).toContain(`<td>${escapeHtml(name)}</td>`);
      expect(html).toContain(`<code>${escapeHtml(target)}</code>`);
    }
    expect(named('entry', 'Name')!.states).toEqual(expect.arrayContaining(['editable', 'sensitive']));
    // The tree: the window first, every other element deeper.
    expect(inspection.elements[0]!.depth).toBe(0);
    expect(html).not.toContain('<b>&amp;City</b></td>');
    expect((html.match(/<tr class="el"/g) ?? []).length).toBe(inspection.elements.length);

    // In a browser, as a person uses it: the pointer over the OK row draws its box on the window;
    // a click on the row offers its target.
    const page = await BrowserPage.open(pathToFileURL(join(project.root, 'reports/inspect/specs/form/index.html')).href);
    try {
      const i = inspection.elements.indexOf(named('button', 'OK')!);
      const row = await page.evaluate<{ x: number; y: number }>(
        `(() => { const row = document.querySelector('tr.el[data-i="${i}"]'); row.scrollIntoView({ block: 'center' }); const r = row.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
      );
      const mouse = (type: string) => page.send('Input.dispatchMouseEvent', { type, x: row.x, y: row.y, button: 'left', clickCount: 1 });
      await mouse('mouseMoved');
      const pick = await page.evaluate<string>(
        `(() => { const s = document.getElementById('pick').style; return [s.display, s.left, s.top, s.width, s.height].join(' '); })()`,
      );
      const { x, y, width: w, height: h } = named('button', 'OK')!.box;
      expect(pick).toBe(`block ${x}px ${y}px ${w}px ${h}px`);
      await mouse('mousePressed');
      await mouse('mouseReleased');
      expect(await page.evaluate<string>(`document.getElementById('snips').textContent`)).toContain('click button "OK"');
    } finally {
      await page.close();
    }
  }, 120_000);

  test('an app that publishes no elements: elements [] and a line saying so', async () => {
    project.write('specs/message.yaml', NO_TREE_SPEC);
    const result = await project.cli(['inspect', 'specs/message.yaml']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const inspection = JSON.parse(project.read('reports/inspect/specs/message/inspect.json')) as Inspection;
    expect(inspection.elements).toEqual([]);
    expect(inspection.elementsNote).toMatch(/publishes no elements/);
    expect(result.stdout).toMatch(/no elements: the application publishes no elements/);
    expect(project.read('reports/inspect/specs/message/index.html')).toContain(
      '<p class="none" id="elements">No elements: the application publishes no elements',
    );
  }, 120_000);
});
