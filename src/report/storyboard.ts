/**
 * A path as a storyboard: one self-contained HTML page (images inline, opens from disk or as a CI
 * artifact) with a row per action — what was under the target before it, what it changed after.
 *
 * A path keeps crops, not screens: the anchor (the control under the target) and the post image
 * of every region an action changed. So each panel is the window at its recorded size, grey
 * where the path holds no pixels, with every crop known up to that moment pasted in place (the
 * effects of earlier actions, faded): "before" adds the anchor crop, the target boxed in red with
 * a dot where the action points; "after" adds the action's effects, boxed in green. An action
 * that typed a secret has no images: its changed regions are hatched. With a healed proposal the
 * page shows the original and the proposal side by side, so `retrace paths accept` can be
 * reviewed in a pull request.
 */
import { describeExit, exitOf, onScreen, type ActionReport, type Path, type RecordedAction, type Region } from '../domain.ts';
import { rateText, type PathStats } from './stats.ts';
import { describeAction, describeElementEffect } from '../spec-file/describe.ts';
import { join } from 'node:path';
import { escapeHtml } from '../safe-text.ts';
import type { PathStore } from '../paths/store.ts';
import { specDirName } from '../paths/location.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { secretMasker } from '../spec-file/secrets.ts';

export interface StoryboardPath {
  readonly path: Path;
  /** PNG bytes of one of its assets. */
  readonly asset: (name: string) => Uint8Array;
}

export interface StoryboardInput {
  readonly original: StoryboardPath;
  /** A healed proposal waiting for accept or reject. */
  readonly proposal?: StoryboardPath;
  readonly stats?: PathStats;
  /** The actions of the latest run, index-aligned with the path: rung and timings. */
  readonly lastRun?: readonly ActionReport[];
  /** The full window before and after each action of the latest run (PNG), by action index. */
  readonly lastRunWindows?: ReadonlyMap<number, { readonly before: Uint8Array; readonly after: Uint8Array }>;
}

/** How wide a panel is drawn at most, in CSS pixels. */
const PANEL_WIDTH = 360;

const STYLE = `
body{font:14px system-ui,sans-serif;margin:16px;color:#222;background:#f6f6f6}
h1{font-size:18px;margin:0 0 4px}.meta{color:#555;margin:0 0 14px}
table{border-collapse:collapse}td,th{vertical-align:top;padding:8px;border-bottom:1px solid #ddd;text-align:left}
.panel{position:relative;overflow:hidden;background:repeating-linear-gradient(45deg,#d8d8d8 0 6px,#cfcfcf 6px 12px);border:1px solid #888}
.panel .inner{position:absolute;left:0;top:0;transform-origin:0 0}
.panel img,.panel .box,.panel .dot{position:absolute}
.panel img.past{opacity:.45}
.box{box-sizing:border-box}.target{border:3px solid #e0202a}.effect{border:3px solid #10a040}
.secret{background:repeating-linear-gradient(135deg,#333 0 4px,#777 4px 8px);opacity:.7}
.dot{width:8px;height:8px;margin:-5px 0 0 -5px;border-radius:50%;background:rgba(224,32,42,.75);border:1px solid #fff}
.what{min-width:220px;max-width:300px;font-size:13px}.what b{font-size:14px}
.healed{background:#fff6d8}.label{font-size:12px;color:#666}
.zoom{display:block;width:${PANEL_WIDTH}px;border:1px solid #888;cursor:zoom-in}.zoom img{width:100%;display:block}
.zoom:target{position:fixed;inset:0;width:auto;overflow:auto;background:rgba(0,0,0,.85);z-index:9;cursor:auto;border:0}
.zoom:target img{width:auto;max-width:none;margin:24px auto}.zoom .close{display:none}.zoom:target .close{display:block;color:#fff;padding:8px 24px}
code{background:#fff;border:1px solid #ddd;padding:0 3px}
`;

const at = (r: Region): string => `left:${r.x}px;top:${r.y}px;width:${r.width}px;height:${r.height}px`;
/** OCR text of a path, as shown: escaped, and a secret the app displayed masked. */
const shown = (text: string): string => escapeHtml(secretMasker.mask(text));
const dataUri = (png: Uint8Array): string => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

interface Crop {
  readonly region: Region;
  readonly image?: string;
}

/** The crops every action of a path leaves behind, in order. */
const effectsOf = (action: RecordedAction): Crop[] =>
  onScreen(action.effects).map((e) => ({ region: e.region, ...(e.image ? { image: e.image } : {}) }));

function panel(source: StoryboardPath, past: readonly Crop[], shown: string[]): string {
  const { width, height } = source.path.window;
  const k = Math.min(1, PANEL_WIDTH / width);
  const img = (c: Crop, cls: string): string =>
    c.image ? `<img class="${cls}" src="${dataUri(source.asset(c.image))}" style="${at(c.region)}" alt="">` : '';
  return (
    `<div class="panel" style="width:${Math.round(width * k)}px;height:${Math.round(height * k)}px">` +
    `<div class="inner" style="width:${width}px;height:${height}px;transform:scale(${k})">` +
    past.map((c) => img(c, 'past')).join('') +
    shown.join('') +
    '</div></div>'
  );
}

function actionCells(source: StoryboardPath, index: number, past: readonly Crop[]): { before: string; after: string } {
  const recorded = source.path.actions[index];
  if (!recorded) return { before: '<td></td>', after: '<td></td>' };
  const anchor = recorded.anchor;
  const img = (c: Crop): string => (c.image ? `<img src="${dataUri(source.asset(c.image))}" style="${at(c.region)}" alt="">` : '');
  const before = anchor
    ? [
        img({ region: anchor.box, image: anchor.image }),
        `<div class="box target" style="${at(anchor.box)}"></div>`,
        `<div class="dot" style="left:${anchor.point.x}px;top:${anchor.point.y}px"></div>`,
      ]
    : [];
  const after = effectsOf(recorded).map(
    (c) => `${img(c)}<div class="box effect${c.image ? '' : ' secret'}" style="${at(c.region)}"></div>`,
  );
  return { before: `<td>${panel(source, past, before)}</td>`, after: `<td>${panel(source, past, after)}</td>` };
}

function describe(recorded: RecordedAction | undefined, report: ActionReport | undefined): string {
  if (!recorded) return '<td class="what">—</td>';
  const lines = [`<b>${escapeHtml(describeAction(recorded.action))}</b>`];
  if (recorded.anchor?.text)
    lines.push(`on <code>${shown(recorded.anchor.text)}</code> at (${recorded.anchor.point.x}, ${recorded.anchor.point.y})`);
  const texts = recorded.effects.flatMap((e) => (e.text ? [e.text.replace(/\n/g, ' ⏎ ')] : []));
  lines.push(
    `${recorded.effects.length} effect${recorded.effects.length === 1 ? '' : 's'}${texts.length ? `: ${texts.map((t) => `<code>${shown(t)}</code>`).join(', ')}` : ''}`,
  );
  const told = (recorded.elements ?? []).map(describeElementEffect);
  if (told.length) lines.push(`in its elements: ${told.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ')}`);
  const ended = exitOf(recorded)?.exit;
  if (ended) lines.push(`the application ${escapeHtml(describeExit(ended))}`);
  lines.push(`settled in ${recorded.settleMs} ms when recorded`);
  if (recorded.secret) lines.push('typed a secret: no images kept');
  if (report)
    lines.push(
      `last run: ${report.verified ? 'verified' : '<b>not verified</b>'}, resolved by <b>${report.resolvedBy}</b>, ${report.ms} ms (wait ${report.waitMs}, resolve ${report.resolveMs}, act ${report.actMs}, settle ${report.settleMs}, verify ${report.verifyMs})${report.retries ? `, ${report.retries} retries` : ''}`,
    );
  return `<td class="what">${lines.join('<br>')}</td>`;
}

export function storyboardPage(input: StoryboardInput): string {
  const { original, proposal, stats } = input;
  const { path } = original;
  const count = Math.max(path.actions.length, proposal?.path.actions.length ?? 0);
  const windows = input.lastRunWindows;
  const columns = [
    ...(proposal ? ['original: before', 'original: after', 'proposal: before', 'proposal: after'] : ['before', 'after']),
    ...(windows ? ['last run: before', 'last run: after'] : []),
  ];
  // A preview that opens at full size (CSS :target, no script): one copy of each image.
  const zoom = (png: Uint8Array | undefined, id: string): string =>
    png
      ? `<td><a class="zoom" id="${id}" href="#${id}"><span class="close">full size — the browser's Back returns</span><img src="${dataUri(png)}" alt=""></a></td>`
      : '<td></td>';
  const pastOriginal: Crop[] = [];
  const pastProposal: Crop[] = [];
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = path.actions[i];
    const b = proposal?.path.actions[i];
    const differs = proposal !== undefined && JSON.stringify(a) !== JSON.stringify(b);
    const cells = actionCells(original, i, pastOriginal);
    const proposed = proposal ? actionCells(proposal, i, pastProposal) : undefined;
    rows.push(
      `<tr${differs ? ' class="healed"' : ''}><td>${i + 1}</td>${describe(a, input.lastRun?.[i])}${cells.before}${cells.after}` +
        (proposed ? `${proposed.before}${proposed.after}${describe(b, undefined)}` : '') +
        (windows ? `${zoom(windows.get(i)?.before, `run-${i + 1}-before`)}${zoom(windows.get(i)?.after, `run-${i + 1}-after`)}` : '') +
        '</tr>',
    );
    if (a) pastOriginal.push(...(a.anchor ? [{ region: a.anchor.box, image: a.anchor.image }] : []), ...effectsOf(a));
    if (b) pastProposal.push(...(b.anchor ? [{ region: b.anchor.box, image: b.anchor.image }] : []), ...effectsOf(b));
  }
  const rate = stats && stats.runs > 0 ? `success ${rateText(stats)}, ${stats.state}` : 'no runs in the history yet';
  const title = `${path.spec}#${path.goal}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>storyboard: ${escapeHtml(title)}</title><style>${STYLE}</style></head><body>
<h1>${escapeHtml(title)}${proposal ? ' — healed proposal' : ''}</h1>
<p class="meta">${path.actions.length} actions · made by ${escapeHtml(path.planner)}${path.model ? ` (${escapeHtml(path.model)})` : ''} from its ${path.source.kind === 'steps' ? 'steps' : 'goal text'} · window ${path.window.width}×${path.window.height} · ${rate}<br>
<span class="label">Panels: the window at its recorded size; grey where the path keeps no pixels; crops known from earlier actions faded. Red: the target (a dot where it points). Green: what the action changed.${proposal ? ' Highlighted rows differ in the proposal.' : ''}${windows ? ' Last run: the full window before and after each action as the latest run saw it; click one for full size.' : ''}</span></p>
<table><tr><th>#</th><th>action</th>${columns.map((c) => `<th>${c}</th>`).join('')}${proposal ? '<th>proposed action</th>' : ''}</tr>
${rows.join('\n')}
</table></body></html>
`;
}

/** Where a run writes a goal's storyboard: `<reports>/storyboards/<spec without .yaml>/<goal>.html`. */
export const storyboardFile = (reportsDir: string, specId: string, goalId: string): string =>
  join(reportsDir, 'storyboards', specDirName(specId), `${goalId}.html`);

/**
 * Writes the storyboard of a goal's path (with its proposal, when there is one) to `file`.
 * Returns false, writing nothing, when the goal has no path.
 */
export function writeStoryboard(
  store: PathStore,
  specId: string,
  goalId: string,
  file: string,
  extra: Pick<StoryboardInput, 'stats' | 'lastRun' | 'lastRunWindows'> = {},
): boolean {
  const path = store.read(specId, goalId);
  if (!path) return false;
  const proposal = store.readProposal(specId, goalId);
  const asset = (name: string): Uint8Array => store.asset(specId, goalId, name);
  writeFileAtomic(
    file,
    storyboardPage({ original: { path, asset }, ...(proposal ? { proposal: { path: proposal, asset } } : {}), ...extra }),
  );
  return true;
}
