import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * What the documentation check reads in a Markdown file: the commands it
 * tells the reader to run, its links, and the anchors its headings make.
 * Plain regular expressions over the few constructs the project's docs use,
 * so a reader's view and the check's agree without a Markdown parser.
 */

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
const SPAN = /`([^`\n]+)`/g;

/** The text of every fenced block and code span: where commands are written. */
export function codeOf(markdown: string): string[] {
  const blocks = [...markdown.matchAll(FENCE)].map((m) => m[0].replace(/^[^\n]*\n/, '').replace(/[^\n]*$/, ''));
  const spans = [...markdown.replace(FENCE, '').matchAll(SPAN)].map((m) => m[1] ?? '');
  return [...blocks, ...spans];
}

/** The prose: the file without its fenced blocks and code spans. */
export function proseOf(markdown: string): string {
  return markdown.replace(FENCE, '').replace(SPAN, '');
}

export interface NpmCommand {
  /** `run` for `npm run <script>`, else the npm command itself (`install`, `test`, …). */
  readonly command: string;
  /** The script `npm run` names; null for other commands. */
  readonly script: string | null;
  /** As written, for the failure message. */
  readonly text: string;
}

/** Every `npm …` command in the code of a file. */
export function npmCommandsOf(markdown: string): NpmCommand[] {
  const found: NpmCommand[] = [];
  for (const code of codeOf(markdown)) {
    for (const m of code.matchAll(/(?:^|[\s;&|(])npm\s+(run(?:-script)?\s+)?([a-z][\w:.-]*)/g)) {
      const name = m[2] ?? '';
      found.push({ command: m[1] ? 'run' : name, script: m[1] ? name : null, text: m[0].trim() });
    }
  }
  return found;
}

/** npm's own commands the docs may name; `start` and `test` are scripts of the project, checked as such. */
const NPM_COMMANDS = new Set(['install', 'i', 'ci', 'version', 'pack', 'root']);
const SCRIPT_ALIASES = new Set(['start', 'test', 'stop', 'restart']);

/** Why a command cannot run in this project, or null when it can. */
export function commandProblem(cmd: NpmCommand, scripts: Readonly<Record<string, string>>): string | null {
  const script = cmd.script ?? (SCRIPT_ALIASES.has(cmd.command) ? cmd.command : null);
  if (script !== null) return script in scripts ? null : `"${cmd.text}": package.json has no script "${script}"`;
  return NPM_COMMANDS.has(cmd.command) ? null : `"${cmd.text}": "${cmd.command}" is neither a script nor an npm command the docs may use`;
}

/** Every link and image target in the prose, as written. */
export function linksOf(markdown: string): string[] {
  return [...proseOf(markdown).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

/**
 * The anchor GitHub gives a heading: its text as shown, lower case, without
 * punctuation, spaces as hyphens; a repeated one gets -1, -2, …
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(FENCE, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const shown = (m[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = shown.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] ?? '');
  return anchors;
}

/**
 * GitHub pages of the repository itself (its Actions), linked the way a
 * README on GitHub can: up past `blob/<branch>/` to the repository's URL.
 */
const REPOSITORY_PAGE = /^((?:\.\.\/)+)actions\/workflows\/([\w.-]+\.ya?ml)(?:\/badge\.svg)?$/;

/** Why a relative link in `file` (under `root`) leads nowhere, or null when it leads to a file and, if named, its anchor. */
export function linkProblem(root: string, file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const where = `${relative(root, file)}: (${target})`;
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (relative(root, resolved).startsWith('..')) {
    const page = REPOSITORY_PAGE.exec(target);
    const depth = relative(root, dirname(file)).split(sep).filter(Boolean).length;
    if (!page || (page[1] ?? '').length / 3 !== depth + 2) return `${where} leaves the repository`;
    return existsSync(join(root, '.github', 'workflows', page[2] ?? '')) ? null : `${where} names a workflow that does not exist`;
  }
  if (!existsSync(resolved)) return `${where}: no such file`;
  if (anchor === undefined || anchor === '') return null;
  if (!resolved.endsWith('.md')) return `${where}: an anchor in a file that is not Markdown`;
  return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor) ? null : `${where}: no heading makes #${anchor}`;
}
