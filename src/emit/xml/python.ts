/**
 * The old path of the Python-semantics layer, which now lives in src/emit/python/. Kept only for
 * an importer outside the template emulations (src/parse/xml/vllm-qwen3-coder.ts); new code
 * imports from src/emit/python/.
 */

/** Python's `str()` of a value (see src/emit/python/values.ts). */
export { pyStr as pythonStr } from '../python/values.js';
