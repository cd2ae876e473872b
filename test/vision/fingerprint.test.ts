import { describe, expect, it } from 'vitest';
import { cloneFrame, crop, fillRegion, paste } from '../../src/vision/frame.ts';
import { fingerprint, fingerprintDistance, parseFingerprint, sameState } from '../../src/vision/fingerprint.ts';
import { BLACK, loadImage, random } from './helpers.ts';

const calc = loadImage('galculator');

describe('fingerprint', () => {
  it('is stable text of a fixed shape', () => {
    const fp = fingerprint(calc);
    expect(fp).toMatch(/^fp1:331x343:[0-9a-f]{256}:[0-9a-f]{256}$/);
    expect(fingerprint(cloneFrame(calc))).toBe(fp);
    expect(parseFingerprint(fp)?.width).toBe(331);
    expect(parseFingerprint('nonsense')).toBeNull();
  });

  it('shrugs off a caret and pixel noise', () => {
    const noisy = cloneFrame(calc);
    fillRegion(noisy, { x: 100, y: 50, width: 2, height: 16 }, BLACK);
    const next = random(5);
    for (let i = 0; i < 2000; i++) {
      const p = Math.floor(next() * 331 * 343) * 4;
      noisy.data[p] = Math.max(0, Math.min(255, noisy.data[p]! + Math.round(next() * 6 - 3)));
    }
    const d = fingerprintDistance(fingerprint(calc), fingerprint(noisy));
    expect(d).toBeLessThanOrEqual(0.01);
    expect(sameState(calc, noisy)).toBe(true);
  });

  it('keeps a screen showing another value the same state', () => {
    expect(sameState(fingerprint(calc), fingerprint(loadImage('galculator-84')))).toBe(true);
  });

  it('tells a dialog, a menu and another page apart', () => {
    const settings = loadImage('settings');
    const dialog = cloneFrame(calc);
    paste(dialog, crop(settings, { x: 120, y: 28, width: 200, height: 150 }), { x: 65, y: 100 });
    expect(fingerprintDistance(fingerprint(calc), fingerprint(dialog))).toBeGreaterThan(0.15);

    const menu = cloneFrame(calc);
    fillRegion(menu, { x: 47, y: 24, width: 120, height: 90 }, [250, 250, 250, 255]);
    for (let i = 0; i < 4; i++) paste(menu, crop(calc, { x: 135, y: 5, width: 69, height: 13 }), { x: 55, y: 30 + i * 20 });
    expect(sameState(calc, menu)).toBe(false);

    const page = cloneFrame(settings);
    fillRegion(page, { x: 121, y: 28, width: 299, height: 232 }, [240, 240, 240, 255]);
    paste(page, crop(calc, { x: 0, y: 96, width: 290, height: 160 }), { x: 125, y: 40 });
    expect(fingerprintDistance(fingerprint(settings), fingerprint(page))).toBeGreaterThan(0.3);
    expect(fingerprintDistance(fingerprint(calc), fingerprint(settings))).toBe(1); // another size
  });

  it('leaves ignored regions out', () => {
    const changed = cloneFrame(calc);
    fillRegion(changed, { x: 0, y: 0, width: 331, height: 100 }, BLACK);
    const ignore = [{ x: 0, y: 0, width: 331, height: 100 }];
    expect(sameState(calc, changed)).toBe(false);
    const a = fingerprint(calc, ignore);
    expect(a.split(':')[2]!.slice(0, 64)).toMatch(/^x+$/);
    expect(fingerprintDistance(a, fingerprint(changed, ignore))).toBe(0);
  });
});
