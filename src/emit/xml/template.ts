/** What the chat templates are given (the tool objects, the messages) and what they raise, shared by the xml dialects and the model families. */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import type { JsonObject, JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';

/** One chat message as the templates read it. */
export interface XmlMessage {
  readonly role: string;
  readonly content: string;
}

/** The tool as the template receives it (`{"type": "function", "function": tool}`'s inner object): name, description, parameters, in that order. */
export function toolObject(tool: ToolDefinition): JsonObject {
  const m = new Map<string, JsonValue>([['name', tool.name]]);
  if (tool.description !== undefined) m.set('description', tool.description);
  if (tool.parameters !== undefined) m.set('parameters', tool.parameters);
  return m;
}

/** The function object a template is given: name, description, parameters, then the tool's other keys as written (`strict`…). */
// as vLLM passes a function with extra keys, and as transformers passes an OpenAI tool written in that order
export function templateFunction(tool: ToolDefinition): JsonObject {
  const fn = new Map<string, JsonValue>(toolObject(tool));
  for (const [k, v] of tool.extra ?? []) if (!fn.has(k)) fn.set(k, v);
  return fn;
}

/** One entry of the `tools` list a template receives: `{"type": "function", "function": tool}` (the function with its own extra keys, in order). */
export function wrappedTool(tool: ToolDefinition): JsonObject {
  return new Map<string, JsonValue>([
    ['type', 'function'],
    ['function', templateFunction(tool)],
  ]);
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
