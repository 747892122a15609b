import { z } from 'zod';
import { method } from '../../../src-main/core/data/methods.ts';

/** The method map of the boundary's own test worker (`echo-worker.ts`). */
export const ECHO_METHODS = {
  echo: {
    open: method(z.tuple([]), z.number().int()),
    add: method(z.tuple([z.number(), z.number()]), z.number()),
    refuse: method(z.tuple([]), z.never()),
    crash: method(z.tuple([]), z.never()),
    text: method(z.tuple([z.number().int()]), z.string()),
    wrapped: method(z.tuple([z.number().int()]), z.object({ csv: z.string(), rows: z.number() })),
    reply: method(z.tuple([z.number().int()]), z.object({ ok: z.literal(true), value: z.object({ csv: z.string(), rows: z.number() }) })),
    wait: method(z.tuple([z.number()]), z.number()),
    /** Answers after `ms`, past its short deadline when `ms` is long. */
    slow: method(z.tuple([z.number()]), z.number(), { deadlineMs: 300 }),
    spin: method(z.tuple([z.number()]), z.number()),
    /** Holds the thread for good: a worker that stops answering. */
    hang: method(z.tuple([]), z.never()),
    /** Answers with what its result schema does not allow. */
    misfit: method(z.tuple([]), z.number()),
    shout: method(z.tuple([z.string()]), z.boolean()),
    /** Asks main to double a number, and answers with main's answer. */
    askDouble: method(z.tuple([z.number()]), z.number()),
  },
};

/** What the test worker may ask of main. */
export const ECHO_MAIN_METHODS = {
  main: {
    double: method(z.tuple([z.number()]), z.number(), { deadlineMs: 500 }),
  },
};
