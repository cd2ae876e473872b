/**
 * A `text:` expectation read where the element tree says the text is (`textPlaces` of
 * src/brain/elements.ts), on a real GTK 3 app (fixtures/apps/gtk-shown.py): text that is shown
 * passes, read inside its element's box or, when no element publishes it, in the whole window; a
 * name the tree holds but the window does not show — an icon button's, a label's accessible name other than
 * what it draws, a label scrolled out of its list — fails.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertText } from '../../src/brain/assert/text.ts';
import { Stage } from '../../src/brain/stage.ts';
import { pollUntil } from '../../src/desktop/poll.ts';
import type { AppSession } from '../../src/desktop/types.ts';
import { closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { getTestDesktop } from '../support/desktop.ts';

const APP = fileURLToPath(new URL('../../fixtures/apps/gtk-shown.py', import.meta.url));

let app: AppSession;
let stage: Stage;

beforeAll(async () => {
  const desktop = await getTestDesktop();
  expect(desktop.elements, 'the test display has an accessibility bus').toBeDefined();
  app = await desktop.launch({ launch: `/usr/bin/python3 ${APP}`, window: 'Retrace GTK shown' });
  // Apps register on the bus a moment after their window maps.
  const published = await pollUntil(
    async () => ((await desktop.elements!.read(app)).some((e) => e.name === 'Send order') ? true : undefined),
    { timeoutMs: 10_000 },
  );
  expect(published, 'the app published its elements').toBe(true);
  const reader = sharedTextReader();
  await reader.warmUp();
  stage = new Stage(desktop, app, reader);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await closeSharedTextReader();
});

const text = (wanted: string) => assertText(stage, { text: wanted, match: 'contains', display: wanted, mask: (t) => t, timeoutMs: 0 });

describe('text: read where the tree holds it', () => {
  test('a label that shows the text passes, read in its box', async () => {
    const result = await text('Total: 3 items');
    expect(result.ok, result.message).toBe(true);
    expect(result.message).toContain('read on label "Total: 3 items"');
  });

  test("a button that shows its name passes, read in the button's box", async () => {
    const result = await text('Send order');
    expect(result.ok, result.message).toBe(true);
    expect(result.message).toContain('read on button "Send order"');
  });

  test('c, o, s, v, w, x and z take their case from the tree, in the box of an element whose name says the text', async () => {
    const result = await text('Sent for Bob');
    expect(result.ok, result.message).toBe(true);
    expect(result.message).toContain('read on label "Sent for Bob"');
  });

  test('text no element publishes is read in the whole window', async () => {
    const result = await text('Drawn 42');
    expect(result.ok, result.message).toBe(true);
    expect(result.message).not.toContain('read on');
  });
});

describe('a name the tree holds but the window does not show fails', () => {
  test("an icon button's accessible name", async () => {
    const result = await text('Archive');
    expect(result.ok, result.message).toBe(false);
  });

  test("a label's accessible name other than the text it draws", async () => {
    const result = await text('Status: shipped');
    expect(result.ok, result.message).toBe(false);
    expect(result.read).toContain('Status: idle');
  });

  test('a label drawing another letter case than its name, in letters whose case OCR tells by shape', async () => {
    const result = await text('Sent for Ann');
    expect(result.ok, result.message).toBe(false);
    expect(result.read).toContain('Sent FOR Ann');
  });

  test('a label scrolled out of its list', async () => {
    const result = await text('Row 39 shipped');
    expect(result.ok, result.message).toBe(false);
  });
});
