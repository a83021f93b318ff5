import type { CostFigures } from './stream-cost';
import type { PageFigures } from './stream-probe';
import type { TabsFigures } from './stream-tabs';

/**
 * bench/stream's summary: each figure beside its goal and the same run's baseline, with
 * "meets" or "MISSES" where there is a goal. Answers whether every goal was met.
 */

export type Row = {
  what: string;
  ours: string;
  goal: string;
  baseline: string;
  /** Absent: a figure without a goal (printed for information). */
  ok?: boolean;
};

export function printSummary(rows: Row[]): boolean {
  const pad = (s: string, n: number) => s.padEnd(n);
  const width = Math.max(...rows.map((r) => r.what.length)) + 2;
  console.log('\nsummary');
  console.log(
    `  ${pad('', width)}${pad('ours', 28)}${pad('goal', 12)}${pad('baseline (naive)', 30)}`,
  );
  let ok = true;
  for (const r of rows) {
    const verdict = r.ok === undefined ? '' : r.ok ? 'meets' : 'MISSES';
    if (r.ok === false) ok = false;
    console.log(
      `  ${pad(r.what, width)}${pad(r.ours, 28)}${pad(r.goal, 12)}${pad(r.baseline, 30)}${verdict}`,
    );
  }
  return ok;
}

const f1 = (n: number | null) => (n === null || Number.isNaN(n) ? '-' : n.toFixed(1));

/** The app's page beside the naive baseline, streaming the same answer. */
export function pageRows(ours: PageFigures, naive: PageFigures): Row[] {
  return [
    {
      what: 'long tasks (>= 50 ms) while streaming',
      ours: `${ours.longTasks}${ours.longTasks ? ` (longest ${f1(ours.longestTask)} ms)` : ''}`,
      goal: '0',
      baseline: `${naive.longTasks} (longest ${f1(naive.longestTask)} ms)`,
      ok: ours.longTasks === 0,
    },
    {
      what: `p99 gap between frames (${ours.frames} frames)`,
      ours: `${f1(ours.p99Gap)} ms (max ${f1(ours.maxGap)})`,
      goal: '<= 20 ms',
      baseline: `${f1(naive.p99Gap)} ms (max ${f1(naive.maxGap)})`,
      ok: ours.p99Gap <= 20,
    },
    {
      what: 'p99 frame gap: baseline / ours',
      ours: `${f1(naive.p99Gap / ours.p99Gap)}x`,
      goal: '>= 10x',
      baseline: '',
      ok: naive.p99Gap / ours.p99Gap >= 10,
    },
    {
      what: `worst keystroke to next frame (${ours.keystrokes} keys)`,
      ours: `${f1(ours.worstKey)} ms (handler ${f1(ours.worstKeyHandler)})`,
      goal: '<= 50 ms',
      baseline: `${f1(naive.worstKey)} ms (handler ${f1(naive.worstKeyHandler)})`,
      ok: ours.worstKey <= 50,
    },
    {
      what: '  Event Timing: worst key input to paint',
      ours: ours.worstEventTiming ? `${f1(ours.worstEventTiming)} ms` : '< 16 ms',
      goal: '',
      baseline: naive.worstEventTiming ? `${f1(naive.worstEventTiming)} ms` : '< 16 ms',
    },
    {
      what: 'DONE in the tab to final text painted',
      ours: `${f1(ours.donePainted)} ms`,
      goal: '<= 100 ms',
      baseline: `${f1(naive.donePainted)} ms`,
      ok: ours.donePainted !== null && ours.donePainted <= 100,
    },
    {
      what: '  then the [n] markers all linked, painted',
      ours: `${f1(ours.linksPainted)} ms`,
      goal: '',
      baseline: `${f1(naive.linksPainted)} ms`,
    },
    {
      what: '  sources, notices, follow-ups, actions painted',
      ours: `${f1(ours.extrasPainted)} ms`,
      goal: '',
      baseline: `${f1(naive.extrasPainted)} ms`,
    },
  ];
}

/** The cost of one update (stream-cost.ts). */
export function costRows(cost: CostFigures): Row[] {
  const growth = cost.large.p50 / cost.small.p50;
  const [small, large] = cost.sizes.map((n) => `${Math.round(n / 1000)}k`);
  return [
    {
      what: `one update at ${large}: appendBlocks + render (p50)`,
      ours: `${f1(cost.large.p50)} ms (p95 ${f1(cost.large.p95)})`,
      goal: '<= 2 ms',
      baseline: `${f1(cost.naiveLarge.p50)} ms`,
      ok: cost.large.p50 <= 2,
    },
    {
      what: `  at ${small} (p50)`,
      ours: `${f1(cost.small.p50)} ms (p95 ${f1(cost.small.p95)})`,
      goal: '',
      baseline: '',
    },
    {
      what: `  then style and layout (p50, ${small} / ${large})`,
      ours: `${f1(cost.small.layoutP50)} / ${f1(cost.large.layoutP50)} ms`,
      goal: '',
      baseline: '',
    },
    {
      what: `growth ${small} -> ${large}`,
      ours: `${f1(growth)}x`,
      goal: '<= 2x',
      baseline: '',
      ok: growth <= 2,
    },
  ];
}

/** 8 tabs on one session (stream-tabs.ts). */
export function tabsRows(tabs: TabsFigures): Row[] {
  return [
    {
      what: `${tabs.tabs} tabs on one session: ask requests at the server`,
      ours: String(tabs.askRequests),
      goal: '1',
      baseline: '',
      ok: tabs.askRequests === 1,
    },
    {
      what: '  requests to the model',
      ours: String(tabs.modelRequests),
      goal: '1',
      baseline: '',
      ok: tabs.modelRequests === 1,
    },
    {
      what: '  tabs streamed / with the same final text',
      ours: `${tabs.streamed} / ${tabs.sameFinal}`,
      goal: `${tabs.tabs} / ${tabs.tabs}`,
      baseline: '',
      ok: tabs.streamed === tabs.tabs && tabs.sameFinal === tabs.tabs,
    },
  ];
}
