import { z } from 'zod';
import { hiddenControlIn, NOTE_MAX_LENGTH, serviceUrlProblem, SKU_MAX_LENGTH, SKU_SHAPE } from './field-rules.ts';
import { tradeUrlProblem } from './trade-url.ts';
import { ASSET_ID_SHAPE, GAME_ID_SHAPE } from './typed-values.ts';
import { lazySchema } from './lazy-schema.ts';

export { DISPLAY_NAME_MAX_LENGTH, ITEM_NAME_MAX_LENGTH, SERVICE_WORD_MAX_LENGTH, SKU_MAX_LENGTH, URL_MAX_LENGTH } from './field-rules.ts';
export { DEFAULT_GAME, HIDDEN_CONTROL_CHARS, hiddenControlIn, isLoopbackHost, isSku, NOTE_MAX_LENGTH, serviceUrlProblem, webhookUrlProblem } from './field-rules.ts';

/**
 * Field rules shared by the client, the drafts, the CSV import and the sandbox.
 * One definition each, so a draft can never hold a value the client would refuse.
 */

/** Text from the service, at most `max` characters: a longer answer is refused naming the field. */
export const serviceText = (max: number) =>
  z.string({ error: 'must be text' }).max(max, { error: `must be at most ${max} characters` });

/** Money is integer cents, never a float. Bounds beyond "positive" are not documented. */
export const cents = lazySchema(() => z
  .number({ error: 'must be a number of cents' })
  .int({ error: 'must be a whole number of cents' })
  .positive({ error: 'must be more than 0 cents' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }));

/** A count of items (buy order quantity). */
export const quantity = lazySchema(() => z
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be at least 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }));

/** `promoted` and `active` are integers 0 or 1 on the wire. */
export const flag01 = lazySchema(() => z.union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1' }));

/**
 * `schema` that also refuses hidden control characters, naming the one found.
 * A plain check rather than `superRefine`, which sets a new closure on every
 * value's parse state: with it, V8 carried the garbage of each parse through
 * young-generation collections into the old generation (over 100 MB for the
 * million rows of a CSV preview, none with a check). The issue is the one
 * `superRefine` added.
 */
const withoutHiddenControls = (schema: z.ZodString) =>
  schema.check((payload) => {
    const found = hiddenControlIn(payload.value);
    if (found) payload.issues.push({ code: 'custom', message: `must not contain ${found}`, input: payload.value, continue: true });
  });

/**
 * A note as stored before the hidden-character rule existed: read back as
 * it is, so nothing already stored is lost. New notes use `userNote`; the
 * client still refuses an old bad note when it is sent, naming the field.
 */
export const storedUserNote = z
  .string({ error: 'must be text' })
  .max(NOTE_MAX_LENGTH, { error: `must be at most ${NOTE_MAX_LENGTH} characters` });

/** Visible to every buyer or seller; an empty string removes the note on edit. */
export const userNote = withoutHiddenControls(storedUserNote);

/** 64-bit platform account IDs are carried as strings: a number would lose precision. */
export const accountId = z
  .string({ error: 'must be an account ID string' })
  .regex(/^\d{1,20}$/, { error: 'must be an account ID of digits only' });

/** Platform asset IDs are digit strings. */
export const assetId = z
  .string({ error: 'must be an asset ID string' })
  .regex(ASSET_ID_SHAPE, { error: 'must be an asset ID of digits only' });

/** Listing IDs are opaque object identifiers returned on creation. */
export const listingId = z
  .string({ error: 'must be a listing ID string' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be a listing ID (letters, digits, - or _)' });

/** Game app IDs are digit strings; "440" (DEFAULT_GAME) is the documented one. */
export const gameId = z
  .string({ error: 'must be a game ID string' })
  .regex(GAME_ID_SHAPE, { error: 'must be a game app ID of digits only' });

/** A SKU as stored before the hidden-character rule existed (see `storedUserNote`). */
export const storedSku = z
  .string({ error: 'must be a SKU string' })
  .max(SKU_MAX_LENGTH, { error: 'is too long to be a SKU' })
  .regex(SKU_SHAPE, {
    error: 'must have the shape <part>;<part> (more ;parts allowed)',
  });

/**
 * Item SKU: non-empty parts joined by semicolons, at least the two the
 * interface documents (`<part>;<part>`, e.g. `5021;6`). Real SKUs of the
 * game carry more (`30911;5;u13` for an Unusual with its effect, `…;kt-3`
 * for a killstreak): a buy order for one of those must not be refused here.
 */
export const sku = withoutHiddenControls(storedSku);

/** A listing's SKU shown beside it (from a CSV or the inventory; the service returns the real one). */
export const storedSkuLabel = z.string({ error: 'must be a SKU string' }).max(200, { error: 'must be at most 200 characters' });
export const skuLabel = withoutHiddenControls(storedSkuLabel);

/**
 * Trade offer URL: `https://steamcommunity.com/tradeoffer/new/?partner=<n>&token=<8 characters>`
 * (trade-url.ts says why; whether the partner is the account's own is checked
 * where the account is known: main before it saves, the editor as it is typed).
 */
export const tradeUrl = z.string({ error: 'must be a trade URL string' }).superRefine((value, ctx) => {
  const problem = value.trim() === value ? tradeUrlProblem(value) : 'It must not have spaces around it.';
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The live service's base URL, checked by the same rule the client applies before any request. */
export const serviceUrl = z.string({ error: 'must be a URL' }).superRefine((value, ctx) => {
  const problem = serviceUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
