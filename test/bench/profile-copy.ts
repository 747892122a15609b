import { copyFileSynced } from '../../src-main/core/whole-file.ts';

/**
 * Copies a seeded profile into a run's place and flushes it to the disk, as
 * a desk's close leaves its file (the close checkpoints with synchronous=FULL).
 * A copy left in the page cache is written out by the first fsync anyone
 * makes on the file system (ext4 commits a file's new blocks with its journal):
 * the desk's first commit at start paid 35–60 ms for the 22 MB of the 50k
 * profile, which the app never pays on a profile it closed earlier.
 */
export const copyProfileSynced = copyFileSynced;
