/** What the chat templates are given and what they raise, shared by the xml dialects. */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, type JsonObject, type JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';

/** One chat message as the templates read it. */
export interface XmlMessage {
  readonly role: string;
  readonly content: string;
}

/** Jinja's `x.key` on a JSON value: the key's value in a mapping, else undefined (Jinja's Undefined). */
export function attr(v: JsonValue | undefined, key: string): JsonValue | undefined {
  return v instanceof Map ? v.get(key) : undefined;
}

/** True when the value is a JSON object (Jinja's `is mapping`). */
export function isMapping(v: JsonValue | undefined): v is JsonObject {
  return v instanceof Map;
}

/** The tool as the template receives it (`{"type": "function", "function": tool}`'s inner object): name, description, parameters, in that order. */
export function toolObject(tool: ToolDefinition): JsonObject {
  const m = new Map<string, JsonValue>([['name', tool.name]]);
  if (tool.description !== undefined) m.set('description', tool.description);
  if (tool.parameters !== undefined) m.set('parameters', tool.parameters);
  return m;
}

/** A JSON Pointer one level down. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${typeof key === 'number' ? key : escapePointerToken(key)}`;
}

/** The diagnostic for a place where the reference template raises instead of rendering. */
export function templateFailure(tool: ToolDefinition | undefined, path: string, message: string): Diagnostic {
  return { code: 'xml/template-fails', severity: 'error', ...(tool ? { tool: tool.name } : {}), path, message };
}

/** Throw the CompileError for a place where the reference template raises. */
export function failTemplate(tool: ToolDefinition | undefined, path: string, message: string): never {
  throw new CompileError([templateFailure(tool, path, message)]);
}

/** One ChatML turn: `<|im_start|>ROLE\nCONTENT<|im_end|>\n`. */
export function chatmlTurn(role: string, content: string): string {
  return `<|im_start|>${role}\n${content}<|im_end|>\n`;
}
