// A tiny real MCP server over stdio (official SDK) whose tools/list answers in 3 pages, for test/mcp/client.test.ts.
// MCP_PAGED_MODE=error: tools/list answers with a JSON-RPC error instead.
// MCP_PAGED_PID_FILE=path: write this process's pid there (so a test can check it is gone afterwards).
import { writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

if (process.env.MCP_PAGED_PID_FILE) writeFileSync(process.env.MCP_PAGED_PID_FILE, String(process.pid));

const tool = (name, extra = {}) => ({
  name,
  description: `Tool ${name}.`,
  inputSchema: { type: 'object', properties: { x: { type: 'string' } }, ...extra },
});

const PAGES = {
  '': { tools: [tool('alpha'), tool('beta')], nextCursor: 'page-2' },
  'page-2': {
    tools: [
      tool('gamma'),
      // key order as sent (properties before type); must come back unchanged
      { name: 'delta', inputSchema: { properties: { n: { type: 'number', default: 1.5 } }, required: ['n'], type: 'object' } },
    ],
    nextCursor: 'page-3',
  },
  'page-3': { tools: [tool('epsilon')] },
};

const server = new Server({ name: 'paged-test-server', version: '1.2.3' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (process.env.MCP_PAGED_MODE === 'error') throw new McpError(ErrorCode.InternalError, 'tools are unavailable today');
  const page = PAGES[request.params?.cursor ?? ''];
  if (!page) throw new McpError(ErrorCode.InvalidParams, `unknown cursor ${request.params?.cursor}`);
  return page;
});
await server.connect(new StdioServerTransport());
