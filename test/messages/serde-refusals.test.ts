/**
 * renderHarmonyConversationJson (openai-harmony's serde form): what openai-harmony refuses is
 * refused with its words, and the system message's tools print every namespace as given.
 *
 * openai_harmony (Python) is not installed here and its crate cannot be built offline: the
 * expected words were read from openai/harmony's source (src/chat.rs types read by serde,
 * src/encoding.rs `Render<Message>`, `template_tools_section`) and serde 1.0.219 / serde_json
 * 1.0.140 (the versions of its Cargo.lock), and the expected bytes derived by hand from
 * spec/harmony-format.md §2 and §4 and test-data/test_browser_tool_only.txt's layout.
 */
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { renderHarmonyConversationJson } from '../../src/messages/serde.js';

const PREFIX = 'openai-harmony refuses this conversation: ';

function refusal(conversation: unknown): Diagnostic {
  try {
    renderHarmonyConversationJson(conversation);
  } catch (e) {
    expect(e).toBeInstanceOf(CompileError);
    const ds = (e as CompileError).diagnostics;
    expect(ds).toHaveLength(1);
    expect(ds[0]!.code).toBe('conversation/refused');
    expect(ds[0]!.severity).toBe('error');
    return ds[0]!;
  }
  throw new Error('not refused');
}

const system = (extra: Record<string, unknown>) => ({
  role: 'system',
  content: [
    {
      type: 'system_content',
      model_identity: 'You are ChatGPT, a large language model trained by OpenAI.',
      reasoning_effort: 'Medium',
      knowledge_cutoff: '2024-06',
      conversation_start_date: '2025-06-28',
      channel_config: { valid_channels: ['analysis', 'commentary', 'final'], channel_required: true },
      ...extra,
    },
  ],
});
const HEAD = '<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-06-28\n\nReasoning: medium\n\n';
const CHANNELS = '# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>';

describe('renderHarmonyConversationJson refuses what openai-harmony refuses', () => {
  it('a made-up role: serde\'s unknown variant of Role', () => {
    const d = refusal({ messages: [{ role: 'user', content: 'hi' }, { role: 'bogus', content: 'hi' }] });
    expect(d.path).toBe('/messages/1/role');
    expect(d.message).toBe(`${PREFIX}unknown variant \`bogus\`, expected one of \`user\`, \`assistant\`, \`system\`, \`developer\`, \`tool\``);
  });

  it('a missing role, a role of another JSON type', () => {
    expect(refusal({ messages: [{ content: 'hi' }] })).toMatchObject({ path: '/messages/0', message: `${PREFIX}missing field \`role\`` });
    expect(refusal({ messages: [{ role: 5, content: 'hi' }] })).toMatchObject({ path: '/messages/0/role', message: `${PREFIX}invalid type: integer \`5\`, expected string or map` });
    expect(refusal({ messages: [{ role: null, content: 'hi' }] }).message).toBe(`${PREFIX}invalid type: null, expected string or map`);
  });

  it('a tool message with no name: "Tools should have a name!"', () => {
    const d = refusal({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: '{"ok":true}' }] });
    expect(d.path).toBe('/messages/1');
    expect(d.message).toBe(`${PREFIX}Tools should have a name!`);
    expect(refusal({ messages: [{ role: 'tool', name: null, content: 'x' }] }).message).toBe(`${PREFIX}Tools should have a name!`);
  });

  it('system content in a user message, developer content in a system message', () => {
    const d = refusal({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'system_content', model_identity: 'x' }] }] });
    expect(d.path).toBe('/messages/0/content/1');
    expect(d.message).toBe(`${PREFIX}SystemContent may only appear in system messages, found in User`);
    const e = refusal({ messages: [{ role: 'system', content: [{ type: 'developer_content', instructions: 'x' }] }] });
    expect(e.path).toBe('/messages/0/content/0');
    expect(e.message).toBe(`${PREFIX}DeveloperContent may only appear in developer messages, found in System`);
  });

  it('reading comes before rendering: a bad role in a later message wins over an earlier nameless tool', () => {
    const d = refusal({ messages: [{ role: 'tool', content: 'x' }, { role: 'bogus', content: 'y' }] });
    expect(d.path).toBe('/messages/1/role');
  });

  it('content items: an unknown type, a missing type, a text without text', () => {
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'image', url: 'x' }] }] })).toMatchObject({
      path: '/messages/0/content/0/type',
      message: `${PREFIX}unknown variant \`image\`, expected one of \`text\`, \`system_content\`, \`developer_content\``,
    });
    expect(refusal({ messages: [{ role: 'user', content: [{ text: 'x' }] }] }).message).toBe(`${PREFIX}missing field \`type\``);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'text' }] }] }).message).toBe(`${PREFIX}missing field \`text\``);
    expect(refusal({ messages: [{ role: 'user' }] }).message).toBe(`${PREFIX}missing field \`content\``);
  });

  it('a namespace without its required fields', () => {
    const d = refusal({ messages: [system({ tools: { browser: { name: 'browser' } } })] });
    expect(d.path).toBe('/messages/0/content/0/tools/browser');
    expect(d.message).toBe(`${PREFIX}missing field \`tools\``);
    const e = refusal({ messages: [system({ tools: { browser: { name: 'browser', tools: [{ name: 'search' }] } } })] });
    expect(e.path).toBe('/messages/0/content/0/tools/browser/tools/0');
    expect(e.message).toBe(`${PREFIX}missing field \`description\``);
  });
});

describe('renderHarmonyConversationJson prints system_content.tools as given', () => {
  it('a browser namespace with its own description and tool, not the built-in browser text', () => {
    const tools = {
      browser: {
        name: 'browser',
        description: 'My browser.',
        tools: [{ name: 'search', description: 'Search.', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
      },
    };
    const { text } = renderHarmonyConversationJson({ messages: [system({ tools })] });
    expect(text).toBe(
      HEAD +
        '# Tools\n\n## browser\n\n// My browser.\nnamespace browser {\n\n// Search.\ntype search = (_: {\nq?: string,\n}) => any;\n\n} // namespace browser\n\n' +
        CHANNELS,
    );
    expect(text).not.toContain('Tool for browsing.');
  });

  it('every namespace, in key order (a BTreeMap), each with its own name; no tools: the description uncommented', () => {
    const tools = {
      z: { name: 'alpha', description: 'Printed second.', tools: [] },
      python: { name: 'python', description: 'Run it.\nTwo lines.', tools: [] },
      a: { name: 'weather', tools: [{ name: 'now', description: 'Now.' }] },
    };
    const { text } = renderHarmonyConversationJson({ messages: [system({ tools })] });
    expect(text).toBe(
      HEAD +
        '# Tools\n\n' +
        '## weather\n\nnamespace weather {\n\n// Now.\ntype now = () => any;\n\n} // namespace weather\n\n' +
        '## python\n\nRun it.\nTwo lines.\n\n' +
        '## alpha\n\nPrinted second.\n\n' +
        CHANNELS,
    );
  });

  it('an empty tools map prints no tools section', () => {
    expect(renderHarmonyConversationJson({ messages: [system({ tools: {} })] }).text).toBe(HEAD + CHANNELS);
  });
});
