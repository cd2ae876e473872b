/** Performs one action on the desktop, at targets already resolved to window-relative points. */
import type { Action, Point, Region } from '../domain.ts';
import type { InputDriver } from '../desktop/types.ts';

const onScreen = (window: Region, p: Point): Point => ({ x: window.x + p.x, y: window.y + p.y });

/**
 * @param points the resolved targets of `action`, in the order of `targetsOf(action)`.
 * @param resolveText turns `${env.X}` / `${secret.X}` placeholders into the values to type.
 */
export async function perform(
  input: InputDriver,
  action: Action,
  points: readonly Point[],
  window: Region,
  resolveText: (template: string) => string,
): Promise<void> {
  const at = (i: number): Point => {
    const p = points[i];
    if (!p) throw new Error(`internal: ${action.kind} needs ${i + 1} resolved point(s)`);
    return onScreen(window, p);
  };
  switch (action.kind) {
    case 'click':
      return input.click(at(0));
    case 'double-click':
      return input.click(at(0), { count: 2 });
    case 'right-click':
      return input.click(at(0), { button: 'right' });
    case 'type':
      if (action.into) await input.click(at(0));
      return input.type(resolveText(action.text));
    case 'key':
      return input.key(action.combo);
    case 'scroll': {
      const where = action.target ? at(0) : onScreen(window, { x: Math.round(window.width / 2), y: Math.round(window.height / 2) });
      return input.scroll(where, action.direction, action.amount);
    }
    case 'drag':
      return input.drag(at(0), at(1));
    case 'wait':
    case 'wait-for':
      // Waiting is done by the caller, which knows the screen and the clock.
      return;
  }
}
