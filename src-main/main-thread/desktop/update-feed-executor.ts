import { configureRequestOptionsFromUrl, type DownloadOptions } from 'builder-util-runtime';
import type { DownloadCallOptions } from 'builder-util-runtime/out/httpExecutor.js';
import type { RequestOptions } from 'node:http';
// electron-updater's own HTTP client over Electron's net; it has no public
// hook for a redirect policy or for checking a file before it is taken, so
// the updater is given this subclass in its place (updater.ts).
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor.js';
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
 */
export class FeedBoundExecutor extends ElectronHttpExecutor {
  private readonly policy: FeedPolicy;
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
    const refused = this.policy.refusal(urlOf(options));
    if (refused) return Promise.reject(refused);
    return super.doApiRequest(options, cancellationToken, requestProcessor, redirectCount);
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

/** The address request options name, as builder-util-runtime builds them from a URL. */
function urlOf(options: RequestOptions): string {
  const port = options.port === undefined || options.port === null || options.port === '' ? '' : `:${options.port}`;
  return `${options.protocol ?? 'https:'}//${options.hostname ?? options.host ?? ''}${port}${options.path ?? '/'}`;
}
