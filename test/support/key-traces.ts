/**
 * The tests' own judge of whether a text still holds an API key, written
 * independently of the app's scanner (regular expressions, slow and plain):
 * escapes decoded again and again (`\uXXXX`, `%XX`, `&#NN;`, `&#xHH;`,
 * `&amp;`), case and everything but letters and digits dropped, then any
 * 12 consecutive characters of the key count; runs that look like base64 or
 * hex are decoded and judged the same way.
 */

const RUN = 12;

const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function decodeEscapes(text: string): string {
  let out = text;
  for (let round = 0; round < 4; round++) {
    out = out
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#[xX]([0-9a-fA-F]{1,6});?/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#(\d{1,7});?/g, (_m, d: string) => String.fromCharCode(Number(d)))
      .replace(/&amp;/gi, '&')
      .replace(/\\+[rn]/g, ' ');
  }
  return out;
}

/** Every 12-character piece of the key's letters and digits that `text` holds in any spelling the tests echo. */
export function keyTraces(text: string, key: string): string[] {
  const decoded = decodeEscapes(text);
  const candidates = [normal(decoded)];
  for (const run of decoded.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) candidates.push(normal(Buffer.from(run.slice(skip), 'base64').toString('latin1')));
  }
  for (const run of decoded.match(/(?:[0-9a-fA-F]{2}){12,}/g) ?? []) {
    for (let skip = 0; skip < 2; skip++) candidates.push(normal(Buffer.from(run.slice(skip), 'hex').toString('latin1')));
  }
  const k = normal(key);
  const pieces: string[] = [];
  for (let i = 0; i + RUN <= k.length; i++) {
    const piece = k.slice(i, i + RUN);
    if (candidates.some((c) => c.includes(piece))) pieces.push(piece);
  }
  return pieces;
}
