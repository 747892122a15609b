import { CSV_PART_SIZE, type CsvPart } from '../../../src-shared/csv-parts.ts';

/**
 * A chosen file read a part at a time (`size` bytes), never whole: a CSV
 * file of a million rows is 33 MB, which the import takes in parts as they
 * come. Decoded as UTF-8 with its byte order mark kept (main's reader says
 * whether the file had one, as Excel's "CSV UTF-8" does, and drops it),
 * with a character cut by a part's end carried into the next part, so no
 * part splits one. Always at least one part (an empty file is one empty
 * part, which the import answers "the file is empty"), numbered from 1.
 *
 * Bytes that are not UTF-8 (a file saved as Latin-1, a cut download) are
 * decoded as U+FFFD here, not refused: main's reader refuses each line that
 * holds one, at its line. Only main counts lines as the import reports them
 * (a note quoted over two lines, CR, LF or CRLF, a line cut by a part's
 * end); a strict decoder here would know the byte, not the line, and would
 * stop at the first such byte where main reports every line.
 */
export async function* fileParts(file: Blob, size = CSV_PART_SIZE): AsyncGenerator<CsvPart> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let at = 0;
  let seq = 0;
  do {
    const end = Math.min(file.size, at + size);
    const last = end >= file.size;
    const text = decoder.decode(await file.slice(at, end).arrayBuffer(), { stream: !last });
    seq += 1;
    yield { seq, text, last, done: file.size === 0 ? 1 : end / file.size };
    at = end;
  } while (at < file.size);
}
