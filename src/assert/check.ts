/** Runs a goal's `expect:` list, in order, and returns every result. */
import type { Expectation } from '../spec-file/types.ts';
import type { Stage } from '../brain/stage.ts';
import type { AssertionResult } from './types.ts';
import { assertText, assertAbsent } from './text.ts';
import { assertWindow } from './window.ts';
import { assertScreenshot, type ScreenshotContext } from './screenshot.ts';
import { assertElement } from './element.ts';

export interface CheckContext extends ScreenshotContext {
  /** How long a text expectation polls unless it sets `timeoutMs`. */
  readonly expectMs: number;
  readonly resolveText: (template: string) => string;
  /** Shows a template with secrets as ••••. */
  readonly display: (template: string) => string;
  readonly mask: (text: string) => string;
}

export async function checkExpectations(
  stage: Stage,
  expectations: readonly Expectation[],
  context: CheckContext,
): Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  for (const expectation of expectations) {
    switch (expectation.kind) {
      case 'text':
        results.push(
          await assertText(stage, {
            text: context.resolveText(expectation.text),
            match: expectation.match,
            display: context.display(expectation.text),
            mask: context.mask,
            ...(expectation.region ? { region: expectation.region } : {}),
            timeoutMs: expectation.timeoutMs ?? context.expectMs,
          }),
        );
        break;
      case 'absent':
        results.push(
          await assertAbsent(stage, {
            text: context.resolveText(expectation.text),
            display: context.display(expectation.text),
            mask: context.mask,
            ...(expectation.region ? { region: expectation.region } : {}),
            timeoutMs: expectation.timeoutMs ?? context.expectMs,
          }),
        );
        break;
      case 'window':
        results.push(await assertWindow(stage, context.resolveText(expectation.title)));
        break;
      case 'screenshot':
        results.push(await assertScreenshot(stage, expectation, context));
        break;
      case 'element': {
        const { kind: _kind, line: _line, timeoutMs, ...wanted } = expectation;
        results.push(await assertElement(stage, { ...wanted, timeoutMs: timeoutMs ?? context.expectMs, resolveText: context.resolveText, display: context.display, mask: context.mask }));
        break;
      }
    }
  }
  return results;
}
