import { DomainError } from '../core/errors.ts';
import { printable } from '../core/safe-text.ts';
import { resolveCall, type Implementation, type MethodMap } from '../core/data/methods.ts';
import { kindedError, partOf, type MainAnswer } from '../core/data/protocol.ts';

/** What main answers when the worker asks (see `askHead`): main's method map and its implementation. */
export interface MainAnswers<A extends MethodMap<A>> {
  readonly methods: A;
  readonly implementation: Implementation<A>;
}

/**
 * Main's answer to one ask of the worker: the method of main's map it names,
 * run with its arguments read by that method's schema; a refusal or a
 * failure is an error value, never a thrown object.
 */
export async function answerAsk<A extends MethodMap<A>>(answers: MainAnswers<A> | undefined, ask: { ask: number; target: string; method: string }, message: unknown): Promise<MainAnswer> {
  try {
    return { answer: ask.ask, ok: true, value: await run(answers, ask, message) };
  } catch (error) {
    const view = kindedError(error) ?? { kind: 'internal' as const, message: (error instanceof Error ? error.message : String(error)).slice(0, 4_000) };
    return { answer: ask.ask, ok: false, error: view };
  }
}

async function run<A extends MethodMap<A>>(answers: MainAnswers<A> | undefined, ask: { target: string; method: string }, message: unknown): Promise<unknown> {
  const call = answers ? resolveCall(answers.methods, answers.implementation, ask.target, ask.method, partOf(message, 'args')) : null;
  if (!call || 'refused' in call) {
    const what = `${printable(ask.target, 40)}.${printable(ask.method, 60)}`;
    throw new DomainError('internal', call?.refused === 'arguments' ? `the data worker asked ${what} with arguments that do not fit it` : `main does not answer ${what}`);
  }
  const value: unknown = await call.run();
  return value;
}
