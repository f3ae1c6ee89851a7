/**
 * Whether a returned tool call was finished by the model, carried beside the call object without
 * changing its JSON. The responses this library returns must stay byte-identical to the server's
 * (vLLM returns a call cut off by max_tokens as if it were whole), so a call the end of the output cut
 * off is remembered here, keyed by the call object itself (a WeakMap: nothing is added to the object,
 * nothing is kept alive), and `checkToolCalls` reads it: such a call is `call/incomplete`, never
 * runnable. The mark is on the object: a copy made through JSON loses it (checkToolCalls' `finishReason`
 * option is the signal left then).
 */

const CUT = new WeakMap<object, string>();

/** Mark a call object (or a streamed call delta) as cut off; `why` says what never came, for the diagnostic. Returns the object. */
export function markIncomplete<T extends object>(call: T, why: string): T {
  CUT.set(call, why);
  return call;
}

/** Why the call object was cut off (what never came), or undefined when it was not marked. */
export function incompleteReason(call: unknown): string | undefined {
  return typeof call === 'object' && call !== null ? CUT.get(call) : undefined;
}

/** Give `to` the mark of `from`, if any (a call rebuilt from another, e.g. with an id added). Returns `to`. */
export function copyCompleteness<T extends object>(from: object, to: T): T {
  const why = CUT.get(from);
  if (why !== undefined) CUT.set(to, why);
  return to;
}
