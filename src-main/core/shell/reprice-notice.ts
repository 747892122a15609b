import { alertSummary, alertTitle } from '../alerts/alert.ts';
import { repriceAlert } from '../alerts/alert-watch.ts';
import type { RepricedNews } from '../pricing/reprice-schedule.ts';
import { toastText } from './notification-groups.ts';

/**
 * A desktop notification of the desk's own, beside the trades' (which
 * notification-groups.ts words): a scheduled reprice that left changes the
 * price guard marked waiting in a draft. It says what its alert says, as
 * plain text; a click opens the screen named.
 */
export interface DeskNotice {
  readonly title: string;
  readonly body: string;
  /** The screen a click opens. */
  readonly view: 'pricing';
}

/** The notice of a scheduled reprice; null when nothing waits for the trader. */
export function repriceNotice(news: RepricedNews): DeskNotice | null {
  const alert = repriceAlert(news);
  if (alert === null) return null;
  return { title: toastText(alertTitle(alert), 120), body: toastText(alertSummary(alert), 400), view: 'pricing' };
}
