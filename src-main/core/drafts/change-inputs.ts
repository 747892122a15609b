import { DEFAULT_GAME } from '../../../src-shared/fields.ts';
import { changeInput, type ChangeInput, type ParsedChangeInput } from './change.ts';
import type { ChangeIssue } from './merge.ts';

/**
 * The trader's inputs on their way into a draft. They are read with the
 * shared schema (`changeInput`) once, where they come in: the router reads
 * what the screens send, the CSV reader each row of a file, and
 * `readChangeInputs` what code makes from stored or outside data (an
 * undo's restorations, the inventory's items), whose field rules may have
 * tightened since it was stored. The draft service merges what it is given
 * and parses nothing again.
 */

/** A refusal of one input of a list: its index, the row (target) and the field. */
export type InputIssue = ChangeIssue & { readonly index: number };

/**
 * An input as the schema's parse leaves it. The one default the schema has
 * (a listing's game) is filled in here for inputs that code builds to the
 * type without parsing them.
 */
export function parsedForm(input: ChangeInput): ParsedChangeInput {
  return input.kind === 'listing.create' ? { ...input, game: input.game ?? DEFAULT_GAME } : input;
}

export interface ReadInputs {
  /** The inputs the schema accepted, in order, for the draft service. */
  readonly inputs: readonly ParsedChangeInput[];
  /** The draft's refusals of `inputs` with the schema's, each naming the input's index in the list read, in order. */
  refusals(drafts: readonly InputIssue[]): InputIssue[];
}

/** Reads inputs with the shared schema: the ones it accepts, and a refusal naming the field for each issue of the others. */
export function readChangeInputs(raw: readonly unknown[]): ReadInputs {
  const inputs: ParsedChangeInput[] = [];
  /** Index in `raw` of each input accepted. */
  const at: number[] = [];
  const refused: InputIssue[] = [];
  raw.forEach((value, index) => {
    const parsed = changeInput.safeParse(value);
    if (parsed.success) {
      inputs.push(parsed.data);
      at.push(index);
      return;
    }
    for (const issue of parsed.error.issues) {
      refused.push({ index, target: targetHint(value), field: issue.path.join('.') || 'change', message: issue.message });
    }
  });
  return {
    inputs,
    refusals: (drafts) => [...refused, ...drafts.map((e) => ({ ...e, index: at[e.index] ?? e.index }))].sort((a, b) => a.index - b.index),
  };
}

/** Best-effort row name for an input that did not even parse. */
function targetHint(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const field = (name: string): unknown => Reflect.get(raw, name);
  const id = field('asset_id') ?? field('sku') ?? field('listing_id');
  return typeof id === 'string' ? id : '';
}
