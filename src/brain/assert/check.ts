/** Runs a goal's `expect:` list, in order, and returns every result. */
import type { Expectation } from '../../spec-file/types.ts';
import type { Stage } from '../stage.ts';
import type { AssertionResult } from './types.ts';
import { assertText, assertAbsent } from './text.ts';
import { assertWindow } from './window.ts';
import { assertScreenshot, type ScreenshotContext } from './screenshot.ts';
import { assertElement } from './element.ts';
import { assertExited } from './exited.ts';
import { describeExit } from '../../domain.ts';
import type { AppExit } from '../../desktop/types.ts';

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
    // Once the app has ended, only its end can still be looked at: the rest fails as a result.
    const exit = stage.app.exitInfo();
    if (exit && expectation.kind !== 'exited') {
      results.push(ended(expectation, exit));
      continue;
    }
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
      case 'exited':
        results.push(await assertExited(stage, expectation.code, expectation.timeoutMs ?? context.expectMs));
        break;
      case 'window':
        results.push(await assertWindow(stage, context.resolveText(expectation.title)));
        break;
      case 'screenshot':
        results.push(await assertScreenshot(stage, expectation, context));
        break;
      case 'element': {
        const { kind: _kind, line: _line, timeoutMs, ...wanted } = expectation;
        results.push(
          await assertElement(stage, {
            ...wanted,
            timeoutMs: timeoutMs ?? context.expectMs,
            resolveText: context.resolveText,
            display: context.display,
            mask: context.mask,
          }),
        );
        break;
      }
    }
  }
  return results;
}

/** An expectation about the screen, once the app has ended. */
function ended(expectation: Exclude<Expectation, { kind: 'exited' }>, exit: AppExit): AssertionResult {
  const what =
    expectation.kind === 'screenshot'
      ? `screenshot "${expectation.name}"`
      : expectation.kind === 'window'
        ? `window "${expectation.title}"`
        : expectation.kind === 'element'
          ? `element ${expectation.role}${expectation.name ? ` "${expectation.name}"` : ''}`
          : `${expectation.kind} "${expectation.text}"`;
  return {
    kind: expectation.kind,
    description: what,
    ok: false,
    message: `the application ${describeExit(exit)} before it could be checked`,
    ms: 0,
  };
}
