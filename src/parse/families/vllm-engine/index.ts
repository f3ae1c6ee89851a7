/**
 * vLLM's parser engine (`vllm/parser/engine/`) and the tool parsers built on it, at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293: one engine (./engine.ts) and a grammar per model.
 *
 * | `--tool-call-parser` | file | grammar |
 * |---|---|---|
 * | `qwen3_coder` | `vllm/tool_parsers/qwen3_engine_tool_parser.py` | ./qwen3.ts `QWEN3_GRAMMAR` |
 * | `seed_oss` | `vllm/tool_parsers/seed_oss_engine_tool_parser.py` | ./qwen3.ts `SEED_OSS_GRAMMAR` |
 * | `gemma4` | `vllm/tool_parsers/gemma4_engine_tool_parser.py` | ./gemma4.ts |
 * | `glm45`, `glm47` | `vllm/tool_parsers/glm47_moe_tool_parser.py` | ./glm47.ts |
 * | `kimi_k2` | `vllm/tool_parsers/kimi_k2_tool_parser.py` | ./kimi-k2.ts |
 * | `minimax_m2` | `vllm/tool_parsers/minimax_m2_tool_parser.py` | ./minimax-m2.ts |
 *
 * The strict readings of these families are in the family modules (`SYNTAXES` is empty here).
 */
import { VLLM_COMMIT, type FamilySyntax, type ServerParserEntry } from '../types.js';
import { runEngine, type EngineGrammar } from './engine.js';
import { GEMMA4_GRAMMAR } from './gemma4.js';
import { GLM47_GRAMMAR } from './glm47.js';
import { KIMI_K2_GRAMMAR } from './kimi-k2.js';
import { MINIMAX_M2_GRAMMAR } from './minimax-m2.js';
import { QWEN3_GRAMMAR, SEED_OSS_GRAMMAR } from './qwen3.js';

export { runEngine } from './engine.js';
export type { EngineGrammar } from './engine.js';

export const SYNTAXES: readonly FamilySyntax[] = [];

function entry(name: string, file: string, grammar: EngineGrammar): ServerParserEntry {
  return { server: 'vllm', name, file: `vllm/tool_parsers/${file}`, commit: VLLM_COMMIT, parse: (text, tools) => runEngine(grammar, text, tools) };
}

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  entry('qwen3_coder', 'qwen3_engine_tool_parser.py', QWEN3_GRAMMAR),
  entry('seed_oss', 'seed_oss_engine_tool_parser.py', SEED_OSS_GRAMMAR),
  entry('gemma4', 'gemma4_engine_tool_parser.py', GEMMA4_GRAMMAR),
  entry('glm45', 'glm47_moe_tool_parser.py', GLM47_GRAMMAR),
  entry('glm47', 'glm47_moe_tool_parser.py', GLM47_GRAMMAR),
  entry('kimi_k2', 'kimi_k2_tool_parser.py', KIMI_K2_GRAMMAR),
  entry('minimax_m2', 'minimax_m2_tool_parser.py', MINIMAX_M2_GRAMMAR),
];
