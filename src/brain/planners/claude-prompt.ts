/**
 * What the model is told: the system prompt and the opening message. Both hold the goal and
 * secret placeholders only; a secret's value never reaches a prompt.
 */
import { toShotPoint, type ShotGeometry } from './claude-screenshot.ts';
import type { OfferedElement } from './types.ts';

/** The word the model ends with when the goal cannot be reached. */
export const IMPOSSIBLE_MARKER = 'IMPOSSIBLE:';

export function systemPrompt(options: { readonly secretNames: readonly string[] }): string {
  const secrets =
    options.secretNames.length === 0
      ? 'No secrets are available for this goal.'
      : `Secrets available for this goal: ${options.secretNames.map((n) => `\${secret.${n}}`).join(', ')}.`;
  return [
    'You are operating one desktop application so that a GUI regression test can learn how to reach a goal.',
    '',
    'The screen:',
    '- Every screenshot shows exactly one application window, nothing else: no desktop, taskbar or other',
    '  programs. Coordinates are pixels of that screenshot, from its top-left corner.',
    '- Actions outside the screenshot are refused. Only this application may be used.',
    '',
    'How to act:',
    '- Work toward the goal one action at a time: left_click, double_click, right_click, type, key, scroll,',
    '  left_click_drag, wait. Keys are named as on a keyboard, joined by "+": "Enter", "Tab", "Escape", "ArrowDown", "ctrl+s", "alt+F4".',
    '- After your actions you receive a new screenshot. Check that each step did what you expected before',
    '  moving on. Prefer the shortest reliable path; it will be recorded and replayed.',
    '- When a list of the elements the application publishes comes with a screenshot, their boxes are exact:',
    '  to click one of them, call click_element with its ref (e.g. "e3"); for other actions, use the centre of its box.',
    '- Do not close the application and do not change anything the goal does not ask for.',
    '',
    'Secrets:',
    '- To enter a secret (a password, a token), type its placeholder literally, for example',
    '  type "${secret.PASSWORD}". The test runner substitutes the value when it types; you never see it,',
    '  and you must not try to read, guess or reveal it.',
    `- ${secrets}`,
    '',
    'Finishing:',
    '- When the goal is reached, stop calling tools and answer with DONE and one sentence on what you see.',
    `- If the goal cannot be reached in this application, stop and answer with ${IMPOSSIBLE_MARKER} and the reason.`,
  ].join('\n');
}

/** The text of the opening user message, sent with the first screenshot. */
export function goalMessage(goal: string, geometry: ShotGeometry): string {
  return [
    `Goal: ${goal}`,
    '',
    `Here is the application window (${geometry.shotWidth}×${geometry.shotHeight} pixels). ` + 'Reach the goal, then answer DONE.',
  ].join('\n');
}

/**
 * The app's elements as the model reads them, one a line: `e3 button "OK" [x, y, width, height]`
 * in screenshot pixels. Exact boxes spare the model guessing where a control is from pixels.
 */
export function elementsMessage(elements: readonly OfferedElement[], geometry: ShotGeometry): string {
  const lines = elements.map((e, i) => {
    const from = toShotPoint({ x: e.box.x, y: e.box.y }, geometry);
    const to = toShotPoint({ x: e.box.x + e.box.width, y: e.box.y + e.box.height }, geometry);
    return `e${i + 1} ${e.role} ${JSON.stringify(e.name)} [${from.x}, ${from.y}, ${to.x - from.x}, ${to.y - from.y}]`;
  });
  return ['Elements the application publishes (ref role "name" [x, y, width, height], screenshot pixels):', ...lines].join('\n');
}
