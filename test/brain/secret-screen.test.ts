/**
 * The secret screen on in-memory frames. The reader stands in for OCR: it "reads" a word
 * wherever a word's ink block is drawn, so the test controls exactly what is on the screen.
 */
import { describe, expect, test } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import type { OcrResult, TextBox, TextReader } from '../../src/vision/types.ts';
import { createFrame, fillRegion } from '../../src/vision/frame.ts';
import { SecretMasker } from '../../src/spec-file/secrets.ts';
import { SecretScreen, type ReadElements } from '../../src/brain/secret-screen.ts';
import type { Element } from '../../src/desktop/types.ts';

const SECRET = 'Zebra7Quartz';
const WHITE = [255, 255, 255, 255] as const;
const INK = [0, 0, 0, 255] as const;

/** Words on the test screen: what each ink block reads as. */
const FIELD: Region = { x: 10, y: 10, width: 60, height: 12 };
const LIST: Region = { x: 10, y: 60, width: 60, height: 12 };
const LABEL: Region = { x: 100, y: 60, width: 40, height: 12 };

function screen(blocks: readonly Region[]): Frame {
  const frame = createFrame(160, 90, WHITE);
  for (const b of blocks) fillRegion(frame, b, INK);
  return frame;
}

/**
 * Reads back the blocks it knows, with the text each stands for, if its ink is in the frame;
 * `loosePx` wider all round than the ink, as OCR boxes can be.
 */
class BlockReader implements TextReader {
  reads = 0;
  constructor(
    private readonly words: ReadonlyArray<readonly [Region, string]>,
    private readonly loosePx = 0,
  ) {}
  async read(frame: Frame): Promise<OcrResult> {
    this.reads++;
    // The frame is a crop: find each block by its ink at its offset within the crop.
    const found: TextBox[] = [];
    for (let oy = 0; oy < 90; oy++) {
      for (let ox = 0; ox < 160; ox++) {
        for (const [box, text] of this.words) {
          const x = box.x - ox;
          const y = box.y - oy;
          if (x < 0 || y < 0 || x + box.width > frame.width || y + box.height > frame.height) continue;
          if (!inkAt(frame, x, y) || !inkAt(frame, x + box.width - 1, y + box.height - 1)) continue;
          if (found.some((f) => f.text === text)) continue;
          const m = this.loosePx;
          found.push({ text, box: { x: x - m, y: y - m, width: box.width + 2 * m, height: box.height + 2 * m }, confidence: 90 });
        }
      }
      if (found.length === this.words.length) break;
    }
    return { text: found.map((f) => f.text).join(' '), words: found, lines: [] };
  }
  async close(): Promise<void> {}
}

const inkAt = (frame: Frame, x: number, y: number): boolean => frame.data[(y * frame.width + x) * 4] === 0;
const pixel = (frame: Frame, x: number, y: number): number[] => [
  ...frame.data.subarray((y * frame.width + x) * 4, (y * frame.width + x) * 4 + 4),
];

function setup(loosePx = 0, readElements?: ReadElements): { screen: SecretScreen; reader: BlockReader } {
  const masker = new SecretMasker();
  masker.learn(SECRET);
  const reader = new BlockReader(
    [
      [FIELD, SECRET],
      [LIST, 'Zebra7QuartZ'],
      [LABEL, 'Saved'],
    ],
    loosePx,
  );
  return { screen: new SecretScreen(reader, masker, readElements), reader };
}

describe('the secret screen', () => {
  test('costs nothing and changes nothing before a secret is typed', async () => {
    const { screen: s, reader } = setup();
    const frame = screen([LABEL]);
    s.input('hello');
    expect(await s.scrub(frame)).toBe(frame);
    expect(reader.reads).toBe(0);
  });

  test('paints over where the secret landed and where it is read later, nothing else', async () => {
    const { screen: s } = setup();
    const before = screen([]);
    expect(await s.scrub(before)).toBe(before);
    s.input(SECRET);
    // The field fills with the typed secret.
    const typed = await s.scrub(screen([FIELD]));
    expect(inkAt(typed, FIELD.x + 5, FIELD.y + 5)).toBe(false);
    expect(pixel(typed, FIELD.x + 5, FIELD.y + 5)).toEqual([128, 128, 128, 255]);
    // Saved: the field empties, the note shows in the list (as OCR misreads it), and a label.
    s.input();
    const saved = await s.scrub(screen([LIST, LABEL]));
    expect(pixel(saved, LIST.x + 5, LIST.y + 5)).toEqual([128, 128, 128, 255]);
    expect(inkAt(saved, LABEL.x + 5, LABEL.y + 5), 'an ordinary word stays').toBe(true);
    // The field stays hidden for the app's life, even while it is empty.
    expect(pixel(saved, FIELD.x + 5, FIELD.y + 5)).toEqual([128, 128, 128, 255]);
    expect(pixel(saved, 150, 5), 'far from both').toEqual([255, 255, 255, 255]);
  });

  test('reads only what changed since the last frame', async () => {
    const { screen: s, reader } = setup();
    await s.scrub(screen([]));
    s.input(SECRET);
    await s.scrub(screen([FIELD]));
    const reads = reader.reads;
    await s.scrub(screen([FIELD]));
    expect(reader.reads, 'an unchanged frame is not read again').toBe(reads);
  });

  test('a field keeps all its paint once it empties, the word read on it included', async () => {
    // The OCR box of the typed word reaches 2 px past the ink that changed: dropping it when the
    // field empties would change those pixels, paint to field, in one run and not the next.
    const { screen: s } = setup(2);
    await s.scrub(screen([]));
    s.input(SECRET);
    const typed = await s.scrub(screen([FIELD]));
    const edge = { x: FIELD.x - 5, y: FIELD.y + 5 };
    expect(pixel(typed, edge.x, edge.y), 'the word box, past the landing').toEqual([128, 128, 128, 255]);
    s.input();
    const saved = await s.scrub(screen([LIST, LABEL]));
    expect(pixel(saved, edge.x, edge.y)).toEqual([128, 128, 128, 255]);
    expect(pixel(saved, LIST.x + 5, LIST.y + 5), 'the note in the list').toEqual([128, 128, 128, 255]);
    // A word elsewhere is painted only while its place reads as the secret.
    const scrolled = await s.scrub(screen([LABEL]));
    expect(pixel(scrolled, LIST.x - 4, LIST.y + 5)).toEqual([255, 255, 255, 255]);
  });

  test('paints the whole element that shows the secret: the same paint however OCR and the landing box fall', async () => {
    // The field's and the list item's boxes as the app publishes them, larger than their ink.
    const fieldBox: Region = { x: 6, y: 6, width: 80, height: 20 };
    const itemBox: Region = { x: 6, y: 56, width: 80, height: 20 };
    const states = { focused: false, checked: false, sensitive: true, showing: true, editable: true, selected: false, expanded: false };
    const element = (ref: string, role: string, box: Region, depth: number): Element => ({
      ref,
      role,
      toolkitRole: role,
      name: '',
      description: '',
      states,
      box,
      index: 0,
      depth,
    });
    const elements = [
      element('w', 'window', { x: 0, y: 0, width: 160, height: 90 }, 0),
      element('f', 'entry', fieldBox, 1),
      element('i', 'item', itemBox, 1),
    ];
    const painted = async (loosePx: number, fieldInk: Region): Promise<Frame> => {
      let reads = 0;
      const { screen: s } = setup(loosePx, async () => (reads++, elements));
      await s.scrub(screen([]));
      s.input(SECRET);
      await s.scrub(screen([fieldInk]));
      s.input();
      const saved = await s.scrub(screen([LIST, LABEL]));
      expect(reads, 'read once for the field, once for the list').toBe(2);
      return saved;
    };
    const one = await painted(0, FIELD);
    // Another run: OCR boxes 2 px looser, the typed text a pixel narrower.
    const other = await painted(2, { ...FIELD, width: FIELD.width - 1 });
    expect(Buffer.from(other.data).equals(Buffer.from(one.data))).toBe(true);
    expect(pixel(one, fieldBox.x + 1, fieldBox.y + 1), "the field's corner, far from the ink").toEqual([128, 128, 128, 255]);
    expect(pixel(one, itemBox.x + itemBox.width - 2, itemBox.y + 1), "the item's corner").toEqual([128, 128, 128, 255]);
    expect(inkAt(one, LABEL.x + 5, LABEL.y + 5), 'an ordinary word stays').toBe(true);
  });
});
