/**
 * `npm run audit:electron`: Electronegativity over the app's sources, gated.
 *
 * Electronegativity always exits 0, so its SARIF report is read here: every
 * finding must be listed, with the reason it is acceptable, in
 * build/electronegativity-accepted.json, and every listed finding must still
 * occur (a fixed one is removed from the list). It runs under another Node
 * than the pinned 24, under which it is flaky: ELECTRONEGATIVITY_NODE, else
 * the system Node (/usr/bin/node). Its online check is off.
 *
 * It requires `commander` without declaring it, and fails on any commander
 * after 5 (it reads options as properties of the program): package.json pins
 * commander 5.1.0 at the root for it alone (nothing of ours imports it), so a
 * newer one another package brings cannot be hoisted there instead.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ACCEPTED_FILE = join(root, 'build', 'electronegativity-accepted.json');
/** What is scanned: everything that runs in or talks to Electron. */
const SCANNED = ['src-main', 'src-preload', 'src-renderer', 'package.json'];

/** Findings from a SARIF report: check id, file (relative), line, message. */
export function findingsFromSarif(sarif) {
  const results = sarif?.runs?.[0]?.results;
  if (!Array.isArray(results)) throw new Error('the report has no results list: Electronegativity did not finish');
  return results.map((r) => {
    const loc = r.locations?.[0]?.physicalLocation;
    return {
      check: String(r.ruleId),
      // Windows writes its own separators; the accepted list uses '/'.
      file: String(loc?.artifactLocation?.uri ?? '').replaceAll('\\', '/').replace(/^\.?\//, ''),
      line: loc?.region?.startLine ?? 0,
      message: String(r.message?.text ?? ''),
    };
  });
}

/**
 * Compares findings with the accepted list. An entry `{ check, file, count? }`
 * covers exactly `count` (default 1) findings of that check in that file, so a
 * new occurrence in a reviewed file is not hidden by the old reason.
 */
export function judgeFindings(findings, accepted) {
  const problems = [];
  const byKey = new Map();
  for (const f of findings) {
    const key = `${f.check} ${f.file}`;
    byKey.set(key, [...(byKey.get(key) ?? []), f]);
  }
  const listed = new Set();
  for (const entry of accepted) {
    if (!entry.reason || String(entry.reason).trim() === '') problems.push(`accepted ${entry.check} in ${entry.file} has no reason`);
    const key = `${entry.check} ${entry.file}`;
    listed.add(key);
    const found = byKey.get(key) ?? [];
    const expected = entry.count ?? 1;
    if (found.length === 0) problems.push(`accepted ${entry.check} in ${entry.file} is no longer reported: remove it from the list`);
    else if (found.length !== expected) {
      problems.push(`${entry.check} in ${entry.file}: ${found.length} findings, ${expected} accepted (lines ${found.map((f) => f.line).join(', ')})`);
    }
  }
  for (const [key, found] of byKey) {
    if (listed.has(key)) continue;
    for (const f of found) problems.push(`unexplained ${f.check} at ${f.file}:${f.line}: ${f.message}`);
  }
  return problems;
}

function electronVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

function scan() {
  const work = mkdtempSync(join(tmpdir(), 'electronegativity-'));
  try {
    const input = join(work, 'app');
    for (const entry of SCANNED) {
      if (existsSync(join(root, entry))) cpSync(join(root, entry), join(input, entry), { recursive: true });
    }
    const report = join(work, 'report.sarif');
    // Another Node than the pinned 24, under which Electronegativity is flaky: ELECTRONEGATIVITY_NODE
    // (the CI workflow's own Node), else Debian's system Node, else this one.
    const node = process.env.ELECTRONEGATIVITY_NODE || (existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath);
    const cli = join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');
    const run = spawnSync(node, [cli, '-i', input, '-o', report, '-r', '-x', 'AvailableSecurityFixesGlobalCheck', '-e', electronVersion()], {
      cwd: work, encoding: 'utf8', timeout: 180_000,
    });
    if (!existsSync(report)) {
      throw new Error(`Electronegativity wrote no report (exit ${run.status}):\n${run.stderr || run.stdout}`);
    }
    return findingsFromSarif(JSON.parse(readFileSync(report, 'utf8')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  const accepted = JSON.parse(readFileSync(ACCEPTED_FILE, 'utf8')).accepted;
  const findings = scan();
  for (const f of findings) console.log(`finding  ${f.check}  ${f.file}:${f.line}`);
  const problems = judgeFindings(findings, accepted);
  if (problems.length > 0) {
    console.error(`\nElectronegativity: ${problems.length} problem(s)`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`\nElectronegativity: ${findings.length} finding(s), each accepted with its reason in build/electronegativity-accepted.json`);
}

if (import.meta.main) main();
