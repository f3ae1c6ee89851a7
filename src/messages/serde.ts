/**
 * Conversations in openai-harmony's serde JSON form (what its Python and Rust APIs read):
 * `{messages: [{role, name?, recipient?, channel?, content_type?, content}]}` where content is
 * a string or a list of `{type: "text", text}`, `{type: "system_content", …}` and
 * `{type: "developer_content", instructions?, tools?}` items. Lets users of those libraries
 * render the same conversations here.
 *
 * What openai-harmony refuses is refused here, with its words, as one CompileError
 * (`conversation/refused`) at the JSON Pointer of what is wrong; like openai-harmony, only the
 * first problem is reported. Its order: first the reading of the JSON (src/chat.rs, serde), message
 * by message, then the rendering (src/encoding.rs, `Render<Message>`), message by message, over the
 * messages that are printed.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { emitHarmonyNamespace, type HarmonyNamespace } from '../emit/harmony/catalog.js';
import { fromJs } from '../ir/json.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool } from '../lower/index.js';
import { dropAnalysis, renderConversation, type ConversationOptions } from './conversation.js';
import { renderHarmonyDeveloperContent } from './developer.js';
import type { HarmonyMessage } from './envelope.js';
import { renderHarmonySystemContent } from './system.js';
import { pushAll } from '../ir/arrays.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
/** A JSON Pointer reference token (RFC 6901). */
const token = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** openai-harmony's roles, in the order its `Role` enum declares them (serde lists them so). */
const ROLES = ['user', 'assistant', 'system', 'developer', 'tool'] as const;
type Role = (typeof ROLES)[number];
/** The `type` tags of its `Content` enum, in declaration order. */
const CONTENT_TYPES = ['text', 'system_content', 'developer_content'] as const;
/** A role as Rust's `{:?}` prints it (the variant's name). */
const DEBUG_ROLE: Record<Role, string> = { user: 'User', assistant: 'Assistant', system: 'System', developer: 'Developer', tool: 'Tool' };

/** A refusal, in openai-harmony's words. */
function refused(path: string, words: string): CompileError {
  return new CompileError([{ code: 'conversation/refused', severity: 'error', path, message: `openai-harmony refuses this conversation: ${words}` }]);
}

/** How serde_json names a JSON value it did not expect (serde's `Unexpected`, as serde_json prints it). */
function unexpected(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? `integer \`${v}\`` : `floating point \`${String(v).replace('e+', 'e')}\``;
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  return Array.isArray(v) ? 'sequence' : 'map';
}

/** serde's `unknown variant` error (its `OneOf` list: one name, two with `or`, else `one of …`). */
function unknownVariant(value: string, names: readonly string[]): string {
  const q = names.map((n) => `\`${n}\``);
  const expected = q.length === 1 ? q[0] : q.length === 2 ? `${q[0]} or ${q[1]}` : `one of ${q.join(', ')}`;
  return `unknown variant \`${value}\`, expected ${expected}`;
}

/** An `Option<String>` field: absent or null is None; another JSON type is refused. */
function optionalString(o: Obj, k: string, at: string): void {
  if (has(o, k) && o[k] !== null && typeof o[k] !== 'string') throw refused(`${at}/${token(k)}`, `invalid type: ${unexpected(o[k])}, expected a string`);
}

/** A required `String` field. */
function requiredString(o: Obj, k: string, at: string): void {
  if (!has(o, k)) throw refused(at, `missing field \`${k}\``);
  if (typeof o[k] !== 'string') throw refused(`${at}/${token(k)}`, `invalid type: ${unexpected(o[k])}, expected a string`);
}

/** `ToolNamespaceConfig {name: String, description: Option<String>, tools: Vec<ToolDescription>}` and its `ToolDescription {name, description: String, parameters}`. */
function checkNamespace(cfg: unknown, at: string): void {
  if (!isObj(cfg)) throw refused(at, `invalid type: ${unexpected(cfg)}, expected struct ToolNamespaceConfig`);
  // the fields present, as they come; then the missing ones, in declaration order
  for (const k of Object.keys(cfg)) {
    if (k === 'name') requiredString(cfg, k, at);
    else if (k === 'description') optionalString(cfg, k, at);
    else if (k === 'tools') {
      if (!Array.isArray(cfg.tools)) throw refused(`${at}/tools`, `invalid type: ${unexpected(cfg.tools)}, expected a sequence`);
      cfg.tools.forEach((t, i) => {
        const p = `${at}/tools/${i}`;
        if (!isObj(t)) throw refused(p, `invalid type: ${unexpected(t)}, expected struct ToolDescription`);
        for (const f of Object.keys(t)) if (f === 'name' || f === 'description') requiredString(t, f, p);
        requiredString(t, 'name', p);
        requiredString(t, 'description', p);
      });
    }
  }
  requiredString(cfg, 'name', at);
  if (!has(cfg, 'tools')) throw refused(at, 'missing field `tools`');
}

/** A `tools` map (`Option<BTreeMap<String, ToolNamespaceConfig>>`). */
function checkTools(item: Obj, at: string): void {
  if (!has(item, 'tools') || item.tools === null) return;
  if (!isObj(item.tools)) throw refused(`${at}/tools`, `invalid type: ${unexpected(item.tools)}, expected a map`);
  for (const [k, v] of Object.entries(item.tools)) checkNamespace(v, `${at}/tools/${token(k)}`);
}

/** One content item (`Content`, an enum tagged by `type`). */
function checkContentItem(item: unknown, at: string): void {
  if (Array.isArray(item)) throw refused(at, 'a content item is an object {"type": …} here (openai-harmony also reads a list whose first element is the type; this renderer does not)');
  if (!isObj(item)) throw refused(at, `invalid type: ${unexpected(item)}, expected internally tagged enum Content`);
  if (!has(item, 'type')) throw refused(at, 'missing field `type`');
  const type = item.type;
  if (typeof type !== 'string') throw refused(`${at}/type`, `invalid type: ${unexpected(type)}, expected variant identifier`);
  if (!(CONTENT_TYPES as readonly string[]).includes(type)) throw refused(`${at}/type`, unknownVariant(type, CONTENT_TYPES));
  if (type === 'text') requiredString(item, 'text', at);
  else checkTools(item, at);
}

/**
 * What serde refuses while reading one message, in its order: the message's own fields as they
 * come (`content`, `recipient`, `channel`, `content_type`), a missing `content`, then the author
 * (`role`, `name`, flattened into the message, so read last). Returns the role.
 */
function checkMessage(m: unknown, at: string): Role {
  if (!isObj(m)) throw refused(at, `invalid type: ${unexpected(m)}, expected struct Message`);
  for (const k of Object.keys(m)) {
    if (k === 'content') {
      const c = m.content;
      if (Array.isArray(c)) c.forEach((item, i) => checkContentItem(item, `${at}/content/${i}`));
      else if (typeof c !== 'string') throw refused(`${at}/content`, `invalid type: ${unexpected(c)}, expected string or list of content`);
    } else if (k === 'recipient' || k === 'channel' || k === 'content_type') optionalString(m, k, at);
  }
  if (!has(m, 'content')) throw refused(at, 'missing field `content`');
  let role: Role | undefined;
  for (const k of Object.keys(m)) {
    if (k === 'name') optionalString(m, k, at);
    if (k !== 'role') continue;
    const r = m.role;
    const p = `${at}/role`;
    let name: string;
    if (typeof r === 'string') name = r;
    else if (isObj(r)) {
      // serde also reads an enum as a map of one key, {"user": null}
      const keys = Object.keys(r);
      if (keys.length !== 1) throw refused(p, 'invalid value: map, expected map with a single key');
      name = keys[0] as string;
      if (!(ROLES as readonly string[]).includes(name)) throw refused(p, unknownVariant(name, ROLES));
      if (r[name] !== null) throw refused(p, `invalid type: ${unexpected(r[name])}, expected unit`);
    } else throw refused(p, `invalid type: ${unexpected(r)}, expected string or map`);
    if (!(ROLES as readonly string[]).includes(name)) throw refused(p, unknownVariant(name, ROLES));
    role = name as Role;
  }
  if (role === undefined) throw refused(at, 'missing field `role`');
  return role;
}

/** Code point order, which is the byte order of UTF-8 (Rust's `String` order, hence `BTreeMap`'s). */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/** Lower a checked namespace config `{name, description?, tools: [{name, description, parameters?}]}`. */
function namespaceOf(cfg: Obj, pointer: string, diagnostics: Diagnostic[]): HarmonyNamespace {
  const tools: IrTool[] = (cfg.tools as Obj[]).map((o, i) => {
    const p = `${pointer}/tools/${i}`;
    const r = lowerTool({
      name: o.name as string,
      description: fromJs(o.description),
      ...(o.parameters !== undefined ? { parameters: fromJs(o.parameters) } : {}),
      format: 'bare',
      pointer: p,
      parametersPointer: `${p}/parameters`,
    });
    pushAll(diagnostics, r.diagnostics);
    return r.tool;
  });
  const description = str(cfg.description);
  return { name: cfg.name as string, ...(description !== undefined ? { description } : {}), tools };
}

/**
 * openai-harmony's `template_tools_section`: `# Tools`, then every namespace of the map, in the
 * map's order (a `BTreeMap`: by key), each printed with its own name, description and tools.
 * Undefined for no namespaces.
 */
function toolsSection(item: Obj, pointer: string, diagnostics: Diagnostic[]): string | undefined {
  if (!isObj(item.tools)) return undefined;
  const tools = item.tools;
  const keys = Object.keys(tools).sort(byCodePoint);
  if (keys.length === 0) return undefined;
  const blocks = keys.map((k) => emitHarmonyNamespace(namespaceOf(tools[k] as Obj, `${pointer}/tools/${token(k)}`, diagnostics)));
  return ['# Tools', ...blocks].join('\n\n');
}

/** Render a serde-form conversation as openai-harmony does; throws a CompileError (`conversation/refused`) where it refuses. */
export function renderHarmonyConversationJson(conversation: unknown, options: ConversationOptions = {}): { text: string; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const msgs = isObj(conversation) && Array.isArray(conversation.messages) ? conversation.messages : undefined;
  if (!msgs) throw new CompileError([{ code: 'input/not-conversation', severity: 'error', path: '', message: 'a conversation is {"messages": [...]}' }]);

  // reading (serde): the first problem of the first message that has one
  const roles = msgs.map((m, i) => checkMessage(m, `/messages/${i}`));
  const objs = msgs as Obj[];
  const items = (o: Obj): unknown[] => (typeof o.content === 'string' ? [{ type: 'text', text: o.content }] : (o.content as unknown[]));

  // rendering (Render<Message>): over the printed messages only, the tool's name, then each item's place
  const heads: HarmonyMessage[] = objs.map((o, i) => ({
    role: roles[i] as Role,
    ...(str(o.name) !== undefined ? { name: str(o.name) } : {}),
    ...(str(o.recipient) !== undefined ? { recipient: str(o.recipient) } : {}),
    ...(str(o.channel) !== undefined ? { channel: str(o.channel) } : {}),
    ...(str(o.content_type) !== undefined ? { contentType: str(o.content_type) } : {}),
    content: '',
  }));
  const printed = new Set(options.dropAnalysis === false ? heads : dropAnalysis(heads));
  heads.forEach((h, i) => {
    if (!printed.has(h)) return;
    const at = `/messages/${i}`;
    if (h.role === 'tool' && h.name === undefined) throw refused(at, 'Tools should have a name!');
    items(objs[i] as Obj).forEach((c, k) => {
      const type = (c as Obj).type;
      if (type === 'system_content' && h.role !== 'system') throw refused(`${at}/content/${k}`, `SystemContent may only appear in system messages, found in ${DEBUG_ROLE[h.role]}`);
      if (type === 'developer_content' && h.role !== 'developer') throw refused(`${at}/content/${k}`, `DeveloperContent may only appear in developer messages, found in ${DEBUG_ROLE[h.role]}`);
    });
  });

  // the routing line: any developer content of the conversation with a non-empty `functions` namespace (by key)
  const functionTools = objs.some((o) =>
    items(o).some((c) => {
      const t = (c as Obj).tools;
      return (c as Obj).type === 'developer_content' && isObj(t) && isObj(t.functions) && (t.functions.tools as unknown[]).length > 0;
    }),
  );

  const out: HarmonyMessage[] = heads.map((h, i): HarmonyMessage => {
    const content = items(objs[i] as Obj)
      .map((item, k): string => {
        const c = item as Obj;
        const pointer = typeof (objs[i] as Obj).content === 'string' ? `/messages/${i}/content` : `/messages/${i}/content/${k}`;
        if (c.type === 'system_content') {
          const cc = isObj(c.channel_config) ? c.channel_config : undefined;
          const effort = str(c.reasoning_effort);
          const channels = cc && Array.isArray(cc.valid_channels) ? cc.valid_channels.map(String) : [];
          return renderHarmonySystemContent(
            {
              identity: str(c.model_identity) ?? null,
              cutoff: str(c.knowledge_cutoff) ?? null,
              ...(str(c.conversation_start_date) !== undefined ? { date: str(c.conversation_start_date) } : {}),
              ...(effort !== undefined ? { effort: effort.toLowerCase() as 'low' | 'medium' | 'high' } : {}),
              // no channel line for no channels (openai-harmony skips an empty list)
              channels: channels.length > 0 ? channels : null,
              channelRequired: cc?.channel_required === true,
            },
            toolsSection(c, pointer, diagnostics),
            functionTools,
          );
        }
        if (c.type === 'developer_content') return renderHarmonyDeveloperContent(str(c.instructions), toolsSection(c, pointer, diagnostics));
        return c.text as string;
      })
      .join('');
    return { ...h, content };
  });
  return { text: renderConversation(out, options), diagnostics };
}
