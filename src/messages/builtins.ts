/** The builtin namespaces openai-harmony writes in the system message: `browser` and `python`. */
import { parseJson } from '../ir/json.js';
import type { ToolDefinition } from '../input/types.js';

/** The browser namespace's description, as the reference writes it. */
export const BROWSER_DESCRIPTION = "Tool for browsing.\nThe `cursor` appears in brackets before each browsing display: `[{cursor}]`.\nCite information from the tool using the following format:\n`【{cursor}†L{line_start}(-L{line_end})?】`, for example: `【6†L9-L11】` or `【8†L3】`.\nDo not quote more than 10 words directly from the tool output.\nsources=web (default: web)";

/** The python namespace's description (a namespace with no tools: printed without `//`). */
export const PYTHON_DESCRIPTION = "Use this tool to execute Python code in your chain of thought. The code will not be shown to the user. This tool should be used for internal reasoning, but not for code that is intended to be visible to the user (e.g. when creating plots, tables, or files).\n\nWhen you send a message containing Python code to python, it will be executed in a stateful Jupyter notebook environment. python will respond with the output of the execution or time out after 120.0 seconds. The drive at '/mnt/data' can be used to save and persist user files. Internet access for this session is UNKNOWN. Depends on the cluster.";

// The browser tools' parameters, as the reference defines them.
const BROWSER_TOOLS: readonly { name: string; description: string; parameters: string }[] = [
  {
    name: 'search',
    description: 'Searches for information related to `query` and displays `topn` results.',
    parameters: '{"type":"object","properties":{"query":{"type":"string"},"topn":{"type":"number","default":10},"source":{"type":"string"}},"required":["query"]}',
  },
  {
    name: 'open',
    description: [
      'Opens the link `id` from the page indicated by `cursor` starting at line number `loc`, showing `num_lines` lines.',
      'Valid link ids are displayed with the formatting: `【{id}†.*】`.',
      'If `cursor` is not provided, the most recent page is implied.',
      'If `id` is a string, it is treated as a fully qualified URL associated with `source`.',
      'If `loc` is not provided, the viewport will be positioned at the beginning of the document or centered on the most relevant passage, if available.',
      'Use this function without `id` to scroll to a new location of an opened page.',
    ].join('\n'),
    parameters: '{"type":"object","properties":{"id":{"type":["number","string"],"default":-1},"cursor":{"type":"number","default":-1},"loc":{"type":"number","default":-1},"num_lines":{"type":"number","default":-1},"view_source":{"type":"boolean","default":false},"source":{"type":"string"}}}',
  },
  {
    name: 'find',
    description: 'Finds exact matches of `pattern` in the current page, or the page given by `cursor`.',
    parameters: '{"type":"object","properties":{"pattern":{"type":"string"},"cursor":{"type":"number","default":-1}},"required":["pattern"]}',
  },
];

/** The browser tools as tool definitions (for the system message's `browser` namespace). */
export function browserTools(): ToolDefinition[] {
  return BROWSER_TOOLS.map((t, i) => ({
    name: t.name,
    description: t.description,
    parameters: parseJson(t.parameters),
    format: 'bare',
    pointer: `/builtin/browser/${i}`,
    parametersPointer: `/builtin/browser/${i}/parameters`,
  }));
}
