import type { z } from 'zod';

/**
 * zod's plain parser, not its compiled fast path. At an object schema's first
 * parse zod compiles a function for it (about a millisecond for a row or a
 * settings object), which pays off only over hundreds of parses; a schema
 * read once or a few times (a start reads many) is quicker on the plain path.
 */
export const PLAIN_PARSE: z.core.ParseContext<z.core.$ZodIssue> = { jitless: true };
