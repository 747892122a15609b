import type { z } from 'zod';
import type { ErrorView } from '../../src-shared/contract.ts';
import { DESK_ERROR_KINDS, type DeskErrorKind, type FieldIssue } from '../../src-shared/errors.ts';
import { ApiError } from '../core/api/errors.ts';
import { toFieldIssues } from '../core/api/validate.ts';
import { storeBusy, storeFailure } from '../core/errors.ts';
import { printable } from '../core/safe-text.ts';

/**
 * Turns whatever a handler threw into the error value the renderer shows.
 * Errors that carry a `kind` (ApiError, the core's DomainError and KeyError,
 * the handlers' Refused) keep it; SQLite's "database is locked" is `busy`,
 * a full disk `disk_full` and a disk's I/O error `io`;
 * anything else is an unexpected `internal` failure whose message is not
 * forwarded, because it was never written for the trader's eyes.
 */
export function toErrorView(error: unknown): ErrorView {
  if (error instanceof ApiError) return boundedView(error.toJSON());
  if (isKindedError(error) && isDeskErrorKind(error.kind)) {
    return boundedView({
      kind: error.kind,
      message: error.message,
      ...(Array.isArray(error.issues) ? { issues: error.issues.filter(isIssue) } : {}),
    });
  }
  const busy = storeBusy(error) ?? storeFailure(error);
  if (busy) return { kind: busy.kind, message: busy.message };
  return { kind: 'internal', message: 'Something went wrong inside the app; the details are in its log.' };
}

/** How much of an error crosses the bridge, whatever the input that caused it. */
export const ERROR_VIEW_LIMITS = {
  /** Issues listed; `moreIssues` counts the rest. */
  issues: 20,
  messageChars: 500,
  fieldChars: 120,
  issueMessageChars: 300,
  endpointChars: 80,
} as const;

/**
 * An error value cut to a size the bridge and the screen can carry (a few
 * kB at most) with every text printable: messages quote what the trader
 * sent, and a refusal of a huge payload must not grow with it.
 */
export function boundedView(view: ErrorView): ErrorView {
  const L = ERROR_VIEW_LIMITS;
  const issues = view.issues ?? [];
  const more = Math.max(0, issues.length - L.issues) + (view.moreIssues ?? 0);
  return {
    ...view,
    message: printable(view.message, L.messageChars),
    ...(view.endpoint === undefined ? {} : { endpoint: printable(view.endpoint, L.endpointChars) }),
    ...(view.issues === undefined
      ? {}
      : {
          issues: issues.slice(0, L.issues).map((i) => ({
            ...i,
            field: printable(i.field, L.fieldChars),
            message: printable(i.message, L.issueMessageChars),
          })),
        }),
    ...(more > 0 ? { moreIssues: more } : {}),
  };
}

/**
 * Zod issues as `{ field, message }` (with the item index when the path is
 * `items.<n>…`), at most `limit` of them, and how many there were in all:
 * an object with a million unknown keys is one zod issue naming them all.
 */
export function zodIssuesToView(issues: readonly z.core.$ZodIssue[], limit: number = ERROR_VIEW_LIMITS.issues): { shown: FieldIssue[]; total: number } {
  const shown: FieldIssue[] = [];
  let total = 0;
  for (const issue of issues) {
    const count = issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
    total += count;
    if (shown.length >= limit) continue;
    const trimmed = issue.code === 'unrecognized_keys' ? { ...issue, keys: issue.keys.slice(0, limit - shown.length) } : issue;
    shown.push(...toFieldIssues([trimmed]));
  }
  return { shown, total };
}

/**
 * What the log gets for an unexpected failure: name, message and stack
 * frames (and the cause's name and message), each cut and cleaned, never
 * the raw input. A message built around 10 MB of someone's input stays one
 * short line, and cannot forge log lines or drive the terminal.
 */
export function loggableFailure(error: unknown): Error {
  const e = error instanceof Error ? error : new Error(describeValue(error));
  const name = printable(String(e.name), 80);
  const message = String(e.message);
  const header = `${name}: ${printable(message, 1_000)}`;
  const stack = typeof e.stack === 'string' ? e.stack : '';
  // The stack begins with the message: frames are read after it, so a message cannot add frames of its own.
  const rawHeader = `${String(e.name)}: ${message}`;
  const frames = (stack.startsWith(rawHeader) ? stack.slice(rawHeader.length) : stack)
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 15)
    .map((line) => `    ${printable(line.trim(), 300)}`);
  const cause = e.cause instanceof Error ? [`  caused by ${printable(String(e.cause.name), 80)}: ${printable(String(e.cause.message), 500)}`] : [];
  const logged = new Error(header);
  logged.name = name;
  logged.stack = [header, ...frames, ...cause].join('\n');
  return logged;
}

function describeValue(value: unknown): string {
  try {
    return printable(String(value), 1_000);
  } catch {
    return '(a thrown value that cannot be shown as text)';
  }
}

interface KindedError extends Error {
  kind: string;
  issues?: unknown[];
}

function isKindedError(error: unknown): error is KindedError {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

function isDeskErrorKind(kind: string): kind is DeskErrorKind {
  return (DESK_ERROR_KINDS as readonly string[]).includes(kind);
}

function isIssue(value: unknown): value is FieldIssue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.field === 'string' && typeof v.message === 'string';
}
