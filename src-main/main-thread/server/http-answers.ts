import { createReadStream } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AppAsset } from '../../core/shell/app-origin.ts';
import { securityHeaders } from './request-guard.ts';

/**
 * How the server answers: every answer with the security headers and never
 * cached (pages carry a CSRF token, replies carry the desk's data), bodies
 * read with a bound, JSON in and out.
 */

export interface Answer {
  json(status: number, body: unknown, headers?: OutgoingHttpHeaders): void;
  html(status: number, text: string, headers?: OutgoingHttpHeaders): void;
  text(status: number, text: string, headers?: OutgoingHttpHeaders): void;
  file(asset: AppAsset): void;
  /** JSON text for the browser to save as `fileName`. */
  download(json: string, fileName: string): void;
  redirect(location: string): void;
}

/** Every answer is recorded here before it is sent (the tests scan them for secrets). */
export type AnswerTap = (body: string) => void;

export function answerTo(res: ServerResponse, secure: boolean, tap?: AnswerTap): Answer {
  const head = (status: number, headers: OutgoingHttpHeaders) =>
    res.writeHead(status, { ...securityHeaders(secure), 'cache-control': 'no-store', ...headers });
  const send = (status: number, type: string, body: string, headers: OutgoingHttpHeaders = {}) => {
    tap?.(body);
    head(status, { 'content-type': type, ...headers });
    res.end(body);
  };
  return {
    json: (status, body, headers) => send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers),
    html: (status, text, headers) => send(status, 'text/html; charset=utf-8', text, headers),
    text: (status, text, headers) => send(status, 'text/plain; charset=utf-8', text, headers),
    file(asset) {
      head(200, { 'content-type': asset.contentType });
      createReadStream(asset.filePath).on('error', () => res.destroy()).pipe(res);
    },
    download: (json, fileName) => send(200, 'application/json; charset=utf-8', json, { 'content-disposition': `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"` }),
    redirect(location) {
      head(303, { location });
      res.end();
    },
  };
}

/** A request body that is not what the route takes, said as a status and a sentence. */
export class BodyError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * The request's JSON body, at most `maxBytes`. Only `application/json`: a
 * form another site posts cannot be that without the browser first asking
 * (a CORS preflight this server never grants).
 */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new BodyError(415, 'Send JSON (Content-Type: application/json).');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyError(413, `The request is larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'The request body is not JSON.');
  }
}

/** Whether the request is a browser's navigation to a page (it gets a redirect to sign in, not a bare 401). */
export function wantsPage(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.headers['sec-fetch-mode'] === 'navigate' || /\btext\/html\b/.test(req.headers.accept ?? ''));
}
