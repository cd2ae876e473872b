/** Interfaces of the vision layer. Everything here works on in-memory frames. */
import type { Frame, Region } from '../domain.ts';

/** A word or line read by OCR, in the coordinates of the frame that was read. */
export interface TextBox {
  readonly text: string;
  readonly box: Region;
  /** 0..100 */
  readonly confidence: number;
}

export interface OcrResult {
  /** All text, lines separated by "\n". */
  readonly text: string;
  readonly words: readonly TextBox[];
  readonly lines: readonly TextBox[];
}

export interface ReadOptions {
  /** Read a single line or a single character (tesseract page segmentation). @default 'block' */
  readonly layout?: 'block' | 'line' | 'char';
  /**
   * A 'block' of scattered runs of text (the packed image of region-read.ts): read with page
   * segmentation for sparse text, which finds short runs a page layout analysis drops as noise.
   */
  readonly sparse?: boolean;
  /** Restrict recognised characters. */
  readonly whitelist?: string;
  /**
   * Upscale factor applied before recognition (OCR works best with capitals ~30 px tall).
   * @default estimated from the frame: from the ink height for 'line' and 'char', from the
   * median glyph height for 'block'.
   */
  readonly scale?: number;
}

/** OCR behind one interface, shared by text assertions and the rules planner. */
export interface TextReader {
  read(frame: Frame, options?: ReadOptions): Promise<OcrResult>;
  close(): Promise<void>;
}

/** A single-channel image: one byte a pixel (luma 0..255), rows top to bottom, no padding. */
export interface GrayImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** An RGBA colour, each channel 0..255. */
export type Rgba = readonly [number, number, number, number];
