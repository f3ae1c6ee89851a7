/**
 * The builtin tool sections of Ollama's gpt-oss template: written into the system message when
 * the request has function tools named `browser.search`, `browser.open`, `browser.find` or
 * `python` (the template's own text; the tools' descriptions and parameters are not read).
 */

const BROWSER_HEAD = [
  '## browser',
  '',
  '// Tool for browsing.',
  '// The cursor appears in brackets before each browsing display, like [cursor].',
  '// Cite information from the tool using the line-citation format shown by the browser output.',
  '// Do not quote more than 10 words directly from the tool output.',
  '// sources=web (default: web)',
  'namespace browser {',
].join('\n');

const BROWSER_SEARCH = [
  '// Searches for information related to query and displays topn results.',
  'type search = (_: {',
  'query: string,',
  'topn?: number, // default: 10',
  'source?: string,',
  '}) => any;',
].join('\n');

const BROWSER_OPEN = [
  '// Opens the link id from the page indicated by cursor starting at line number loc, showing num_lines lines.',
  '// If cursor is not provided, the most recent page is implied.',
  '// If id is a string, it is treated as a fully qualified URL associated with source.',
  '// If loc is not provided, the viewport will be positioned at the beginning of the document or centered on the most relevant passage, if available.',
  '// Use this function without id to scroll to a new location of an opened page.',
  'type open = (_: {',
  'id?: number | string, // default: -1',
  'cursor?: number, // default: -1',
  'loc?: number, // default: -1',
  'num_lines?: number, // default: -1',
  'view_source?: boolean, // default: false',
  'source?: string,',
  '}) => any;',
].join('\n');

const BROWSER_FIND = [
  '// Finds exact matches of pattern in the current page, or the page given by cursor.',
  'type find = (_: {',
  'pattern: string,',
  'cursor?: number, // default: -1',
  '}) => any;',
].join('\n');

const PYTHON = [
  '## python',
  '',
  'Use this tool to execute Python code in your chain of thought. The code will not be shown to the user. This tool should be used for internal reasoning, but not for code that is intended to be visible to the user (e.g. when creating plots, tables, or files).',
  '',
  "When you send a message containing Python code to python, it will be executed in a stateful Jupyter notebook environment. python will respond with the output of the execution or time out after 120.0 seconds. The drive at '/mnt/data' can be used to save and persist user files. Internet access for this session is UNKNOWN. Depends on the cluster.",
].join('\n');

/**
 * The system message's `⏎⏎# Tools` part for the builtin tools among these names (prompt
 * names): the browser namespace with one type per browser tool present, then the python
 * section; `''` when there is none. Starts with its own blank line, as the template writes it.
 */
export function emitOllamaBuiltinSections(names: readonly string[]): string {
  const search = names.includes('browser.search');
  const open = names.includes('browser.open');
  const find = names.includes('browser.find');
  const python = names.includes('python');
  if (!search && !open && !find && !python) return '';
  let out = '\n\n# Tools';
  if (search || open || find) {
    out += `\n\n${BROWSER_HEAD}`;
    if (search) out += `\n\n${BROWSER_SEARCH}`;
    if (open) out += `\n\n${BROWSER_OPEN}`;
    if (find) out += `\n\n${BROWSER_FIND}`;
    out += '\n\n} // namespace browser';
  }
  if (python) out += `\n\n${PYTHON}`;
  return out;
}
