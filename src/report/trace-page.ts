/**
 * The page of a trace: one step per action, then the expectations, shown one at a time; the
 * slider, the arrow keys (← →, Home, End) and the buttons move between them. Each step shows the
 * full window before (the target: where it was recorded, where each rung looked, the one
 * accepted) and after (each effect where it was recorded and where it was found, changes nobody
 * recorded), with its rungs, effects, timings and failure as text. Every value is escaped; the
 * script is a constant and reads nothing of the trace.
 */
import type { Region } from '../domain.ts';
import type { Trace, TraceAction, TraceExpectation, TraceImage } from './trace.ts';
import { escapeHtml as esc } from '../safe-text.ts';

interface Box {
  readonly region: Region;
  /** A CSS class: its colour and line. */
  readonly kind: 'recorded' | 'rung' | 'target' | 'candidate' | 'expected' | 'found' | 'missing' | 'unexpected' | 'region' | 'word';
  readonly label: string;
}

const pct = (n: number, of: number): string => `${((n / Math.max(1, of)) * 100).toFixed(3)}%`;
const boxText = (r: Region): string => `[${r.x}, ${r.y}, ${r.width}, ${r.height}]`;

function shot(title: string, image: TraceImage | undefined, boxes: readonly Box[]): string {
  if (!image)
    return `<figure class="shot"><figcaption>${esc(title)}</figcaption><p class="none">no image (a secret was typed, or the action never acted)</p></figure>`;
  const drawn = boxes
    .map(
      (b) =>
        `<div class="box ${b.kind}" title="${esc(b.label)}" style="left:${pct(b.region.x, image.width)};top:${pct(b.region.y, image.height)};` +
        `width:${pct(b.region.width, image.width)};height:${pct(b.region.height, image.height)}"></div>`,
    )
    .join('');
  return (
    `<figure class="shot"><figcaption>${esc(title)} (${image.width}×${image.height})</figcaption>` +
    `<div class="frame"><a href="${esc(image.file)}" target="_blank"><img src="${esc(image.file)}" alt="${esc(title)}"></a>${drawn}</div></figure>`
  );
}

function table(head: readonly string[], rows: readonly (readonly string[])[], rowClass: (i: number) => string = () => ''): string {
  if (rows.length === 0) return '';
  return (
    `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>` +
    rows.map((r, i) => `<tr class="${esc(rowClass(i))}">${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('') +
    '</table>'
  );
}

function beforeBoxes(a: TraceAction): Box[] {
  const boxes: Box[] = [];
  if (a.recorded) boxes.push({ region: a.recorded, kind: 'recorded', label: `recorded target ${boxText(a.recorded)}` });
  for (const r of a.detail?.rungs ?? []) {
    if (r.box)
      boxes.push({
        region: r.box,
        kind: r.accepted ? 'target' : 'rung',
        label: `${r.rung}: score ${r.score.toFixed(2)}${r.accepted ? ' (accepted)' : ''}`,
      });
  }
  if (a.candidate) boxes.push({ region: a.candidate, kind: 'candidate', label: `best candidate ${boxText(a.candidate)}` });
  return boxes;
}

function afterBoxes(a: TraceAction): Box[] {
  const boxes: Box[] = [];
  for (const e of a.detail?.effects ?? []) {
    if (e.skipped) continue;
    boxes.push({ region: e.expected, kind: 'expected', label: `${e.kind} effect recorded here` });
    boxes.push({
      region: e.found,
      kind: e.verified ? 'found' : 'missing',
      label: `${e.kind} effect ${e.verified ? 'found' : 'not found'}${e.detail ? `: ${e.detail}` : ''}`,
    });
  }
  const elements = a.detail?.elements;
  for (const region of elements?.boxes ?? []) {
    boxes.push({ region, kind: 'expected', label: 'element effect recorded here' });
    if (elements?.problem) boxes.push({ region, kind: 'missing', label: `element effect not as recorded: ${elements.problem}` });
  }
  for (const u of a.report?.unexpected ?? [])
    boxes.push({ region: u.region, kind: 'unexpected', label: `unexpected change: ${u.text || 'no text'}` });
  return boxes;
}

function actionStep(a: TraceAction, failed: boolean): string {
  const r = a.report;
  const timing = r
    ? table(
        ['ms', 'wait', 'resolve', 'act', 'settle', 'verify', 'retries', 'resolved by', 'verified'],
        [[r.ms, r.waitMs, r.resolveMs, r.actMs, r.settleMs, r.verifyMs, r.retries, r.resolvedBy, r.verified].map(String)],
      )
    : '<p class="none">the action did not report (the goal ended in it)</p>';
  const rungs = table(
    ['rung', 'score', 'runner-up', 'box', 'accepted'],
    (a.detail?.rungs ?? []).map((g) => [
      g.rung,
      g.score.toFixed(3),
      g.runnerUp.toFixed(3),
      g.box ? boxText(g.box) : '—',
      g.accepted ? 'yes' : 'no',
    ]),
  );
  const effects = table(
    ['effect', 'recorded text', 'expected at', 'found at', 'verified', 'why not'],
    (a.detail?.effects ?? []).map((e) => [
      e.skipped ? `${e.kind} (feedback, not checked)` : e.kind,
      e.text ?? '',
      boxText(e.expected),
      boxText(e.found),
      e.verified ? 'found' : 'NOT found',
      e.detail ?? '',
    ]),
    (i) => ((a.detail?.effects ?? [])[i]?.verified ? 'ok' : 'bad'),
  );
  const elements = a.detail?.elements
    ? `<h3>Element effects</h3><ul>${a.detail.elements.expected.map((e) => `<li>expected: ${esc(e)}</li>`).join('')}` +
      (!a.detail.elements.checked
        ? '<li>not checked: the pixels failed first</li>'
        : a.detail.elements.problem
          ? `<li class="bad">found: ${esc(a.detail.elements.problem)}</li>`
          : '<li class="ok">found as recorded</li>') +
      '</ul>'
    : '';
  const unexpected = (r?.unexpected ?? [])
    .map((u) => `<li class="bad">${esc(boxText(u.region))}: ${esc(u.text ? `"${u.text}"` : 'no text')}</li>`)
    .join('');
  return (
    `<h2>Action ${a.index + 1}: ${esc(a.description)}${failed ? ' <span class="badge bad">failed here</span>' : ''}</h2>` +
    (a.failure ? `<p class="failure">${esc(a.failure)}</p>` : '') +
    (r?.healed ? `<p>healed: ${esc(r.healed)}</p>` : '') +
    timing +
    (rungs ? `<h3>Target: rungs tried</h3>${rungs}` : '') +
    (effects ? `<h3>Effects</h3>${effects}` : '') +
    elements +
    (unexpected ? `<h3>Changes nobody recorded</h3><ul>${unexpected}</ul>` : '') +
    `<div class="shots">${shot('before', a.before, beforeBoxes(a))}${shot('after', a.after, afterBoxes(a))}</div>`
  );
}

function expectationBlock(e: TraceExpectation): string {
  const boxes: Box[] = [
    ...(e.region ? [{ region: e.region, kind: 'region' as const, label: `read here ${boxText(e.region)}` }] : []),
    ...(e.words ?? []).map((w) => ({ region: w, kind: 'word' as const, label: `a word read ${boxText(w)}` })),
  ];
  const diff = e.diff
    ? `<div class="shots">${shot('expected', e.diff.expected, [])}${shot('actual', e.diff.actual, [])}${shot('diff', e.diff.diff, [])}</div>`
    : '';
  return (
    `<div class="expectation ${e.passed ? 'ok' : 'bad'}"><h3>${e.passed ? '✓' : '✗'} expect ${esc(e.description)}</h3><p>${esc(e.message)}</p>` +
    (e.frame ? `<div class="shots">${shot('judged on', e.frame, boxes)}</div>` : '') +
    diff +
    '</div>'
  );
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}
header,nav,main,footer{padding:8px 16px}
header{background:#f4f4f4;border-bottom:1px solid #ddd}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;display:flex;gap:8px;align-items:center;z-index:2}
nav input{flex:1}
.status-passed{color:#107030}.status-failed,.status-broken{color:#c01020}
.bad{color:#c01020}.ok{color:#107030}
.badge{border:1px solid;border-radius:4px;padding:0 4px;font-size:12px}
.failure{background:#fde8ea;border-left:4px solid #c01020;padding:6px}
table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
.shots{display:flex;flex-wrap:wrap;gap:12px}
.shot{margin:0;max-width:100%}
.frame{position:relative;display:inline-block;border:1px solid #888;line-height:0}
.frame img{max-width:min(100%,1400px);height:auto;display:block}
.box{position:absolute;box-sizing:border-box;pointer-events:none}
.box.recorded{border:2px dashed #0060ff}.box.rung{border:2px dotted #ff8c00}.box.target{border:3px solid #ff00c8}
.box.candidate{border:2px solid #ff8c00}.box.expected{border:2px dashed #0060ff}.box.found{border:3px solid #00b050}
.box.missing{border:3px solid #e00028}.box.unexpected{border:3px solid #b000ff}.box.region{border:2px dashed #0060ff}
.box.word{border:1px solid #e00028}
.legend span{margin-right:12px}
pre{background:#f8f8f8;padding:8px;white-space:pre-wrap}
`;

const SCRIPT = `
const steps=[...document.querySelectorAll('section.step')];
const slider=document.getElementById('slider');
const pos=document.getElementById('pos');
function show(i){if(!steps.length)return;i=Math.max(0,Math.min(steps.length-1,i));steps.forEach((s,k)=>s.hidden=k!==i);slider.value=String(i);pos.textContent=(i+1)+' / '+steps.length+': '+steps[i].dataset.title;document.body.dataset.step=String(i);}
slider.addEventListener('input',()=>show(Number(slider.value)));
document.getElementById('prev').addEventListener('click',()=>show(Number(slider.value)-1));
document.getElementById('next').addEventListener('click',()=>show(Number(slider.value)+1));
document.addEventListener('keydown',(e)=>{const i=Number(slider.value);
if(e.key==='ArrowRight'||e.key==='j'){show(i+1);e.preventDefault();}
else if(e.key==='ArrowLeft'||e.key==='k'){show(i-1);e.preventDefault();}
else if(e.key==='Home'){show(0);e.preventDefault();}else if(e.key==='End'){show(steps.length-1);e.preventDefault();}});
show(0);
`;

/** The whole page, self-contained but for the trace's own images beside it. */
export function tracePage(trace: Trace): string {
  const steps = [
    ...trace.actions.map((a) => ({
      title: `action ${a.index + 1}: ${a.description}`,
      failed: trace.failedAction === a.index,
      body: actionStep(a, trace.failedAction === a.index),
    })),
    ...(trace.expectations.length > 0
      ? [
          {
            title: 'expectations',
            failed: trace.category === 'expectation-failed',
            body: `<h2>Expectations</h2>${trace.expectations.map(expectationBlock).join('')}`,
          },
        ]
      : []),
  ];
  const sections = steps
    .map(
      (s, i) =>
        `<section class="step${s.failed ? ' failed' : ''}" data-step="${i}" data-title="${esc(s.title)}"${i === 0 ? '' : ' hidden'}>${s.body}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trace: ${esc(trace.spec)} › ${esc(trace.goal)}</title><style>${STYLE}</style></head>
<body>
<header><h1>${esc(trace.spec)} › ${esc(trace.goal)}: <span class="status-${esc(trace.status)}">${esc(trace.status)}</span></h1>
<p>${esc(trace.mode)}, ${esc(String(trace.durationMs))} ms${trace.failedAction !== undefined ? `, failed at action ${trace.failedAction + 1}` : ''}</p>
${trace.message ? `<p class="failure">${esc(trace.message)}</p>` : ''}
<p class="legend"><span style="color:#0060ff">dashed blue: recorded</span><span style="color:#ff8c00">orange: rungs and candidates</span><span style="color:#ff00c8">magenta: the target acted on</span><span style="color:#00b050">green: effect found</span><span style="color:#e00028">red: effect not found, words read</span><span style="color:#b000ff">purple: change nobody recorded</span></p></header>
<nav><button id="prev" type="button">← previous</button><input id="slider" type="range" min="0" max="${Math.max(0, steps.length - 1)}" value="0" aria-label="step"><button id="next" type="button">next →</button><span id="pos"></span></nav>
<main>
${sections || '<p class="none">the goal did no action and checked nothing</p>'}
</main>
<footer><h2>Console</h2><pre>${esc(trace.console.join('\n'))}</pre></footer>
<script>${SCRIPT}</script>
</body></html>
`;
}
