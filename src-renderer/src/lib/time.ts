/**
 * Time as a trader reads it on the desk: countdowns to the heartbeat's
 * refresh_at, "read 2 min ago", ETAs. All take the current time as an
 * argument so they are pure and the views tick them from one clock.
 */

/** 272_000 → "4:32"; 3_723_000 → "1:02:03". Negative → "0:00". */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** "just now", "45 s ago", "3 min ago", "2 h ago", "3 d ago". */
export function formatAgo(at: number, now: number): string {
  const s = Math.floor((now - at) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** An ETA or a duration: "under a minute", "about 21 min", "about 2 h 05 min". */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A wait of seconds, for a rate slot: "in about 42 s"; "in a moment" under 2 s; minutes as formatDuration says them. */
export function formatWait(ms: number): string {
  if (ms < 2_000) return 'in a moment';
  if (ms < 60_000) return `in about ${Math.ceil(ms / 1000)} s`;
  return `in ${formatDuration(ms)}`;
}

/** Local date and time to the second, for logs and "read at". */
export function formatStamp(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Local time of day to the second, for "since 14:02:10" on the same day's banners. */
export function formatClock(at: number): string {
  return formatStamp(at).slice(11);
}
