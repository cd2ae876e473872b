/**
 * A secret typed into a visible field is on the screen: in the field while it is typed, and in
 * the list once the note is saved. It must still reach no output: no path file, report, console
 * line, baseline, or image (read back with OCR, its variants included), on learning and on replay.
 * A failing text expectation, whose message quotes the screen, must not quote it either.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import { decodePng } from '../../src/vision/frame.ts';
import { sharedTextReader, closeSharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { SecretMasker } from '../../src/spec-file/secrets.ts';

const SECRET = 'Zebra7Quartz';

const SPEC = `name: Secret note
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
  restart: goal
goals:
  - id: save-secret
    steps:
      - click: { text: "New" }
      - type: "\${secret.NOTE_SECRET}"
      - click: { text: "Save" }
    expect:
      - text: "Saved"
      - screenshot: notes-list
        region: [14, 254, 378, 154]
  - id: quote-the-screen
    steps:
      - click: { text: "New" }
      - type: "\${secret.NOTE_SECRET}"
      - click: { text: "Save" }
    expect:
      - text: "Nothing like this is on the screen"
`;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : statSync(full).isFile() ? [full] : [];
  });

describe('a secret typed into a visible field', () => {
  const project = new Project().write('specs/secret.yaml', SPEC);
  const env = { NOTE_SECRET: SECRET };
  let console = '';
  afterAll(() => closeSharedTextReader());

  test('learns and replays: the note is saved, the unrelated expectation fails', { timeout: 240_000 }, async () => {
    for (const mode of ['learned', 'replayed'] as const) {
      const result = await project.cli(['run', '--update-baselines', 'changed'], env);
      console += result.stdout + result.stderr;
      expect(result.code, result.stdout + result.stderr).toBe(1);
      const [saved, quoted] = project.summary().goals;
      expect(saved, result.stdout).toMatchObject({ goal: 'save-secret', status: 'passed' });
      expect(quoted, result.stdout).toMatchObject({ goal: 'quote-the-screen', status: 'failed' });
      expect(quoted?.message).toMatch(/the screen shows/);
      if (mode === 'replayed') expect(saved?.mode).toBe('replayed');
    }
  });

  test('its value and its OCR variants appear in no file, console line or image', { timeout: 120_000 }, async () => {
    const masker = new SecretMasker();
    masker.learn(SECRET);
    const files = [...filesUnder(join(project.root, 'paths')), ...filesUnder(join(project.root, 'reports')), ...filesUnder(join(project.root, 'fixtures', 'baselines'))];
    const texts = files.filter((f) => !f.endsWith('.png'));
    expect(texts.length).toBeGreaterThan(0);
    for (const file of texts) expect(masker.reveals(readFileSync(file, 'utf8')), file).toBe(false);
    expect(masker.reveals(console), console).toBe(false);

    const images = files.filter((f) => f.endsWith('.png'));
    // Effect crops, report images and the baseline of the list, where the note is shown.
    expect(images.some((f) => f.includes('notes-list'))).toBe(true);
    const reader = sharedTextReader();
    for (const image of images) {
      const read = await reader.read(decodePng(readFileSync(image)));
      const words = [...read.words.map((w) => w.text), read.text];
      expect(words.filter((w) => masker.reveals(w) || masker.isVariant(w)), image).toEqual([]);
    }
  });
});
