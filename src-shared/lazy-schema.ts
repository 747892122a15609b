import { z } from 'zod';

/**
 * A schema built the first time something parses with it, not when its
 * module loads. The contract and the views describe some 4,000 schema parts,
 * and building them all costs every process that loads them tens of
 * milliseconds and megabytes before its first answer, while most are parsed
 * only by tests (outputs are checked in development) or by a screen not open
 * yet. A schema that others extend or pick from stays built at load: those
 * need its shape.
 */
export const lazySchema = <T extends z.ZodType>(build: () => T): z.ZodLazy<T> => z.lazy(build);
