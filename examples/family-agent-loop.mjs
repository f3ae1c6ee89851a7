// An agent loop with a model other than gpt-oss, both ways: Qwen3 here (change MODEL to any family
// `harmony-catalog models` lists: llama-3.1, mistral-nemo, glm-4.6, kimi-k2, deepseek-v3.1…, with
// completions in that family's syntax). render (Qwen3's own chat template, as vLLM hands it the
// request) → the model's text → parse its tool calls and reasoning → check each call against the
// tools → run it → render the next turn. The "model" replays three completions written in Qwen3's
// output syntax; put your server's raw completion text in their place.
//   node examples/family-agent-loop.mjs          (after npm ci, which builds dist/)
import { readFileSync } from 'node:fs';
import { checkToolCalls, compileTools, parseToolCalls, renderPrompt, toChatCompletion } from 'harmony-catalog';

const MODEL = 'qwen3';
const tools = compileTools(readFileSync(new URL('weather.json', import.meta.url), 'utf8'));

// What our tools do.
const run = {
  get_location: () => ({ city: 'Lisbon, Portugal' }),
  get_current_weather: ({ location }) => ({ location, temperature: 17, conditions: 'light rain' }),
};
// The "model": one completion per turn, as Qwen3 writes them.
const completions = [
  '<think>\nI need the user\'s location first.\n</think>\n\n<tool_call>\n{"name": "get_location", "arguments": {}}\n</tool_call>',
  '<think>\nNow the weather in Lisbon.\n</think>\n\n<tool_call>\n{"name": "get_current_weather", "arguments": {"location": "Lisbon, Portugal", "format": "celsius"}}\n</tool_call>',
  '<think>\nLight rain: an umbrella helps.\n</think>\n\nYes. It is raining lightly in Lisbon today (17 °C), so take an umbrella.',
];

const messages = [{ role: 'user', content: 'Do I need an umbrella today?' }];
for (let turn = 0; turn < completions.length; turn++) {
  const prompt = renderPrompt({ model: MODEL, tools, messages, server: 'vllm' }); // what vLLM hands Qwen3's template
  console.log(`--- turn ${turn + 1}: the prompt ends with\n${prompt.text.slice(-200)}\n`);

  const reading = parseToolCalls(completions[turn], { model: MODEL, tools }); // its calls and reasoning, read strictly
  for (const d of reading.diagnostics) console.log(`${d.severity} [${d.code}] ${d.path}: ${d.message}`);
  const { message } = toChatCompletion(reading, { id: () => `call_${turn}` }); // the response a server returns
  console.log(`reasoning: ${message.reasoning?.trim()}`);
  if (!message.tool_calls?.length) {
    console.log(`answer: ${message.content}`);
    break;
  }
  const checked = await checkToolCalls(message.tool_calls, tools);
  for (const d of checked.diagnostics) console.log(`${d.severity} [${d.code}] ${d.path}: ${d.message}`);
  messages.push({ role: 'assistant', content: message.content ?? '', reasoning_content: message.reasoning, tool_calls: message.tool_calls });
  for (const [i, call] of checked.calls.entries()) {
    if (!call.runnable) throw new Error(`the model's call ${call.name} cannot be run`);
    const result = run[call.name](call.value);
    console.log(`call: ${call.name}(${call.arguments}) → ${JSON.stringify(result)}`);
    messages.push({ role: 'tool', tool_call_id: message.tool_calls[i].id, content: JSON.stringify(result) });
  }
}
