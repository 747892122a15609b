import type { ApiError } from '../api/errors.ts';
import { printable } from '../safe-text.ts';
import type { InventoryProblemRecord } from '../store/inventory-repo.ts';

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

/** The part of an error's message after the first colon: the reason itself, without who asked. */
function reason(error: ApiError | null): string {
  if (error === null) return 'an unexpected failure';
  const message = error.message;
  const at = message.indexOf(': ');
  return printable(at === -1 ? message : message.slice(at + 2), 200);
}
