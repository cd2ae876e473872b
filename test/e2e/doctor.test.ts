/**
 * `retrace doctor` on a display of its own: its OCR check reads a real xterm in the default font
 * back, and when xterm draws another font (set through X resources) it says what to do.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

describe('retrace doctor', () => {
  test("reads xterm's default font back", async () => {
    const result = await new Project().cli(['doctor'], { ANTHROPIC_API_KEY: undefined, XENVIRONMENT: undefined });
    expect(result.stdout).toContain('✓ OCR: read xterm\'s default font back ("retrace: OCR check 0123456789 a@b.c ~/x (ok)")');
    expect(result.code, result.stdout).toBe(0);
  });

  test('names the font and how to restore it when the text reads wrong', async () => {
    const project = new Project().write('xterm.ad', 'XTerm*faceName: DejaVu Sans Mono\nXTerm*faceSize: 4\n');
    const result = await project.cli(['doctor'], { ANTHROPIC_API_KEY: undefined, XENVIRONMENT: `${project.root}/xterm.ad` });
    expect(result.stdout).toMatch(/✗ OCR: xterm shows "retrace: OCR check [^"]*", OCR read /);
    expect(result.stdout).toContain('remove XTerm*faceName');
    expect(result.code).toBe(3);
  });
});
