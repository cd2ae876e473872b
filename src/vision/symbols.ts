/**
 * A tiny shape classifier for the operator symbols OCR gets wrong when they stand alone on a key:
 * "÷" (the English model reads "-" or "+"), "±" (read "+"), "=" (read "—"), "−" and ".".
 * It binarises the label, takes its ink components and recognises a few stacked arrangements of
 * bars and dots; anything else (digits, letters, "+", "×") is left to OCR (null).
 */
import type { Frame, Region } from '../domain.ts';
import { labelComponents, type ComponentBox as Part } from './components.ts';
import { clampRegion, crop, inflateRegion, toGray } from './frame.ts';

/**
 * The symbol a label shows, when it is one of "-", "=", "÷", "±", "." (ASCII "-" for a minus
 * sign); null otherwise.
 * @param textHeight typical text height of the frame (median label height), px
 */
export function classifySymbol(frame: Frame, label: Region, textHeight: number): string | null {
  const box = clampRegion(inflateRegion(label, 1), frame);
  if (box.width < 2 || box.height < 2) return null;
  if (label.height > 1.2 * textHeight || label.width > 1.5 * textHeight) return null;
  const g = toGray(crop(frame, box));
  const { width: w, height: h, data } = g;
  // Ground: the most common value on the border; ink: far from it.
  const hist = new Uint32Array(256);
  for (let x = 0; x < w; x++) {
    hist[data[x]!] = hist[data[x]!]! + 1;
    hist[data[(h - 1) * w + x]!] = hist[data[(h - 1) * w + x]!]! + 1;
  }
  for (let y = 0; y < h; y++) {
    hist[data[y * w]!] = hist[data[y * w]!]! + 1;
    hist[data[y * w + w - 1]!] = hist[data[y * w + w - 1]!]! + 1;
  }
  let ground = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[ground]!) ground = v;
  let far = 0;
  for (let i = 0; i < data.length; i++) far = Math.max(far, Math.abs(data[i]! - ground));
  if (far < 40) return null;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) ink[i] = Math.abs(data[i]! - ground) >= far * 0.35 ? 1 : 0;
  const parts = labelComponents(ink, w, h).boxes;
  if (parts.length === 0 || parts.length > 3) return null;
  parts.sort((a, b) => a.y0 - b.y0);
  // All parts stacked: each overlaps the widest one horizontally.
  const widest = parts.reduce((a, b) => (b.x1 - b.x0 > a.x1 - a.x0 ? b : a));
  for (const p of parts) {
    const overlap = Math.min(p.x1, widest.x1) - Math.max(p.x0, widest.x0) + 1;
    if (overlap < 0.5 * (p.x1 - p.x0 + 1)) return null;
  }
  const H = textHeight;
  const pw = (p: Part): number => p.x1 - p.x0 + 1;
  const ph = (p: Part): number => p.y1 - p.y0 + 1;
  // A bar is at least twice as wide as tall (plus one) and 3 px; a dot is about square and small.
  const isBar = (p: Part): boolean => pw(p) >= Math.max(3, 2 * ph(p) + 1, 0.2 * H);
  const isDot = (p: Part): boolean => pw(p) <= 0.35 * H && ph(p) <= 0.35 * H && Math.abs(pw(p) - ph(p)) <= 1;
  const [a, b, c] = parts;
  if (parts.length === 1 && a) {
    if (isBar(a)) return '-';
    if (isDot(a) && a.y0 >= 0) return '.';
    return null;
  }
  if (parts.length === 2 && a && b) {
    if (isBar(a) && isBar(b) && Math.min(pw(a), pw(b)) >= 0.7 * Math.max(pw(a), pw(b))) return '=';
    if (!isBar(a) && !isDot(a) && isBar(b) && ph(a) >= 0.4 * H && Math.abs(pw(a) - pw(b)) <= 0.3 * pw(b)) return '±';
    return null;
  }
  if (a && b && c && isDot(a) && isBar(b) && isDot(c) && pw(b) > 1.5 * pw(a)) return '÷';
  return null;
}
