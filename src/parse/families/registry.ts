/**
 * Every family syntax and every server parser, by name: what `--tool-parser NAME` and
 * `--model NAME` find.
 */
import * as apertus from './apertus.js';
import * as cohere from './cohere.js';
import * as deepseek from './deepseek.js';
import * as functionary from './functionary.js';
import * as gemma4 from './gemma4.js';
import * as glm from './glm.js';
import * as granite from './granite.js';
import * as granite4 from './granite4.js';
import * as hermes from './hermes.js';
import * as hunyuanA13b from './hunyuan-a13b.js';
import * as hyV3 from './hy-v3.js';
import * as kimiK2 from './kimi-k2.js';
import * as lfm2 from './lfm2.js';
import * as llama3Json from './llama3-json.js';
import * as minimaxM2 from './minimax-m2.js';
import * as mistral from './mistral.js';
import * as nemotron from './nemotron.js';
import * as olmo3 from './olmo3.js';
import * as phi4Mini from './phi4-mini.js';
import * as pythonic from './pythonic.js';
import * as qwen3Coder from './qwen3-coder.js';
import * as seedOss from './seed-oss.js';
import * as vllmEngine from './vllm-engine/index.js';
import type { FamilySyntax, ParseServer, ServerParserEntry } from './types.js';

const MODULES = [llama3Json, pythonic, mistral, deepseek, hermes, qwen3Coder, glm, kimiK2, minimaxM2, seedOss, granite4, granite, gemma4, phi4Mini, apertus, lfm2, olmo3, hunyuanA13b, hyV3, functionary, cohere, nemotron, vllmEngine];

/** Every family syntax, by name. */
export const SYNTAXES: ReadonlyMap<string, FamilySyntax> = new Map(MODULES.flatMap((m) => m.SYNTAXES.map((s) => [s.name, s] as const)));

/** Every server parser, keyed `server:name` (`vllm:llama3_json`, `sglang:qwen25`). */
export const SERVER_PARSERS: ReadonlyMap<string, ServerParserEntry> = new Map(MODULES.flatMap((m) => m.SERVER_PARSERS.map((p) => [`${p.server}:${p.name}`, p] as const)));

/** The server parser registered under this name, or undefined. */
export function serverParser(server: ParseServer, name: string): ServerParserEntry | undefined {
  return SERVER_PARSERS.get(`${server}:${name}`);
}
