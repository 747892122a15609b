import { configureRequestOptionsFromUrl, type DownloadOptions } from 'builder-util-runtime';
import type { DownloadCallOptions } from 'builder-util-runtime/out/httpExecutor.js';
import type { RequestOptions } from 'node:http';
// electron-updater's own HTTP client over Electron's net; it has no public
// hook for a redirect policy or for checking a file before it is taken, so
// the updater is given this subclass in its place (updater.ts).
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor.js';
import { FEED_FILE_MAX_BYTES, feedFileTooLarge } from '../../core/shell/update-limits.ts';
import { UpdateRefused } from '../../core/shell/update-policy.ts';

export interface FeedPolicy {
  /** Null when the request may be made; otherwise why not. */
  refusal(url: string): UpdateRefused | null;
  /** Checks a downloaded file before electron-updater takes it as the update; rejects to refuse it. */
  verify(url: URL, file: string): Promise<void>;
}

/**
 * Every request electron-updater makes goes through `doApiRequest` (the
 * feed's latest*.yml) or `doDownload` (files), and so does every redirect:
 * requests are made with `redirect: 'manual'`, so Electron's net hands each
 * redirect back instead of following it. Both check the address first.
 *
 * `download` is where each updater (NSIS, dmg/zip, AppImage, deb) fetches the
 * update file in full (differential downloads are turned off in updater.ts).
 * The file is checked there, after electron-updater's own sha512 check and
 * before it is renamed into the cache, handed to Squirrel.Mac or announced:
 * a refused file is deleted by electron-updater's own clean-up.
 *
 * `doApiRequest` reads a feed file whole into a string, with no limit of its
 * own: here its request is aborted as soon as the answer passes
 * `FEED_FILE_MAX_BYTES`, and, during `check`, as soon as the check's signal
 * aborts (its deadline), whose reason the request then rejects with.
 */
export class FeedBoundExecutor extends ElectronHttpExecutor {
  private readonly policy: FeedPolicy;
  /** The running check's signal; electron-updater's check takes no cancellation of its own. */
  private checkSignal: AbortSignal | null = null;
  /** Request processors already bounded: a redirect hands its processor on to the next request. */
  private readonly bounded = new WeakSet<object>();
  constructor(policy: FeedPolicy, proxyLogin?: ConstructorParameters<typeof ElectronHttpExecutor>[0]) {
    super(proxyLogin);
    this.policy = policy;
  }

  override doApiRequest(
    options: RequestOptions,
    cancellationToken: Parameters<ElectronHttpExecutor['doApiRequest']>[1],
    requestProcessor: Parameters<ElectronHttpExecutor['doApiRequest']>[2],
    redirectCount = 0,
  ): Promise<string> {
    const url = urlOf(options);
    const refused = this.policy.refusal(url);
    if (refused) return Promise.reject(refused);
    if (this.bounded.has(requestProcessor)) return super.doApiRequest(options, cancellationToken, requestProcessor, redirectCount);
    const signal = this.checkSignal;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    let stopCurrent: ((error: Error) => void) | null = null;
    const onAbort = () => stopCurrent?.(signal?.reason as Error);
    const processor: typeof requestProcessor = (request, reject) => {
      const stop = (error: Error) => {
        reject(error);
        request.abort();
      };
      stopCurrent = stop;
      request.on('response', (response) => {
        limitBody(response, () => stop(feedFileTooLarge(url)));
      });
      requestProcessor(request, reject);
    };
    this.bounded.add(processor);
    signal?.addEventListener('abort', onAbort, { once: true });
    return super.doApiRequest(options, cancellationToken, processor, redirectCount).finally(() => signal?.removeEventListener('abort', onAbort));
  }

  /** Runs a check whose feed requests end when `signal` aborts. */
  async during<T>(signal: AbortSignal, check: () => Promise<T>): Promise<T> {
    this.checkSignal = signal;
    try {
      return await check();
    } finally {
      this.checkSignal = null;
    }
  }

  protected override doDownload(requestOptions: RequestOptions, options: DownloadCallOptions, redirectCount: number): void {
    const refused = this.policy.refusal(urlOf(requestOptions));
    if (refused) {
      options.callback(refused);
      return;
    }
    super.doDownload(requestOptions, options, redirectCount);
  }

  override createRequest(options: RequestOptions, callback: (response: unknown) => void): Electron.ClientRequest {
    return super.createRequest({ ...options, redirect: 'manual' } as RequestOptions, callback);
  }

  override async download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    try {
      await super.download(url, destination, options);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_CHECKSUM_MISMATCH') {
        throw new UpdateRefused(null, 'the downloaded file does not match the checksum the update feed gave.', (error as Error).message);
      }
      throw error;
    }
    await this.policy.verify(url, destination);
    return destination;
  }

  /** A small text file from the feed (a signature); null when the feed has none. */
  async fetchText(url: URL): Promise<string | null> {
    try {
      return (await this.request(configureRequestOptionsFromUrl(url.href, {}))) ?? '';
    } catch (error) {
      // 403: what S3-like hosts answer for a missing object.
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 404 || status === 403 || status === 410) return null;
      throw error;
    }
  }
}

/**
 * Calls `tooLarge` once the answer declares or delivers more than
 * `FEED_FILE_MAX_BYTES`; the caller aborts the request then, so no more of it is read.
 */
function limitBody(response: Electron.IncomingMessage, tooLarge: () => void): void {
  const declared = Number(response.headers['content-length']);
  if (declared > FEED_FILE_MAX_BYTES) {
    tooLarge();
    return;
  }
  let received = 0;
  const count = (chunk: Buffer | string) => {
    received += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (received <= FEED_FILE_MAX_BYTES) return;
    response.removeListener('data', count);
    tooLarge();
  };
  response.on('data', count);
}

/** The address request options name, as builder-util-runtime builds them from a URL. */
function urlOf(options: RequestOptions): string {
  const port = options.port === undefined || options.port === null || options.port === '' ? '' : `:${options.port}`;
  return `${options.protocol ?? 'https:'}//${options.hostname ?? options.host ?? ''}${port}${options.path ?? '/'}`;
}
