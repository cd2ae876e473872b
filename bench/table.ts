/** Renders the benchmark as a Markdown table: readable on a terminal, and in docs as it is. */
import type { Measurement } from './measure.ts';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly loadAverage: readonly number[];
  readonly date: string;
}

export const formatNumber = (x: number): string => {
  if (!Number.isFinite(x) || Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
};

const VERDICT: Record<Measurement['verdict'], string> = {
  ok: 'ok',
  MISS: '**MISS**',
  info: '',
  'not measured': 'not measured',
};

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(results: readonly Measurement[]): string {
  const lines = ['| group | measurement | median | p10 – p90 | n | target | verdict | note |', '|---|---|--:|--:|--:|---|---|---|'];
  let group = '';
  for (const m of results) {
    const figure = m.stats?.median ?? m.value;
    const value = figure === undefined ? '—' : `${formatNumber(figure)} ${m.unit}`;
    const spread = m.stats ? `${formatNumber(m.stats.p10)} – ${formatNumber(m.stats.p90)}` : '';
    const n = m.stats ? String(m.stats.n) : '';
    const target = m.target ? (m.target.text ?? `${m.target.op} ${m.target.value} ${m.unit}`) : '';
    lines.push(
      `| ${m.group === group ? '' : cell(m.group)} | ${cell(m.name)} | ${value} | ${spread} | ${n} | ${cell(target)} | ${VERDICT[m.verdict]} | ${cell(m.note ?? '')} |`,
    );
    group = m.group;
  }
  return lines.join('\n');
}

/** "9 targets: 7 ok, 1 missed (…), 1 not measured (…)". */
export function renderVerdictLine(results: readonly Measurement[]): string {
  const targeted = results.filter((m) => m.target);
  const names = (v: Measurement['verdict']) => targeted.filter((m) => m.verdict === v).map((m) => `${m.group}: ${m.name}`);
  const missed = names('MISS');
  const absent = names('not measured');
  return (
    `${targeted.length} targets: ${names('ok').length} ok, ${missed.length} missed` +
    (missed.length ? ` (${missed.join('; ')})` : '') +
    `, ${absent.length} not measured` +
    (absent.length ? ` (${absent.join('; ')})` : '') +
    '.'
  );
}

export function renderMachine(m: Machine): string {
  return (
    `${m.date} — ${m.cpu}, ${m.cores} cores, ${m.memoryGiB.toFixed(0)} GiB, ${m.os}, Node ${m.node}; ` +
    `load average at start ${m.loadAverage.map((l) => l.toFixed(2)).join(' / ')}`
  );
}

export function renderReport(machine: Machine, durationMs: number, results: readonly Measurement[]): string {
  return [
    '# retrace benchmark',
    '',
    `Machine: ${renderMachine(machine)}. Run took ${(durationMs / 1000).toFixed(0)} s.`,
    '',
    renderVerdictLine(results),
    '',
    'Median over repeated samples, with p10 – p90 as the spread; pairs measured interleaved in one run.',
    '',
    renderTable(results),
    '',
  ].join('\n');
}
