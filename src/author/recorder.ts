/**
 * Recording a path from a demonstration: the person's input is folded into actions
 * (demonstration.ts), each paired with the window the person saw when they began it
 * (screen-watch.ts); the window they saw when they began the next one (or, for the last, once
 * the screen settled after they stopped) is its "after". From those two frames each action gets what learning records: the
 * anchor of its target (with the text under it), the fingerprints and the effects.
 */
import type { Action, Frame, Point, RecordedAction, Region, Target } from '../domain.ts';
import { containsPoint, inflateRegion, regionCenter } from '../vision/frame.ts';
import { findText, readAll } from '../vision/ocr/find-text.ts';
import { segmentControls } from '../vision/segment.ts';
import type { TextReader } from '../vision/types.ts';
import { observeAction, withBeforeLine, type AssetSink } from '../brain/observe.ts';
import { foldDemonstration, type DemoStep, type NotedEvent } from './demonstration.ts';
import type { ScreenState } from './screen-watch.ts';

/** A control larger than this is a panel: its words are not one target's label. */
const MAX_CONTROL = { width: 320, height: 120 };

export interface Recorded {
  readonly actions: readonly RecordedAction[];
  /** Inputs left out, with why (a click outside the app's window). */
  readonly skipped: readonly string[];
}

export interface RecordInput {
  readonly events: readonly NotedEvent<ScreenState>[];
  /** The window once the person stopped and it settled. */
  readonly final: ScreenState;
  readonly dynamic: readonly Region[];
  readonly reader: TextReader;
  readonly assets: AssetSink;
  /** Puts `${secret.X}` placeholders back in place of the secret values typed. */
  readonly hideSecrets: (text: string) => string;
}

const relative = (p: Point, window: Region): Point => ({ x: p.x - window.x, y: p.y - window.y });
const inside = (p: Point, frame: Frame): boolean => p.x >= 0 && p.y >= 0 && p.x < frame.width && p.y < frame.height;

/** The action with window-relative points, or why it cannot be kept. */
function inWindow(step: DemoStep<ScreenState>): { action: Action } | { skip: string } {
  const { window, frame } = step.note;
  const map = (t: Target): Target | undefined => {
    if (!('x' in t)) return t;
    const p = relative(t, window);
    return inside(p, frame) ? p : undefined;
  };
  const a = step.action;
  const outside = { skip: `a ${a.kind} outside the app's window` };
  switch (a.kind) {
    case 'click':
    case 'double-click':
    case 'right-click': {
      const target = map(a.target);
      return target ? { action: { kind: a.kind, target } } : outside;
    }
    case 'scroll': {
      const target = a.target ? map(a.target) : undefined;
      return a.target && !target ? outside : { action: { ...a, ...(target ? { target } : {}) } };
    }
    case 'drag': {
      const from = map(a.from);
      const to = map(a.to);
      return from && to ? { action: { kind: 'drag', from, to } } : outside;
    }
    default:
      return { action: a };
  }
}

/** Folds the events and observes every action. */
export async function recordDemonstration(input: RecordInput): Promise<Recorded> {
  const kept: { action: Action; step: DemoStep<ScreenState> }[] = [];
  const skipped: string[] = [];
  for (const step of foldDemonstration(input.events)) {
    const mapped = inWindow(step);
    if ('skip' in mapped) skipped.push(mapped.skip);
    else kept.push({ action: mapped.action, step });
  }
  const labels = new Labels(input.reader);
  const actions: RecordedAction[] = [];
  for (const [i, { action, step }] of kept.entries()) {
    const before = step.note;
    const after = kept[i + 1]?.step.note ?? input.final;
    const secretAction = action.kind === 'type' ? withSecrets(action, input.hideSecrets) : action;
    const secret = secretAction !== action;
    const point = firstPoint(action);
    const target = point && !secret ? await labels.target(before.frame, point) : undefined;
    const observed = await observeAction({
      action: target?.text !== undefined && target.exact ? retarget(secretAction, { text: target.text }) : secretAction,
      before: before.frame,
      // A window that changed size is observed against itself: its effects are not comparable.
      after: sameSize(before.frame, after.frame) ? after.frame : before.frame,
      ...(point ? { point } : {}),
      ...(target?.text !== undefined ? { text: target.text } : {}),
      dynamic: input.dynamic,
      secret,
      // From the input to the first capture of the state the next input found.
      settleMs: Math.max(0, after.since - step.at),
      assets: input.assets,
      reader: input.reader,
    });
    actions.push(i === 0 ? withBeforeLine(observed, before.frame, input.assets) : observed);
  }
  return { actions, skipped };
}

const sameSize = (a: Frame, b: Frame): boolean => a.width === b.width && a.height === b.height;

function withSecrets(action: Extract<Action, { kind: 'type' }>, hide: (text: string) => string): Action {
  const text = hide(action.text);
  return text === action.text ? action : { ...action, text };
}

function firstPoint(action: Action): Point | undefined {
  const t = action.kind === 'drag' ? action.from : 'target' in action ? action.target : undefined;
  return t && 'x' in t ? t : undefined;
}

/** The action with its first target replaced. */
function retarget(action: Action, target: Target): Action {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return { ...action, target };
    case 'scroll':
      return { ...action, target };
    default:
      return action;
  }
}

/**
 * The text under a point and whether it names the target exactly: the words of the control
 * under the point (or the word under it), and whether finding that text on the window, as a
 * rules-grammar click does, lands on the same control. Only then is `click "T"` the same
 * action as the click at the point.
 */
class Labels {
  private readonly words = new WeakMap<Frame, Promise<import('../vision/types.ts').TextBox[]>>();

  constructor(private readonly reader: TextReader) {}

  async target(frame: Frame, point: Point): Promise<{ text?: string; exact: boolean }> {
    const control = segmentControls(frame)
      .filter((r) => containsPoint(r, point) && r.width <= MAX_CONTROL.width && r.height <= MAX_CONTROL.height)
      .sort((a, b) => a.width * a.height - b.width * b.height)[0];
    const words = await this.read(frame);
    const under = control
      ? words.filter((w) => containsPoint(control, regionCenter(w.box)))
      : words.filter((w) => containsPoint(inflateRegion(w.box, 2), point));
    const text = under
      .sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
      .map((w) => w.text.trim())
      .filter((t) => t.length > 0)
      .join(' ');
    if (!text) return { exact: false };
    const best = (await findText(this.reader, frame, text))[0];
    const area = best ? inflateRegion(best.control ?? best.box, 2) : undefined;
    const exact = area !== undefined && (control ? containsPoint(control, regionCenter(area)) : containsPoint(area, point));
    return { text, exact };
  }

  private read(frame: Frame): Promise<import('../vision/types.ts').TextBox[]> {
    let words = this.words.get(frame);
    if (!words) {
      words = readAll(this.reader, frame).then((r) => r.words.filter((w) => w.confidence >= 50));
      this.words.set(frame, words);
    }
    return words;
  }
}
