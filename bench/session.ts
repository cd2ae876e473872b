/**
 * The desktop session: reading an app's elements over the accessibility bus (AT-SPI), reading
 * one element again, and what turning animations off saves galculator per click.
 *
 * Element reads are timed on real apps of several toolkits and sizes, the largest a zenity form
 * of about 300 elements (the target: ≤ 50 ms for a window of up to 300). The settle figures
 * are the time from a click on a galculator button to a stable window, with the default
 * (animations off) and with `animations: allow`.
 */
import type { Desktop, Element, ElementSource } from '../src/desktop/types.ts';
import { waitForStable } from '../src/vision/settle.ts';
import { figure, guarded, type Measurement, type Row } from './measure.ts';
import { FIXTURES } from './desktop.ts';

const GROUP = 'Desktop session';
const READS = 15;
const CLICKS = 12;
const TREE_TARGET = { op: '<=', value: 50, text: '≤ 50 ms' } as const;

/** A zenity form with `n` entries: two elements an entry (label, field) and a few containers. */
const form = (n: number): string =>
  `zenity --forms --title Form${n} ${Array.from({ length: n }, (_, i) => `--add-entry=Field${i}`).join(' ')}`;

const APPS: ReadonlyArray<{ name: string; launch: string; window: string; size?: readonly [number, number] }> = [
  { name: 'zenity --forms, 2 entries (GTK 3)', launch: form(2), window: 'Form2' },
  { name: 'galculator (GTK 3)', launch: 'galculator', window: 'galculator', size: [400, 360] },
  { name: 'fixture calculator (Chromium)', launch: `${FIXTURES}/open calculator`, window: 'Retrace Calculator' },
  { name: 'zenity --forms, 145 entries (GTK 3)', launch: form(145), window: 'Form145' },
];

const treeRow = (name: string): Row => ({ name: `element tree read: ${name}`, unit: 'ms', target: TREE_TARGET });
const REFRESH: Row = { name: 'one element read again (galculator button)', unit: 'ms' };
const SETTLE = {
  off: { name: 'galculator click → stable, animations off (default)', unit: 'ms' },
  allow: { name: 'galculator click → stable, animations: allow', unit: 'ms' },
} as const satisfies Record<string, Row>;

export const ROWS: readonly Row[] = [...APPS.map((a) => treeRow(a.name)), REFRESH, SETTLE.off, SETTLE.allow];

/** Reads until the app has joined the bus, then times READS reads. */
async function timeReads(desktop: Desktop, elements: ElementSource, app: (typeof APPS)[number]): Promise<Measurement> {
  const session = await desktop.launch({ launch: app.launch, window: app.window, ...(app.size && { size: app.size }) });
  try {
    const window = (await session.window()).region;
    let count = 0;
    for (let i = 0; i < 50 && count === 0; i++) count = (await elements.read(session, { window })).length;
    const samples: number[] = [];
    for (let i = 0; i < READS + 2; i++) {
      const start = performance.now();
      count = (await elements.read(session, { window })).length;
      if (i >= 2) samples.push(performance.now() - start);
    }
    return figure({ group: GROUP, ...treeRow(app.name), samples, note: `${count} elements` });
  } finally {
    await session.close();
  }
}

/**
 * Clicks galculator's "7" and "8" in turn, CLICKS times, as a replay does (the pointer moves to
 * each button: hover, press, release); returns, per click, the time until the window is stable.
 */
async function settlePerClick(
  desktop: Desktop,
  elements: ElementSource,
  animations: 'off' | 'allow',
): Promise<{ settle: number[]; refresh: number[] }> {
  const app = await desktop.launch({ launch: 'galculator', window: 'galculator', size: [400, 360], animations });
  try {
    const window = (await app.window()).region;
    const button = async (name: string) => {
      for (let i = 0; i < 50; i++) {
        const [found] = await elements.find(app, { role: 'button', name }, { window });
        if (found !== undefined) return found;
      }
      throw new Error(`galculator published no button "${name}"`);
    };
    const buttons = [await button('7'), await button('8')];
    const grab = () => desktop.capture.grab(window);
    const settle: number[] = [];
    const refresh: number[] = [];
    for (let i = 0; i < CLICKS; i++) {
      const target = buttons[i % 2] as Element;
      const at = {
        x: window.x + target.box.x + Math.floor(target.box.width / 2),
        y: window.y + target.box.y + Math.floor(target.box.height / 2),
      };
      const before = (await waitForStable(grab, { quietMs: 300 })).frame;
      const start = performance.now();
      await desktop.input.click(at);
      const result = await waitForStable(grab, { expectChangeFrom: before, timeoutMs: 3_000 });
      if (result.stable && result.reacted) settle.push(performance.now() - start);
      const t = performance.now();
      await elements.refresh(app, target, { window });
      refresh.push(performance.now() - t);
    }
    return { settle, refresh };
  } finally {
    await app.close();
  }
}

export async function benchSession(desktopPromise: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const desktop = await desktopPromise;
    const elements = desktop.elements;
    if (elements === undefined) throw new Error('the benchmark display has no accessibility bus (RETRACE_ACCESSIBILITY=off?)');
    const results: Measurement[] = [];
    for (const app of APPS) results.push(await timeReads(desktop, elements, app));
    const off = await settlePerClick(desktop, elements, 'off');
    const allow = await settlePerClick(desktop, elements, 'allow');
    results.push(figure({ group: GROUP, ...REFRESH, samples: off.refresh, note: 'states, name, text, box: no tree read' }));
    results.push(figure({ group: GROUP, ...SETTLE.off, samples: off.settle, note: `${off.settle.length} of ${CLICKS} clicks settled` }));
    results.push(
      figure({
        group: GROUP,
        ...SETTLE.allow,
        samples: allow.settle,
        note: `${allow.settle.length} of ${CLICKS} clicks settled; GTK's button animation`,
      }),
    );
    return results;
  });
}
