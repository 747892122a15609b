import type { ApiError } from '../api/errors.ts';
import { printable } from '../safe-text.ts';
import type { InventoryProblemRecord } from '../store/inventory-repo.ts';
import { MAX_INVENTORY_ITEMS, MAX_INVENTORY_PAGES, MAX_RETRY_AFTER_MS, type ReadStop } from './read-bounds.ts';

/**
 * Why an inventory could not be read, as a sentence the picker shows in
 * place of an empty list: what happened, and what the trader can do. The
 * screen says which account it is about, and when the next try goes.
 */
export function problemOf(account: string, error: ApiError | null, at: number): InventoryProblemRecord {
  const kind = error?.kind;
  if (kind === 'forbidden') {
    return {
      kind: 'private', at,
      message: 'Steam says this inventory is private, so the desk cannot see its items. Set the account’s inventory to Public in its Steam privacy settings, then choose Refresh.',
    };
  }
  if (kind === 'rate_limited') {
    const asked = error?.retryAfterMs;
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
      return {
        kind: 'rate_limited', at,
        message: `Steam is limiting how often inventories are read (429) and asked for a wait of ${count(Math.round(asked / 1000))} seconds. `
          + `The desk waits at most ${MAX_RETRY_AFTER_MS / 60_000} minutes, then goes on by itself; the other accounts are read meanwhile.`,
      };
    }
    return {
      kind: 'rate_limited', at,
      message: 'Steam is limiting how often inventories are read (429). The desk waits as long as Steam asks and goes on by itself; nothing else waits for it.',
    };
  }
  if (kind === 'network' || kind === 'server') {
    return { kind: 'unreachable', at, message: `Steam could not be reached for this inventory (${reason(error)}). The desk tries again by itself a few times; after that, choose Refresh.` };
  }
  if (kind === 'bad_response') {
    const issue = error?.issues[0];
    const where = issue === undefined ? reason(error) : `${issue.field} ${issue.message}`;
    return { kind: 'unreadable', at, message: `Steam’s answer for this inventory could not be read (${printable(where, 200)}). What was read before is kept; choose Refresh to try again.` };
  }
  return { kind: 'unreadable', at, message: `Steam did not show this inventory (${reason(error)}). Choose Refresh to try again.` };
}

/**
 * Why a read stopped although Steam said there were more items. The items
 * read stay the account's copy (the screen says how many); a read that
 * stopped before any item keeps the copy read before.
 */
export function stoppedProblem(stop: ReadStop, items: number, at: number): InventoryProblemRecord {
  const why = {
    nothing_new: 'Steam said there were more items, but its next page held none the desk had not already read',
    repeated_start: 'Steam pointed the desk back to a page it had already read',
    items: `Steam said there were more items past ${count(MAX_INVENTORY_ITEMS)}, more than a TF2 backpack holds`,
    pages: `Steam said there were more items after ${MAX_INVENTORY_PAGES} pages`,
  }[stop];
  if (items === 0) return { kind: 'unreadable', at, message: `${why}, so the read stopped. What was read before is kept; choose Refresh to try again.` };
  return { kind: 'stopped', at, message: `The read stopped: ${why}. What it read is shown; choose Refresh to read it again.` };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The part of an error's message after the first colon: the reason itself, without who asked. */
function reason(error: ApiError | null): string {
  if (error === null) return 'an unexpected failure';
  const message = error.message;
  const at = message.indexOf(': ');
  return printable(at === -1 ? message : message.slice(at + 2), 200);
}
