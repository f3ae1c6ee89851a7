/**
 * The old path of the Python-semantics layer, which now lives in src/emit/python/. Kept only for
 * importers outside the template emulations (src/lint/chat-template.ts,
 * test/chat-template/rules.test.ts); new code imports from src/emit/python/.
 */

/** transformers' `|tojson`: `json.dumps(x, ensure_ascii=False)` (see src/emit/python/json.ts). */
export { pyJsonDumps as pyToJson } from '../python/json.js';
/** `repr()` and `str()` of a Python value (see src/emit/python/values.ts). */
export { pyReprString, pyStr } from '../python/values.js';
