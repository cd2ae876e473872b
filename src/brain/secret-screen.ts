/**
 * What an app shows of the secrets typed into it, kept out of every frame the stage captures.
 *
 * A path stores `${secret.X}`, never the value; but once the value is typed into a visible field
 * it is on the screen, and from there it would reach effect crops, report images, baselines,
 * OCR text and the model's screenshots. So the stage scrubs its frames, the one place they all
 * come from, and nothing downstream can leak what it never saw:
 * - where the secret landed: the region that changed between the last frame before it was
 *   typed and the frames after it, up to the next input (the field, as it fills);
 * - anywhere else it is read later (a list that shows the saved note): OCR words that read as
 *   the secret, or as an OCR variant of it, found in the parts of each frame that changed.
 * Where a secret landed stays painted over for as long as the app lives (a shared app keeps it
 * across goals), words read on it included; a word elsewhere, until its place reads otherwise.
 *
 * The paint covers whole elements: each region found is painted as the box of the element the app
 * publishes there (the field typed into, the list item that shows the note), read once over the
 * accessibility bus. Those boxes are the same on every run of the same path, where the landing
 * and the OCR boxes of the moment move by a pixel or two — so a screenshot over the paint, the
 * action's changed region and every later frame match on replay what was learned. An app that
 * publishes no element there (Tk, xterm) is painted on the regions themselves.
 */
import type { Frame, Region } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';
import type { SecretMasker } from '../spec-file/secrets.ts';
import { changedRegions } from '../vision/changes.ts';
import {
  boundingRegion,
  clampRegion,
  containsPoint,
  crop,
  inflateRegion,
  isEmptyRegion,
  maskRegions,
  offsetRegion,
  regionArea,
  regionCenter,
  regionsIntersect,
} from '../vision/frame.ts';
import { CONTAINERS } from './elements.ts';
import type { Rgba } from '../vision/types.ts';
import { SECRET_SCREEN_LIMITS } from './thresholds.ts';

/** The paint: a flat grey that reads as nothing and compares as itself. */
const PAINT: Rgba = [128, 128, 128, 255];

/** The app's elements (window-relative boxes); `window` is the main window's screen region, when known. */
export type ReadElements = (window?: Region) => Promise<readonly Element[]>;

export class SecretScreen {
  /** Boxes of elements found showing a secret: what is painted for any region inside them. */
  private readonly boxes: Region[] = [];
  /** Regions where the elements were read and none was found: painted as they are, not read again. */
  private readonly bare: Region[] = [];

  /** Where typed secrets landed, window-relative. */
  private readonly landed: Region[] = [];
  /** Words elsewhere that read as a secret, window-relative. */
  private words: Region[] = [];
  /** Set from the moment a secret is typed until the next input: the frame before it was typed. */
  private typedOver: Frame | undefined;
  /** The last raw frame captured, and the last one whose words were read. */
  private lastRaw: Frame | undefined;
  private lastRead: Frame | undefined;

  constructor(
    private readonly reader: TextReader,
    private readonly masker: SecretMasker,
    /** Absent when the display has no accessibility bus. */
    private readonly readElements?: ReadElements,
  ) {}

  /** Whether a secret was ever typed: only then does scrubbing cost anything. */
  private typed = false;

  /** Tells the screen about input the stage sends; `text` for typing. */
  input(text?: string): void {
    if (text !== undefined && this.masker.reveals(text)) {
      this.typed = true;
      // Typed before any capture, there is no "before" to compare with: OCR words alone find it.
      this.typedOver ??= this.lastRaw;
    } else {
      this.typedOver = undefined;
    }
  }

  /** `raw`, the capture of the window at `window` (screen region), with everything that shows a typed secret painted over. */
  async scrub(raw: Frame, window?: Region): Promise<Frame> {
    const previous = this.lastRaw;
    this.lastRaw = raw;
    if (!this.typed) return raw;
    if (this.typedOver !== undefined && sameSize(this.typedOver, raw)) {
      const landing = boundingRegion(changedRegions(this.typedOver, raw));
      if (landing) this.landed.push(inflateRegion(landing, SECRET_SCREEN_LIMITS.marginPx));
    }
    await this.readWords(raw, previous);
    const found = [...this.landed, ...this.words];
    await this.findElements(found, raw, window);
    const hidden = found.map((r) => clampRegion(this.paintOf(r), raw)).filter((r) => !isEmptyRegion(r));
    return hidden.length === 0 ? raw : maskRegions(raw, hidden, PAINT);
  }

  /** What is painted for a region found showing a secret: the smallest element box around its centre, else the region. */
  private paintOf(region: Region): Region {
    const centre = regionCenter(region);
    const around = this.boxes.filter((b) => containsPoint(b, centre));
    const box = around.reduce<Region | undefined>(
      (best, b) => (best === undefined || regionArea(b) < regionArea(best) ? b : best),
      undefined,
    );
    return box === undefined ? region : inflateRegion(box, SECRET_SCREEN_LIMITS.marginPx);
  }

  /** Reads the elements once for regions that lie in no element box known yet, and learns the boxes around them. */
  private async findElements(found: readonly Region[], raw: Frame, window: Region | undefined): Promise<void> {
    if (this.readElements === undefined) return;
    const known = (r: Region): boolean => [...this.boxes, ...this.bare].some((b) => containsPoint(b, regionCenter(r)));
    const fresh = found.filter((r) => !known(r));
    if (fresh.length === 0) return;
    let elements: readonly Element[];
    try {
      elements = await this.readElements(window);
    } catch {
      // A bus that does not answer leaves the regions painted as found: hidden all the same.
      elements = [];
    }
    const candidates = elements.filter(
      (e) =>
        !CONTAINERS.has(e.role) &&
        !isEmptyRegion(e.box) &&
        regionArea(e.box) <= SECRET_SCREEN_LIMITS.maxElementShare * raw.width * raw.height,
    );
    for (const region of fresh) {
      const centre = regionCenter(region);
      const deepest = candidates
        .filter((e) => containsPoint(e.box, centre))
        .reduce<Element | undefined>(
          (best, e) =>
            best === undefined || e.depth > best.depth || (e.depth === best.depth && regionArea(e.box) < regionArea(best.box)) ? e : best,
          undefined,
        );
      if (deepest) this.boxes.push(deepest.box);
      else this.bare.push(region);
    }
  }

  /** Re-reads the parts of `raw` that changed since the last read, keeping the secret's words. */
  private async readWords(raw: Frame, previous: Frame | undefined): Promise<void> {
    const base = this.lastRead !== undefined && sameSize(this.lastRead, raw) ? this.lastRead : previous;
    const changed =
      base !== undefined && sameSize(base, raw)
        ? boundingRegion(changedRegions(base, raw))
        : { x: 0, y: 0, width: raw.width, height: raw.height };
    this.lastRead = raw;
    if (!changed) return;
    const area = clampRegion(inflateRegion(changed, SECRET_SCREEN_LIMITS.readContextPx), raw);
    if (isEmptyRegion(area)) return;
    const read = await this.reader.read(crop(raw, area));
    const found = [...read.words, ...read.lines]
      .filter((w) => this.masker.isVariant(w.text) || this.masker.reveals(w.text))
      .map((w) => inflateRegion(offsetRegion(w.box, area.x, area.y), SECRET_SCREEN_LIMITS.marginPx));
    // A word read on a field where a secret landed is that field's, and keeps its paint for the
    // app's life as the field does. Dropped once the field empties, the part of its box outside
    // the landing would turn from paint to field: a change of retrace's own, seen or not as the
    // OCR box of the moment falls (learned as an effect of one run, news in the next).
    const onField = found.filter((w) => this.landed.some((l) => regionsIntersect(l, w)));
    this.landed.push(...onField);
    this.words = [...this.words.filter((w) => !regionsIntersect(w, area)), ...found.filter((w) => !onField.includes(w))];
  }
}

const sameSize = (a: Frame, b: Frame): boolean => a.width === b.width && a.height === b.height;
