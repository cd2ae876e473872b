/**
 * Missing baselines (issue 17, PRODUCT.md): a baseline written by the run is reported as new,
 * never as a pass. As Playwright: under the default `missing` the goal fails after writing it;
 * `changed` and `all` ask for baselines to be written, so there it passes, reported as new.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertScreenshot, onlyNewBaselines, type ScreenshotContext } from '../../src/brain/assert/screenshot.ts';
import type { UpdateBaselines } from '../../src/brain/assert/types.ts';
import { COUNT, CounterApp, FakeDesktop } from '../support/fake-desktop.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function context(update: UpdateBaselines): ScreenshotContext {
  const baselinesDir = mkdtempSync(join(tmpdir(), 'retrace-baselines-'));
  dirs.push(baselinesDir);
  return { specId: 'specs/counter.yaml', baselinesDir, update, stableTimeoutMs: 2000 };
}

const check = { name: 'count', region: COUNT, mask: [] };

describe('a missing screenshot baseline', () => {
  const stage = new FakeDesktop(new CounterApp()).stage();

  test('under the default (missing) is written, reported as new, and fails: nothing was compared', async () => {
    const ctx = context('missing');
    const first = await assertScreenshot(stage, check, ctx);
    expect(first).toMatchObject({ ok: false, baseline: 'new' });
    expect(first.message).toMatch(/nothing was compared/);
    expect(first.written?.length).toBeGreaterThan(0);
    // Learning still saves the path: the only failure is the baseline it had to write.
    expect(onlyNewBaselines([first])).toBe(true);
    // The next run compares with it.
    expect(await assertScreenshot(stage, check, ctx)).toMatchObject({ ok: true, baseline: 'matched' });
  });

  test.each(['changed', 'all'] as const)('under %s (writing asked for) is written and passes, reported as new', async (update) => {
    expect(await assertScreenshot(stage, check, context(update))).toMatchObject({ ok: true, baseline: 'new' });
  });

  test('under none is not written and fails', async () => {
    const ctx = context('none');
    const result = await assertScreenshot(stage, check, ctx);
    expect(result).toMatchObject({ ok: false });
    expect(result.baseline).toBeUndefined();
    expect(onlyNewBaselines([result])).toBe(false);
    expect(existsSync(join(ctx.baselinesDir, 'specs'))).toBe(false);
  });
});
