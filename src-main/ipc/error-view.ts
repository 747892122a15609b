import type { z } from 'zod';
import type { ErrorView } from '../../src-shared/contract.ts';
import { ApiError } from '../core/api/errors.ts';
import { toFieldIssues } from '../core/api/validate.ts';
import { DESK_ERROR_KINDS, type DeskErrorKind } from '../../src-shared/errors.ts';

/**
 * Turns whatever a handler threw into the error value the renderer shows.
 * Errors that carry a `kind` (ApiError, and the core's domain errors) keep it;
 * anything else is an unexpected `internal` failure whose message is not
 * forwarded, because it was never written for the trader's eyes.
 */
export function toErrorView(error: unknown): ErrorView {
  if (error instanceof ApiError) return error.toJSON();
  if (isKindedError(error) && isDeskErrorKind(error.kind)) {
    return {
      kind: error.kind,
      message: error.message,
      ...(Array.isArray(error.issues) ? { issues: error.issues.filter(isIssue) } : {}),
    };
  }
  return { kind: 'internal', message: 'Something went wrong inside the app; the details are in its log.' };
}

/** Zod issues as `{ field, message }`, with the item index when the path is `items.<n>…`. */
export function zodIssuesToView(error: z.ZodError): NonNullable<ErrorView['issues']> {
  return toFieldIssues(error.issues);
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

function isIssue(value: unknown): value is { field: string; message: string; item?: number } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.field === 'string' && typeof v.message === 'string';
}
