/**
 * Times as the trader's screen shows them: the local date and time to the
 * second ("2026-03-14 15:42:07") in a named time zone, so a file written by
 * a desk that runs elsewhere (the server shell) still says the trader's time.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** "2026-03-14 15:42:07" in `timeZone` (an IANA name the runtime knows). */
export function localStamp(ms: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const p of formatOf(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
