import { DomainError } from '../errors.ts';

/** A part of a file as the import takes it: its number in the file (from 1), its text, whether it ends the file. */
export interface CsvPartInput {
  readonly seq: number;
  readonly text: string;
  readonly last: boolean;
}

/**
 * Why a part is not the one an upload takes next (`received` parts taken so
 * far), or null when it is. A file is only its parts joined in order: a part
 * missing or out of place joins the end of one row to the start of another
 * ("…,1" then ".00,1" where "2.50,1" belonged reads a price of 12.50 as
 * 1.00) and nothing in the text would show it. So such a part is refused,
 * and the caller drops the upload with it: nothing of that file is kept.
 */
export function partOrderRefusal(seq: number, received: number): DomainError | null {
  const expected = received + 1;
  if (seq === expected) return null;
  const what = seq < expected
    ? `part ${seq} came again (part ${expected} was expected)`
    : `part ${seq} came where part ${expected} was expected (part ${expected} is missing or out of order)`;
  return new DomainError('invalid', `The CSV file arrived out of order: ${what}, so nothing from it was kept; check the file again`);
}
