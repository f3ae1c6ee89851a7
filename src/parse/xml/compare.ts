/** Where vLLM's (or SGLang's) parsers would return something else than the default parse: one diagnostic per difference. */
import type { Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, isJsonObject, jsonEquals, JsonSyntaxError, parseJson, type JsonValue } from '../../ir/json.js';
import { shown } from './decode.js';
import type { VllmExtraction } from './vllm-types.js';

/** A call of the default parse, as returned. */
export interface ReturnedCall {
  readonly name: string;
  readonly arguments: string;
}

function parsed(args: string): JsonValue | undefined {
  try {
    return parseJson(args);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

/** One difference, before it is attributed to the vLLM versions that show it. */
interface Difference {
  readonly code: 'parse/vllm-differs' | 'parse/vllm-exception';
  readonly path: string;
  readonly tool?: string;
  /** What vLLM does, without the version: `gives "s" as 123; read here as "123"`. */
  readonly what: string;
}

/** Every place where vLLM's result `vllm` differs from `ours` (calls aligned by name, arguments compared as JSON values, content as text). */
function differences(text: string, ours: { readonly content: string | null; readonly calls: readonly ReturnedCall[] }, vllm: VllmExtraction): Difference[] {
  const out: Difference[] = [];
  const add = (path: string, what: string, tool?: string) => out.push({ code: 'parse/vllm-differs', path, what, ...(tool !== undefined ? { tool } : {}) });
  if (vllm.exception !== undefined) {
    if (ours.calls.length > 0 || ours.content !== text) out.push({ code: 'parse/vllm-exception', path: '', what: `raises ${vllm.exception}: it returns no tool calls and the whole output as content` });
    return out;
  }
  let v = 0;
  ours.calls.forEach((call, i) => {
    let k = v;
    while (k < vllm.tool_calls.length && vllm.tool_calls[k].function.name !== call.name) k++;
    if (k >= vllm.tool_calls.length) {
      add(`/tool_calls/${i}`, `does not return this call to ${JSON.stringify(call.name)}`, call.name);
      return;
    }
    for (; v < k; v++) add(`/tool_calls/${i}`, `returns a call to ${JSON.stringify(vllm.tool_calls[v].function.name)} here, with ${cut(vllm.tool_calls[v].function.arguments)}`, vllm.tool_calls[v].function.name);
    v = k + 1;
    const theirs = vllm.tool_calls[k].function.arguments;
    if (theirs === call.arguments) return;
    const a = parsed(call.arguments);
    const b = parsed(theirs);
    if (b === undefined) {
      add(`/tool_calls/${i}/function/arguments`, `writes arguments that are not JSON: ${cut(theirs)}`, call.name);
      return;
    }
    if (!isJsonObject(a) || !isJsonObject(b)) {
      if (a === undefined || !jsonEquals(a, b)) add(`/tool_calls/${i}/function/arguments`, `writes the arguments ${shown(b)}`, call.name);
      return;
    }
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const path = `/tool_calls/${i}/function/arguments/${escapePointerToken(key)}`;
      const x = a.get(key);
      const y = b.get(key);
      if (y === undefined) add(path, `leaves out ${JSON.stringify(key)}`, call.name);
      else if (x === undefined) add(path, `adds ${JSON.stringify(key)}: ${shown(y)}`, call.name);
      else if (!jsonEquals(x, y)) add(path, `gives ${JSON.stringify(key)} as ${shown(y)}; read here as ${shown(x)}`, call.name);
    }
  });
  for (; v < vllm.tool_calls.length; v++) {
    add(`/tool_calls/${ours.calls.length}`, `returns a call to ${JSON.stringify(vllm.tool_calls[v].function.name)}, with ${cut(vllm.tool_calls[v].function.arguments)}`, vllm.tool_calls[v].function.name);
  }
  if (vllm.content !== ours.content) add('/content', `returns the content ${vllm.content === null ? 'null' : shown(vllm.content)}`);
  return out;
}

function cut(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

/**
 * Diagnostics `parse/vllm-differs` / `parse/vllm-exception` for every place where vLLM returns
 * something else than `ours`, for each version given (`label` → its result); a difference that
 * several versions show is one diagnostic naming them all.
 */
export function vllmDifferences(text: string, ours: { readonly content: string | null; readonly calls: readonly ReturnedCall[] }, results: readonly (readonly [label: string, result: VllmExtraction])[], server: 'vLLM' | 'SGLang' = 'vLLM'): Diagnostic[] {
  const merged = new Map<string, { d: Difference; labels: string[] }>();
  for (const [label, result] of results) {
    for (const d of differences(text, ours, result)) {
      const key = `${d.code}\u0000${d.path}\u0000${d.what}`;
      const m = merged.get(key);
      if (m) m.labels.push(label);
      else merged.set(key, { d, labels: [label] });
    }
  }
  const code = (c: Difference['code']) => (server === 'vLLM' ? c : c === 'parse/vllm-differs' ? 'parse/sglang-differs' : 'parse/sglang-exception');
  return [...merged.values()].map(({ d, labels }) => ({ code: code(d.code), severity: 'warning', ...(d.tool !== undefined ? { tool: d.tool } : {}), path: d.path, message: `${server} (${labels.join(', ')}) ${d.what}` }));
}
