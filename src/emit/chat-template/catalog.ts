/**
 * The gpt-oss chat template's tools namespace, `render_tool_namespace("functions", tools)`
 * (spec chat-template-format.md §3.1): each tool's raw description, its name, and one line
 * per top-level parameter. Where Jinja2 raises, no text is produced: a CompileError with one
 * `chat-template/fails` diagnostic per failing tool.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { fromJs, isJsonObject, JsonNumber, type JsonValue } from '../../ir/json.js';
import type { IrNode, IrObject, IrProperty, IrTool } from '../../ir/nodes.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { lowerSchema } from '../../lower/index.js';
import { firstLoneSurrogate, pyConcatOperand, surrogateError, surrogatePointer, TemplateFailure, undefinedAttribute, type JinjaError } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { plainType, pyTruthy } from '../python/values.js';
import { fail, type ChatTemplateContext, type JsJinjaNote } from './context.js';
import { NUMBER_CONCAT_NOTE, noteItemsProperty, noteNumbers } from './js-jinja.js';
import { chatTemplateTypeIn, concatenated, descriptionOf, enumTruthy, isRequired, oneOfTruthy } from './types.js';
import { pushAll } from '../../ir/arrays.js';

/** One tool as the chat template needs it: the definition as written (it reads the raw description) and its IR. */
export interface ChatTemplateTool {
  readonly def: ToolDefinition;
  readonly ir: IrTool;
}

/** A rendering and its diagnostics (warnings: a failure throws). */
export interface ChatTemplateText {
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** The name diagnostics give a tool: its name, or `#index` when it has none. */
function toolLabel(def: ToolDefinition, index: number): string {
  const name: unknown = def.name;
  return typeof name === 'string' && name !== '' ? name : `#${index}`;
}

/** The error diagnostic for a template failure. */
export function failureDiagnostic(tool: string | undefined, f: TemplateFailure): Diagnostic {
  return {
    code: 'chat-template/fails',
    severity: 'error',
    ...(tool !== undefined ? { tool } : {}),
    path: f.pointer,
    message: `the gpt-oss chat template fails on this tool: ${f.message}`,
  };
}

/** The warning diagnostic for a @huggingface/jinja difference. */
function jsDiagnostic(tool: string, n: JsJinjaNote): Diagnostic {
  return { code: 'chat-template/js-jinja-differs', severity: 'warning', tool, path: n.pointer, message: n.message };
}

/** `"// " + tool.description + "\n"`: written for every tool; a missing description is undefined, a non-string one cannot be added. */
function toolDescription(def: ToolDefinition, ctx: ChatTemplateContext): string {
  const d = def.description;
  if (d === undefined) {
    throw new TemplateFailure(def.pointer, 'the tool has no description, and the template writes "// " + description for every tool', undefinedAttribute(new Map(), 'description'));
  }
  try {
    return pyConcatOperand(d);
  } catch (e) {
    if (d instanceof JsonNumber) ctx.jsNotes.push({ pointer: toolFieldPointer(def, 'description'), message: NUMBER_CONCAT_NOTE });
    throw new TemplateFailure(toolFieldPointer(def, 'description'), `the tool description is ${plainType(d)}, and the template adds it to a string`, e as JinjaError);
  }
}

/** `"type " + tool.name + " = "`: the name as is, never escaped; a tool without one fails. */
function toolName(def: ToolDefinition): string {
  const name: unknown = def.name;
  if (name === undefined) throw new TemplateFailure(def.pointer, 'the tool has no name', undefinedAttribute(new Map(), 'name'));
  try {
    return pyConcatOperand(fromJs(name));
  } catch (e) {
    throw new TemplateFailure(toolFieldPointer(def, 'name'), 'the tool name is not a string, and the template adds it to a string', e as JinjaError);
  }
}

/** The object node holding the root's properties: the root, a member of its keywords, or the object variant of its `type` list. */
function rootObject(node: IrNode | undefined): IrObject | undefined {
  if (node === undefined) return undefined;
  if (node.kind === 'object') return node;
  const candidates = node.kind === 'intersection' && node.origin === 'keywords' ? node.members : node.kind === 'union' && node.origin === 'typeArray' ? node.variants : [];
  for (const m of candidates) {
    if (m.kind === 'object' && m.pointer === node.pointer) return m;
    if (m.kind === 'union' && m.origin === 'typeArray') for (const v of m.variants) if (v.kind === 'object') return v;
  }
  return undefined;
}

/**
 * `tool.parameters and tool.parameters.properties`: the parameters must be an object whose
 * `properties` is truthy, whatever its `type`. IR lacks: root properties beside a `type`
 * that is not object (the lowering does not read them); those are lowered here on their own,
 * at the same pointers.
 */
function parameterObject(t: ChatTemplateTool, ctx: ChatTemplateContext): IrObject | undefined {
  const raw = t.def.parameters;
  if (!isJsonObject(raw) || !pyTruthy(raw)) return undefined;
  const props = raw.get('properties');
  if (!pyTruthy(props)) return undefined;
  if (!isJsonObject(props)) return fail(ctx, '/properties', `the parameters' \`properties\` is ${plainType(props as JsonValue)}, not an object of schemas`, undefinedAttribute(props as JsonValue, 'items'));
  const found = rootObject(t.ir.parameters);
  if (found && found.properties.length > 0) return found;
  const wrapper = new Map<string, JsonValue>([['properties', props as JsonValue]]);
  const required = raw.get('required');
  if (required !== undefined) wrapper.set('required', required);
  const lowered = lowerSchema(wrapper).node;
  return lowered.kind === 'object' ? lowered : undefined;
}

/**
 * One parameter line: its description (top level only), `name?: T`, the default, and `,⏎`
 * after every parameter, the last one included.
 */
function parameterLine(object: IrObject, prop: IrProperty, ctx: ChatTemplateContext): string {
  const s = prop.schema;
  let out = '';
  const d = descriptionOf(s, ctx);
  if (pyTruthy(d)) out += `// ${concatenated(d as JsonValue, `${s.pointer}/description`, 'the parameter description', ctx)}\n`;
  out += prop.name;
  if (!isRequired(object, prop, ctx)) out += '?';
  out += `: ${chatTemplateTypeIn(s, ctx)}`;
  if (s.meta.default) out += parameterDefault(s, s.meta.default.value, ctx);
  return `${out},\n`;
}

/**
 * `DEFAULT(spec)`: beside a truthy `enum` the default is added raw after `, // default: `
 * (only a string can be); beside a truthy `oneOf` it is glued to the last variant as
 * `// default: ` (no comma); otherwise `, // default: ` and `tojson` (Python json.dumps).
 * The line's own `,` follows, hence `// default: celsius,`.
 */
function parameterDefault(s: IrNode, value: JsonValue, ctx: ChatTemplateContext): string {
  const pointer = `${s.pointer}/default`;
  if (enumTruthy(s, ctx)) return `, // default: ${concatenated(value, pointer, 'its default (beside `enum`)', ctx)}`;
  if (oneOfTruthy(s, ctx)) return `// default: ${concatenated(value, pointer, 'its default (beside `oneOf`)', ctx)}`;
  noteNumbers(ctx, pointer, value);
  return `, // default: ${pyJsonDumps(value)}`;
}

/** One tool: `// description⏎type name = (_: {⏎…}) => any;⏎⏎`, or `() => any;⏎⏎` without properties. */
function toolText(t: ChatTemplateTool, ctx: ChatTemplateContext): string {
  let out = `// ${toolDescription(t.def, ctx)}\n`;
  out += `type ${toolName(t.def)} = `;
  const object = parameterObject(t, ctx);
  if (object === undefined) return `${out}() => any;\n\n`;
  noteItemsProperty(
    ctx,
    object.pointer,
    object.properties.map((p) => p.name),
  );
  out += '(_: {\n';
  for (const prop of object.properties) out += parameterLine(object, prop, ctx);
  return `${out}}) => any;\n\n`;
}

/**
 * `render_tool_namespace(name, tools)`: `## name⏎⏎namespace name {⏎⏎` + tools + `} // namespace name`.
 * Throws a CompileError when the template fails on any tool (one error per failing tool).
 */
export function emitChatTemplateNamespace(tools: readonly ChatTemplateTool[], name = 'functions'): ChatTemplateText {
  const diagnostics: Diagnostic[] = [];
  const chunks: string[] = [];
  let failed = false;
  tools.forEach((t, i) => {
    const label = toolLabel(t.def, i);
    const ctx: ChatTemplateContext = { ...(t.def.parameters !== undefined ? { source: t.def.parameters } : {}), base: t.def.parametersPointer, jsNotes: [] };
    try {
      chunks.push(toolText(t, ctx));
    } catch (e) {
      if (!(e instanceof TemplateFailure)) throw e;
      failed = true;
      diagnostics.push(failureDiagnostic(label, e));
    }
    pushAll(diagnostics, ctx.jsNotes.map((n) => jsDiagnostic(label, n)));
  });
  if (failed) throw new CompileError(diagnostics);
  return { text: `## ${name}\n\nnamespace ${name} {\n\n${chunks.join('')}} // namespace ${name}`, diagnostics };
}

/**
 * transformers hands the rendered text on as UTF-8 (render.py encodes it): a lone surrogate
 * (only possible in strings given as JavaScript values) fails there. Throws that failure,
 * naming the first tool whose definition holds one.
 */
export function assertUtf8(text: string, tools: readonly ChatTemplateTool[]): void {
  const s = firstLoneSurrogate(text);
  if (!s) return;
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the rendered text holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  for (const [i, t] of tools.entries()) {
    const at = surrogatePointer(t.def.description, toolFieldPointer(t.def, 'description')) ?? surrogatePointer(t.def.name, toolFieldPointer(t.def, 'name')) ?? surrogatePointer(t.def.parameters, t.def.parametersPointer);
    if (at !== undefined) throw new CompileError([{ ...failureDiagnostic(toolLabel(t.def, i), new TemplateFailure(at, reason, error)), message: `the gpt-oss chat template fails on this tool: ${reason} (Python: ${error.text})` }]);
  }
  throw new CompileError([{ code: 'chat-template/fails', severity: 'error', path: '', message: `the gpt-oss chat template fails: ${reason} (Python: ${error.text})` }]);
}
