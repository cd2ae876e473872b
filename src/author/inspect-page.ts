/**
 * The inspect page: one self-contained HTML file (the image and the data inline, no network), so
 * it opens from disk and can be attached to a CI run. The boxes are plain positioned elements,
 * drawn without script; the script adds the pointer's window coordinates and, on a click, ready
 * to paste spec text for what is under it (a drag gives a region). The app's elements are listed as
 * an indented tree: hovering one draws its box on the window, clicking one copies its target.
 */
import { escapeHtml } from '../safe-text.ts';
import type { Inspection } from './inspect.ts';
import type { Region } from '../domain.ts';

/** JSON that is safe inside a <script> element. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export const pngDataUri = (png: Uint8Array): string => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

const boxStyle = (r: Region): string => `left:${r.x}px;top:${r.y}px;width:${r.width}px;height:${r.height}px`;

const STYLE = `
body{font:14px system-ui,sans-serif;margin:16px;color:#222;background:#f4f4f4}
h1{font-size:18px;margin:0 0 4px}.meta{color:#666;margin:0 0 12px}
#stage{position:relative;display:inline-block;border:1px solid #888;background:#fff;cursor:crosshair;user-select:none}
#stage img{display:block}
.box{position:absolute;box-sizing:border-box;pointer-events:none}
.word{border:1.5px solid rgba(0,90,255,.9);background:rgba(0,90,255,.08)}
.control{border:1.5px dashed rgba(255,120,0,.9)}
.element{border:2px solid rgba(0,160,60,.9)}
.pick{border:2px solid #e00;background:rgba(255,0,0,.12)}
#layout{display:flex;gap:20px;align-items:flex-start}
#side{min-width:320px;flex:1}
#coords{font:13px monospace;margin:6px 0}
.snip{display:flex;gap:6px;align-items:center;margin:4px 0}
.snip code{flex:1;background:#fff;border:1px solid #ccc;padding:4px 6px;font:13px monospace;white-space:pre}
label{margin-right:10px}
table{border-collapse:collapse;font-size:12px;margin-top:10px}td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left}
#elements tr.el{cursor:pointer}#elements tr.el:hover{background:#e4f4e8}#elements td.states{color:#666}
.none{color:#666;margin:10px 0 0}
`;

const SCRIPT = `
const data = JSON.parse(document.getElementById('data').textContent);
const stage = document.getElementById('stage');
const coords = document.getElementById('coords');
const snips = document.getElementById('snips');
const pick = document.getElementById('pick');
const at = (e) => { const r = stage.getBoundingClientRect(); return { x: Math.round(e.clientX - r.left), y: Math.round(e.clientY - r.top) }; };
const inside = (b, p) => p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;
const smallest = (list, p) => list.filter((i) => inside(i.box, p)).sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height)[0];
const q = (s) => JSON.stringify(s);
const region = (b) => 'region: [' + [b.x, b.y, b.width, b.height].join(', ') + ']';
const show = (b) => { pick.style.display = b ? 'block' : 'none'; if (b) Object.assign(pick.style, { left: b.x + 'px', top: b.y + 'px', width: b.width + 'px', height: b.height + 'px' }); };
function offer(lines) {
  snips.textContent = '';
  for (const [what, text] of lines) {
    const row = document.createElement('div'); row.className = 'snip';
    const label = document.createElement('span'); label.textContent = what;
    const code = document.createElement('code'); code.textContent = text;
    const copy = document.createElement('button'); copy.textContent = 'copy';
    copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(text);
    row.append(label, code, copy); snips.append(row);
  }
}
function explain(p) {
  const lines = [];
  const el = smallest(data.elements, p);
  if (el) lines.push(['element', '{ role: ' + el.role + ', name: ' + q(el.name) + ' }']);
  const word = smallest(data.words, p);
  if (word) { lines.push(['rules grammar', 'click ' + q(word.text)], ['steps', 'click: ' + q(word.text)], ['expect', 'text: ' + q(word.text)], ['word box', region(word.box)]); }
  const control = smallest(data.controls, p);
  if (control) lines.push(['control box', region(control.box)]);
  lines.push(['point', 'click: { x: ' + p.x + ', y: ' + p.y + ' }']);
  show((el || word || control || {}).box);
  offer(lines);
}
let down = null;
stage.addEventListener('mousemove', (e) => {
  const p = at(e);
  coords.textContent = 'x ' + p.x + ', y ' + p.y + ' (window-relative)';
  if (down && (Math.abs(p.x - down.x) > 3 || Math.abs(p.y - down.y) > 3)) show({ x: Math.min(p.x, down.x), y: Math.min(p.y, down.y), width: Math.abs(p.x - down.x), height: Math.abs(p.y - down.y) });
});
stage.addEventListener('mousedown', (e) => { down = at(e); e.preventDefault(); });
stage.addEventListener('mouseup', (e) => {
  const p = at(e); const from = down; down = null;
  if (!from) return;
  if (Math.abs(p.x - from.x) > 3 || Math.abs(p.y - from.y) > 3) {
    const b = { x: Math.min(p.x, from.x), y: Math.min(p.y, from.y), width: Math.abs(p.x - from.x), height: Math.abs(p.y - from.y) };
    show(b); offer([['region', region(b)], ['mask', 'mask: [[' + [b.x, b.y, b.width, b.height].join(', ') + ']]']]);
  } else explain(p);
});
for (const row of document.querySelectorAll('tr.el')) {
  const el = data.elements[Number(row.dataset.i)];
  row.onmouseenter = () => show(el.box);
  row.onmouseleave = () => show(null);
  row.onclick = () => {
    const text = el.target || '{ role: ' + el.role + ', name: ' + q(el.name) + ' }';
    if (navigator.clipboard) navigator.clipboard.writeText(text);
    offer([['element', text]]);
  };
}
for (const box of document.querySelectorAll('input[data-layer]')) box.onchange = () => {
  for (const el of document.querySelectorAll('.' + box.dataset.layer)) el.style.display = box.checked ? '' : 'none';
};
`;

export function inspectPage(inspection: Inspection, png: Uint8Array): string {
  const { window: win, words, controls, elements } = inspection;
  const boxes = [
    ...controls.map((c) => `<div class="box control" style="${boxStyle(c.box)}"></div>`),
    ...words.map((w) => `<div class="box word" style="${boxStyle(w.box)}" title="${escapeHtml(w.text)}"></div>`),
    ...elements.map((e) => `<div class="box element" style="${boxStyle(e.box)}" title="${escapeHtml(`${e.role} ${e.name}`)}"></div>`),
  ].join('\n');
  const wordRows = words
    .map(
      (w) =>
        `<tr><td>${escapeHtml(w.text)}</td><td>[${w.box.x}, ${w.box.y}, ${w.box.width}, ${w.box.height}]</td><td>${w.confidence}</td></tr>`,
    )
    .join('');
  const elementRows = elements
    .map(
      (e, i) =>
        `<tr class="el" data-i="${i}" title="click to copy"><td style="padding-left:${6 + 14 * e.depth}px">${escapeHtml(e.role)}</td><td>${escapeHtml(e.name)}</td>` +
        `<td class="states">${escapeHtml(e.states.join(' '))}</td><td>[${e.box.x}, ${e.box.y}, ${e.box.width}, ${e.box.height}]</td><td><code>${escapeHtml(e.target ?? '')}</code></td></tr>`,
    )
    .join('');
  const elementList =
    inspection.elementsNote === null
      ? `<table id="elements"><tr><th>role</th><th>name</th><th>states</th><th>box [x, y, w, h]</th><th>target (click to copy)</th></tr>${elementRows}</table>`
      : `<p class="none" id="elements">No elements: ${escapeHtml(inspection.elementsNote)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>retrace inspect: ${escapeHtml(inspection.spec)}</title>
<style>${STYLE}</style></head><body>
<h1>${escapeHtml(win.title)}</h1>
<p class="meta">${escapeHtml(inspection.spec)}${inspection.goal ? ` · after goal <b>${escapeHtml(inspection.goal)}</b>` : ''} · window ${win.width}×${win.height} · ${words.length} words · ${controls.length} controls · ${elements.length} elements</p>
<div id="layout">
<div id="stage" style="width:${win.width}px;height:${win.height}px"><img src="${pngDataUri(png)}" width="${win.width}" height="${win.height}" alt="the window" draggable="false">
${boxes}
<div class="box pick" id="pick" style="display:none"></div></div>
<div id="side">
<div><label><input type="checkbox" data-layer="word" checked> words</label><label><input type="checkbox" data-layer="control" checked> controls</label><label><input type="checkbox" data-layer="element" checked> elements</label></div>
<div id="coords">move over the window for coordinates; click for a target, drag for a region</div>
<div id="snips"></div>
${elementList}
<table><tr><th>word</th><th>box [x, y, w, h]</th><th>conf.</th></tr>${wordRows}</table>
</div></div>
<script type="application/json" id="data">${scriptJson(inspection)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
