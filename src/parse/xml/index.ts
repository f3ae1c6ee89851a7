/**
 * Reading what a model wrote in an XML dialect: its tool calls and its text.
 *
 *   tools option → name + raw parameters schema per tool (tools.ts)
 *   server 'vllm' → vLLM's own parser at one commit, quirks included (vllm-hermes.ts, vllm-qwen3-coder.ts)
 *   default      → the dialect's format read call by call and decoded by the schema, every
 *                  coercion reported (hermes.ts, xml-calls.ts, decode.ts); then vLLM's results for
 *                  the same text (the version asked, else both shipped versions of the model's
 *                  parser) compared with it, every difference reported (compare.ts)
 *
 * Either way a call the output ended inside of (its closing tags never came) is returned marked
 * incomplete beside its object (completeness.ts; not in its JSON) with a `parse/incomplete-call`
 * error: checkToolCalls never finds it runnable.
 */
import { randomUUID } from 'node:crypto';
import type { Diagnostic } from '../../diagnostics.js';
import { copyCompleteness, incompleteReason } from '../completeness.js';
import { vllmDifferences } from './compare.js';
import { assembleReading, incompleteCall, withStrayCloses, type DialectParse } from './draft.js';
import { parseJsonCalls } from './hermes.js';
import { readParseTools, type ParseTool } from './tools.js';
import { XML_PARSE_MODELS, type XmlParseOptions, type XmlParseResult, type XmlToolCall } from './types.js';
import { vllmHermes } from './vllm-hermes.js';
import { vllmQwen3Coder } from './vllm-qwen3-coder.js';
import { NEWEST_VLLM_VERSION, VLLM_PARSER_VERSIONS, type VllmExtraction, type VllmParserVersion } from './vllm-types.js';
import { ANTHROPIC_SYNTAX, QWEN3_CODER_SYNTAX, parseXmlCalls } from './xml-calls.js';
import { pushAll } from '../../ir/arrays.js';

/** The options, result and codes of parseToolCalls. */
export { XML_PARSE_CODES, XML_PARSE_MODELS, type XmlParseModel, type XmlParseOptions, type XmlParseResult, type XmlToolCall } from './types.js';
/** The vLLM parser versions emulated and what they return. */
export { NEWEST_VLLM_VERSION, VLLM_PARSER_VERSIONS, type VllmExtraction, type VllmParserVersion, type VllmToolCall } from './vllm-types.js';

/** Run vLLM's parser of this version on the text. */
export function vllmExtractToolCalls(text: string, version: VllmParserVersion, tools?: readonly ParseTool[]): VllmExtraction {
  switch (version) {
    case 'hermes@02bb669b':
      return vllmHermes(text, false);
    case 'hermes@becf329d':
      return vllmHermes(text, true);
    case 'qwen3_coder@0b13f933':
      return vllmQwen3Coder(text, tools, '0b13f933');
    case 'qwen3_coder@00d0a333':
      return vllmQwen3Coder(text, tools, '00d0a333');
  }
}

/** vLLM's id for a tool call: `chatcmpl-tool-` and a random UUID's 32 hex digits. */
function toolCallId(): string {
  return `chatcmpl-tool-${randomUUID().replaceAll('-', '')}`;
}

function withIds(calls: readonly XmlToolCall[], ids: boolean | undefined): XmlToolCall[] {
  return calls.map((c) => copyCompleteness(c, ids ? { id: toolCallId(), type: 'function', function: c.function } : { type: 'function', function: c.function }));
}

function parserFamily(model: string): 'hermes' | 'qwen3_coder' | undefined {
  return model === 'qwen3-coder' ? 'qwen3_coder' : model === 'hermes' || model === 'qwen' ? 'hermes' : undefined;
}

/**
 * Read the tool calls of one model output. With `server: 'vllm'`, exactly what vLLM's parser
 * returns (`tools_called` false gives no calls; where vLLM raised, the whole output is the
 * content and a diagnostic names the exception). Without it, each call read on its own and
 * decoded by the tools' schemas; every coercion, every dropped call and every place where vLLM
 * would return something else is a diagnostic.
 */
export function parseToolCalls(text: string, options: XmlParseOptions): XmlParseResult {
  const diagnostics: Diagnostic[] = [];
  const model = options.model as string;
  if (!(XML_PARSE_MODELS as readonly string[]).includes(model)) {
    return { content: text === '' ? null : text, tool_calls: [], diagnostics: [{ code: 'parse/bad-option', severity: 'error', path: '/model', message: `unknown model ${JSON.stringify(model)}: one of ${XML_PARSE_MODELS.join(', ')}` }] };
  }
  const read = readParseTools(options.tools);
  pushAll(diagnostics, read.diagnostics);
  const tools = read.tools;
  const family = parserFamily(model);
  let version: VllmParserVersion | undefined = family ? NEWEST_VLLM_VERSION[family] : undefined;
  if (options.version !== undefined) {
    if ((VLLM_PARSER_VERSIONS as readonly string[]).includes(options.version)) {
      version = options.version;
      if (!family || !version.startsWith(`${family}@`)) {
        diagnostics.push({ code: 'parse/parser-mismatch', severity: 'warning', path: '/version', message: `${version} is vLLM's parser for ${version.startsWith('hermes') ? 'the hermes/qwen JSON format' : 'the qwen3-coder XML format'}, not for ${model} output: this is what a server configured with it returns` });
      }
    } else {
      diagnostics.push({ code: 'parse/bad-option', severity: 'error', path: '/version', message: `unknown vLLM parser version ${JSON.stringify(options.version)}: one of ${VLLM_PARSER_VERSIONS.join(', ')}${version ? `; ${version} is used` : ''}` });
    }
  }
  const server = options.server as string | undefined;
  if (server !== undefined && server !== 'vllm') {
    diagnostics.push({ code: 'parse/bad-option', severity: 'error', path: '/server', message: `unknown server ${JSON.stringify(server)}: "vllm", or no server for the correct reading` });
  }

  if (server === 'vllm') {
    if (version !== undefined) {
      const x = vllmExtractToolCalls(text, version, tools);
      if (x.exception !== undefined) diagnostics.push({ code: 'parse/vllm-exception', severity: 'warning', path: '', message: `vLLM (${version}) raises ${x.exception}: it returns no tool calls and the whole output as content` });
      const returned = withIds(x.tools_called ? x.tool_calls : [], options.ids);
      returned.forEach((c, i) => {
        const why = incompleteReason(c);
        if (why !== undefined) diagnostics.push(incompleteCall(i, c.function.name, why, `vLLM (${version})`));
      });
      return { content: x.content, tool_calls: returned, diagnostics };
    }
    diagnostics.push({ code: 'parse/no-vllm-parser', severity: 'error', path: '/server', message: `vLLM has no tool parser for ${model} output: the default reading is returned` });
  }

  const parse: DialectParse = model === 'qwen3-coder' ? parseXmlCalls(text, tools, QWEN3_CODER_SYNTAX) : model === 'anthropic' ? parseXmlCalls(text, tools, ANTHROPIC_SYNTAX) : parseJsonCalls(text, tools);
  // a block's closing tag right after a call, with no block open, is no text of the answer
  const S = model === 'anthropic' ? ANTHROPIC_SYNTAX : QWEN3_CODER_SYNTAX;
  const reading = assembleReading(text, withStrayCloses(text, parse, S.wrapperClose, S.wrapperOpen));
  const { content, calls } = reading;
  pushAll(diagnostics, reading.diagnostics);
  if (tools === undefined && model !== 'hermes' && model !== 'qwen' && parse.calls.some((c) => c.args.size > 0)) {
    diagnostics.push({ code: 'parse/no-tools', severity: 'info', path: '/tools', message: 'no tools were given: every parameter value is kept as text' });
  }
  // compared with the version asked, else with both shipped versions of the model's parser (newest first)
  const compared = options.version !== undefined && version !== undefined ? [version] : VLLM_PARSER_VERSIONS.filter((v) => family !== undefined && v.startsWith(`${family}@`));
  const results = compared.map((v) => [v, vllmExtractToolCalls(text, v, tools)] as const);
  pushAll(diagnostics, vllmDifferences(text, { content, calls: calls.map((c) => c.function) }, results));
  return { content, tool_calls: withIds(calls, options.ids), diagnostics };
}
