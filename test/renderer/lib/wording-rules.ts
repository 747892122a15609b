/**
 * What a text on screen must never be, as the trader reads it:
 * JSON, a status code without a sentence, a network error code, or a
 * broken plural. Returns why a text fails, or null when it reads right.
 * Used by every test that collects texts a screen shows (outside its
 * Details disclosure).
 */
export function badWording(text: string): string | null {
  if (/[{[]\s*"/.test(text) || /"\s*:\s*["{[\dtf]/.test(text)) return 'JSON';
  if (/\bstatus\s*\d{3}\b|\(\d{3}\)|^\s*\d{3}\b/i.test(text)) return 'a bare status code';
  if (/\bUND_ERR_[A-Z_]+\b/.test(text)) return 'an UND_ERR_* code';
  if (/\bE[A-Z]{3,}\b/.test(text)) return 'an E… error code';
  if (brokenPlural(text)) return 'a broken plural';
  return null;
}

/** Texts that must read as sentences (errors): a capital first, a full stop last. */
export function notASentence(text: string): string | null {
  if (!/^[A-Z“"]/.test(text)) return 'does not start with a capital';
  if (!/[.!?]$/.test(text)) return 'does not end a sentence';
  return null;
}

/** "1 requests", "1 changes", "1 lines refused": one of something, in the plural. */
export function brokenPlural(text: string): boolean {
  return /(?:^|[^\d.,])1 (?:[a-z-]+ )?(?:requests|changes|lines|items|listings|rows|orders|errors|issues|problems|accounts|trades|entries|endpoints|days|seconds|minutes|IDs|SKUs)\b/.test(text);
}
