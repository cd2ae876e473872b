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
import { requestImages, startMessagesServer } from '../support/messages-server.ts';

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

const variantsIn = (masker: SecretMasker, words: readonly string[]): string[] =>
  words.filter((w) => masker.reveals(w) || masker.isVariant(w));

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
      expect(saved, result.stdout + result.stderr).toMatchObject({ goal: 'save-secret', status: 'passed' });
      expect(quoted, result.stdout + result.stderr).toMatchObject({ goal: 'quote-the-screen', status: 'failed' });
      expect(quoted?.message).toMatch(/the screen shows/);
      if (mode === 'replayed') expect(saved?.mode).toBe('replayed');
    }
  });

  test('its value and its OCR variants appear in no file, console line or image', { timeout: 120_000 }, async () => {
    const masker = new SecretMasker();
    masker.learn(SECRET);
    const files = [
      ...filesUnder(join(project.root, 'paths')),
      ...filesUnder(join(project.root, 'reports')),
      ...filesUnder(join(project.root, 'fixtures', 'baselines')),
    ];
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
      expect(variantsIn(masker, [...read.words.map((w) => w.text), read.text]), image).toEqual([]);
    }
  });
});

/** The model's side: click New and Save (notes regions of fixtures/apps/apps.json), type the secret between. */
const LESSON = [
  { kind: 'tools' as const, calls: [{ action: 'left_click', coordinate: [155, 188] }] },
  { kind: 'tools' as const, calls: [{ action: 'type', text: '${secret.NOTE_SECRET}' }] },
  { kind: 'tools' as const, calls: [{ action: 'left_click', coordinate: [58, 188] }] },
  { kind: 'tools' as const, calls: [{ action: 'screenshot' }] },
  { kind: 'end' as const, text: 'DONE: the note is saved.' },
];

describe('a secret typed into a visible field while Claude learns', () => {
  const project = new Project().write(
    'specs/secret.yaml',
    `name: Secret note
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: save-secret
    goal: Save a note that says \${secret.NOTE_SECRET}
    expect:
      - text: "Saved"
`,
  );
  afterAll(() => closeSharedTextReader());

  test('the screenshots sent to the model show neither the value nor its OCR variants', { timeout: 180_000 }, async () => {
    const server = await startMessagesServer(LESSON, { lifetimeMs: 150_000 });
    try {
      const env = { ANTHROPIC_API_KEY: 'sk-test-key', ANTHROPIC_BASE_URL: server.url, NOTE_SECRET: SECRET };
      const result = await project.cli(['run'], env);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'learned' });

      const masker = new SecretMasker();
      masker.learn(SECRET);
      for (const request of server.requests) expect(masker.reveals(request.raw)).toBe(false);
      const shots = new Set(server.requests.flatMap((r) => requestImages(r.body).map((i) => i.data)));
      // The first screenshots, before the secret was typed, and the ones after it: the field and the list.
      expect(shots.size).toBeGreaterThanOrEqual(3);
      const reader = sharedTextReader();
      let afterSave = 0;
      for (const data of shots) {
        const frame = decodePng(Buffer.from(data, 'base64'));
        const read = await reader.read(frame);
        expect(variantsIn(masker, [...read.words.map((w) => w.text), read.text])).toEqual([]);
        if (read.text.includes('Saved')) afterSave++;
      }
      // The screen after Save was sent, with the note in the list: it was read above, scrubbed.
      expect(afterSave).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
