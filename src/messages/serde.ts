/**
 * Conversations in openai-harmony's serde JSON form (what its Python and Rust APIs read):
 * `{messages: [{role, name?, recipient?, channel?, content_type?, content}]}` where content is
 * a string or a list of `{type: "text", text}`, `{type: "system_content", …}` and
 * `{type: "developer_content", instructions?, tools?}` items. Lets users of those libraries
 * render the same conversations here.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { emitHarmonyToolsSection, type HarmonyNamespace } from '../emit/harmony/catalog.js';
import { fromJs } from '../ir/json.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool } from '../lower/index.js';
import { BROWSER_DESCRIPTION, PYTHON_DESCRIPTION, browserTools } from './builtins.js';
import { renderConversation, type ConversationOptions } from './conversation.js';
import { renderHarmonyDeveloperContent } from './developer.js';
import type { HarmonyMessage } from './envelope.js';
import { renderHarmonySystemContent } from './system.js';
import { pushAll } from '../ir/arrays.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Lower a serde namespace config `{name, description?, tools: [{name, description, parameters?}]}`. */
function namespaceOf(key: string, v: unknown, pointer: string, diagnostics: Diagnostic[]): HarmonyNamespace {
  const cfg = isObj(v) ? v : {};
  const tools: IrTool[] = (Array.isArray(cfg.tools) ? cfg.tools : []).map((t, i) => {
    const o = isObj(t) ? t : {};
    const p = `${pointer}/tools/${i}`;
    const r = lowerTool({
      name: str(o.name) ?? '',
      ...(o.description !== undefined ? { description: fromJs(o.description) } : {}),
      ...(o.parameters !== undefined ? { parameters: fromJs(o.parameters) } : {}),
      format: 'bare',
      pointer: p,
      parametersPointer: `${p}/parameters`,
    });
    pushAll(diagnostics, r.diagnostics);
    return r.tool;
  });
  const description = str(cfg.description);
  return { name: str(cfg.name) ?? key, ...(description !== undefined ? { description } : {}), tools };
}

/** Render a serde-form conversation as openai-harmony does. */
export function renderHarmonyConversationJson(conversation: unknown, options: ConversationOptions = {}): { text: string; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const msgs = isObj(conversation) && Array.isArray(conversation.messages) ? conversation.messages : undefined;
  if (!msgs) throw new CompileError([{ code: 'input/not-conversation', severity: 'error', path: '', message: 'a conversation is {"messages": [...]}' }]);
  // developer namespaces first: the system message's routing line depends on them
  const devNamespaces = new Map<number, HarmonyNamespace[]>();
  let functionTools = false;
  msgs.forEach((m, i) => {
    if (!isObj(m) || m.role !== 'developer' || !Array.isArray(m.content)) return;
    for (const [k, c] of m.content.entries()) {
      if (!isObj(c) || c.type !== 'developer_content' || !isObj(c.tools)) continue;
      const list = Object.entries(c.tools).map(([key, v]) => namespaceOf(key, v, `/messages/${i}/content/${k}/tools/${key}`, diagnostics));
      devNamespaces.set(i, list);
      if (list.some((n) => n.name === 'functions' && n.tools.length > 0)) functionTools = true;
    }
  });
  const out: HarmonyMessage[] = msgs.map((m, i): HarmonyMessage => {
    const o = isObj(m) ? m : {};
    const role = (str(o.role) ?? 'user') as HarmonyMessage['role'];
    const header = {
      role,
      ...(str(o.name) !== undefined ? { name: str(o.name) } : {}),
      ...(str(o.recipient) !== undefined ? { recipient: str(o.recipient) } : {}),
      ...(str(o.channel) !== undefined ? { channel: str(o.channel) } : {}),
      ...(str(o.content_type) !== undefined ? { contentType: str(o.content_type) } : {}),
    };
    const items = typeof o.content === 'string' ? [{ type: 'text', text: o.content }] : Array.isArray(o.content) ? o.content : [];
    const content = items
      .map((c: unknown): string => {
        if (!isObj(c)) return '';
        if (c.type === 'system_content') {
          const tools = isObj(c.tools) ? c.tools : {};
          const ns: HarmonyNamespace[] = [];
          if ('browser' in tools) ns.push({ name: 'browser', description: BROWSER_DESCRIPTION, tools: browserTools().map((t) => lowerTool(t).tool) });
          if ('python' in tools) ns.push({ name: 'python', description: PYTHON_DESCRIPTION, tools: [] });
          const cc = isObj(c.channel_config) ? c.channel_config : undefined;
          const effort = str(c.reasoning_effort);
          return renderHarmonySystemContent(
            {
              identity: str(c.model_identity) ?? null,
              cutoff: str(c.knowledge_cutoff) ?? null,
              ...(str(c.conversation_start_date) !== undefined ? { date: str(c.conversation_start_date) } : {}),
              ...(effort !== undefined ? { effort: effort.toLowerCase() as 'low' | 'medium' | 'high' } : {}),
              channels: cc && Array.isArray(cc.valid_channels) ? cc.valid_channels.map(String) : null,
              channelRequired: cc?.channel_required === true,
            },
            ns.length ? emitHarmonyToolsSection(ns) : undefined,
            functionTools,
          );
        }
        if (c.type === 'developer_content') {
          const ns = devNamespaces.get(i) ?? [];
          return renderHarmonyDeveloperContent(str(c.instructions), ns.length ? emitHarmonyToolsSection(ns) : undefined);
        }
        return str(c.text) ?? '';
      })
      .join('');
    return { ...header, content };
  });
  return { text: renderConversation(out, options), diagnostics };
}
