import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { findingsFromSarif, judgeFindings } from './electronegativity.mjs';

const finding = (check: string, file: string, line = 1) => ({ check, file, line, message: `${check} here` });

describe('electronegativity gate', () => {
  it('finds the commander 5 it requires without declaring it (the pinned devDependency)', () => {
    const fromElectronegativity = createRequire(createRequire(import.meta.url).resolve('@doyensec/electronegativity/package.json'));
    const commander = fromElectronegativity('commander/package.json') as { version: string };
    expect(commander.version).toMatch(/^5\./);
  });

  it('reads findings from a SARIF report', () => {
    const sarif = { runs: [{ results: [{
      ruleId: 'OPEN_EXTERNAL_JS_CHECK', message: { text: 'Review the use of openExternal' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src-main/main-thread/desktop/web-hardening.ts' }, region: { startLine: 26 } } }],
    }] }] };
    expect(findingsFromSarif(sarif)).toEqual([
      { check: 'OPEN_EXTERNAL_JS_CHECK', file: 'src-main/main-thread/desktop/web-hardening.ts', line: 26, message: 'Review the use of openExternal' },
    ]);
    expect(() => findingsFromSarif({})).toThrow(/did not finish/);
  });

  it('names files with / as the accepted list does, whatever the separator the system wrote', () => {
    const sarif = { runs: [{ results: [{
      ruleId: 'A', message: { text: 'm' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src-main\\main-thread\\desktop\\web-hardening.ts' }, region: { startLine: 3 } } }],
    }] }] };
    expect(findingsFromSarif(sarif)[0]?.file).toBe('src-main/main-thread/desktop/web-hardening.ts');
  });

  it('passes when every finding is accepted with a reason', () => {
    expect(judgeFindings([finding('A', 'x.ts')], [{ check: 'A', file: 'x.ts', reason: 'checked' }])).toEqual([]);
  });

  it('fails on a finding nobody explained', () => {
    expect(judgeFindings([finding('NODE_INTEGRATION_JS_CHECK', 'src-main/main-thread/desktop/main-window.ts', 40)], []))
      .toEqual(['unexplained NODE_INTEGRATION_JS_CHECK at src-main/main-thread/desktop/main-window.ts:40: NODE_INTEGRATION_JS_CHECK here']);
  });

  it('fails when a reviewed file gains another finding of the same check', () => {
    const problems = judgeFindings([finding('A', 'x.ts', 3), finding('A', 'x.ts', 9)], [{ check: 'A', file: 'x.ts', reason: 'r' }]);
    expect(problems).toEqual(['A in x.ts: 2 findings, 1 accepted (lines 3, 9)']);
  });

  it('fails on an entry with no reason or one no longer reported', () => {
    expect(judgeFindings([finding('A', 'x.ts')], [{ check: 'A', file: 'x.ts', reason: ' ' }])).toEqual(['accepted A in x.ts has no reason']);
    expect(judgeFindings([], [{ check: 'A', file: 'x.ts', reason: 'r' }])).toEqual(['accepted A in x.ts is no longer reported: remove it from the list']);
  });
});
