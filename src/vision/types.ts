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
  /** Restrict recognised characters. */
  readonly whitelist?: string;
}

/** OCR behind one interface, shared by text assertions and the rules planner. */
export interface TextReader {
  read(frame: Frame, options?: ReadOptions): Promise<OcrResult>;
  close(): Promise<void>;
}
