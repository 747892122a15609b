/** A CSV file's name: what it holds and the local day it was saved ("listings-2026-03-16.csv"). */
export function csvFileName(what: string, qualifier: string | null, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${[what, qualifier, day].filter((p) => p !== null).join('-')}.csv`;
}
