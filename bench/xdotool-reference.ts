/**
 * The reference a replay is held against: a bare `xdotool` script, as a person would write one,
 * doing a recorded path's actions at their recorded points with fixed sleeps, and verifying
 * nothing. It launches the app, waits for its window (`xdotool search --sync`), sleeps while the
 * app draws, does each action followed by a fixed sleep, and closes the app. Its wall clock is
 * the floor a replay that also waits for, finds and verifies every action is compared with.
 */
import type { Path, RecordedAction } from '../src/domain.ts';
import { toXdotoolKey } from '../src/desktop/x-keys.ts';
import { parseKeyCombo } from '../src/key-combo.ts';
import { runCommand } from '../test/support/project.ts';

/** After the window appears, before the first action: the app drawing itself. */
export const DRAW_SLEEP_S = 0.5;
/** After each action: what such scripts wait for the app to react. */
export const ACTION_SLEEP_S = 0.25;

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The xdotool commands of one action, at its recorded point in the window `$W`; undefined when a script cannot do it blind. */
function commands(recorded: RecordedAction): string | undefined {
  const { action, anchor } = recorded;
  const at = anchor ? `xdotool mousemove --window "$W" ${anchor.point.x} ${anchor.point.y}` : undefined;
  switch (action.kind) {
    case 'click':
    case 'check':
    case 'select':
      return at && `${at} click 1`;
    case 'double-click':
      return at && `${at} click --repeat 2 1`;
    case 'right-click':
      return at && `${at} click 3`;
    case 'type':
      return `${at ? `${at} click 1; ` : ''}xdotool type --delay 12 -- ${quote(action.text)}`;
    case 'key':
      return `xdotool key -- ${toXdotoolKey(parseKeyCombo(action.combo))}`;
    case 'scroll':
      return at && `${at} click --repeat ${action.amount} ${{ up: 4, down: 5, left: 6, right: 7 }[action.direction]}`;
    case 'wait':
      return `sleep ${action.ms / 1000}`;
    default:
      return undefined;
  }
}

/** The script of `path` for an app launched by `launch` whose window title matches `window` (text or /regex/). */
export function referenceScript(path: Path, launch: string, window: string): string | undefined {
  const steps = path.actions.map(commands);
  if (steps.some((s) => s === undefined)) return undefined;
  const title = window.startsWith('/') && window.endsWith('/') ? window.slice(1, -1) : window.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    'set -e',
    `(${launch}) >/dev/null 2>&1 &`,
    'APP=$!',
    `W=$(xdotool search --sync --onlyvisible --name ${quote(title)} | head -n 1)`,
    `sleep ${DRAW_SLEEP_S}`,
    ...steps.map((s) => `${s}; sleep ${ACTION_SLEEP_S}`),
    // By process id only: the app, or the shell that started it and its children.
    'pkill -P $APP 2>/dev/null || true; kill $APP 2>/dev/null || true',
  ].join('\n');
}

/** Runs a reference script on `display`, timed from its start to its end, in ms. */
export async function runReference(script: string, display: string, env: NodeJS.ProcessEnv): Promise<number> {
  const from = performance.now();
  const result = await runCommand('bash', ['-c', script], { cwd: process.cwd(), env: { ...env, DISPLAY: display }, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`the xdotool reference exited ${result.code}: ${result.stderr.slice(-200)}`);
  return performance.now() - from;
}
