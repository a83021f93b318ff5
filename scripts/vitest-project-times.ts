import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** What scripts/test.mjs prints per vitest project: its files, their summed time, its span. */
export type ProjectTimes = Record<
  string,
  { files: number; tests: number; fileMs: number; firstStart: number; lastEnd: number }
>;

/**
 * A vitest reporter beside the default one: per project, the files run, the time they took
 * (import, environment and tests, summed over files) and the wall-clock span from its first
 * file's start to its last file's end (projects run side by side in one pool). Written as JSON
 * to VITEST_PROJECT_TIMES when that is set; scripts/test.mjs sets it and prints the table.
 */
export default class ProjectTimesReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly times: ProjectTimes = {};

  onTestModuleQueued(module: TestModule) {
    this.started.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    const name = module.project.name || 'default';
    const start = this.started.get(module.moduleId) ?? Date.now();
    const d = module.diagnostic();
    const p = (this.times[name] ??= {
      files: 0,
      tests: 0,
      fileMs: 0,
      firstStart: start,
      lastEnd: 0,
    });
    p.files += 1;
    p.tests += [...module.children.allTests()].length;
    p.fileMs += d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.duration;
    p.firstStart = Math.min(p.firstStart, start);
    p.lastEnd = Math.max(p.lastEnd, Date.now());
  }

  onTestRunEnd() {
    const out = process.env.VITEST_PROJECT_TIMES;
    if (out) writeFileSync(out, JSON.stringify(this.times));
  }
}
