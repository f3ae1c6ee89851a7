// An agent loop with gpt-oss, both ways: render → the model's text → parse → the call checked → its
// result → render again. The "model" here replays two completions written in gpt-oss's output
// format (examples/completion-*.txt); put your server's raw
// completion (detokenized with special tokens, or the token ids) in their place.
//   node examples/agent-loop.mjs          (after npm ci, which builds dist/)
import { readFileSync } from 'node:fs';
import { checkToolCalls, compileTools, parseHarmony, renderPrompt, toChatCompletion } from 'harmony-catalog';

const here = new URL('.', import.meta.url);
const read = (f) => readFileSync(new URL(f, here), 'utf8');
const tools = compileTools(read('weather.json')); // read and lowered once, reused every turn

// What our tools do.
const run = {
  get_location: () => ({ city: 'Lisbon, Portugal' }),
  get_current_weather: ({ location }) => ({ location, temperature: 17, conditions: 'light rain' }),
};
// The "model": one completion per turn.
const completions = [read('completion-call.txt'), read('completion-call-2.txt'), read('completion-final.txt')];

const messages = [{ role: 'user', content: 'Do I need an umbrella today?' }];
for (let turn = 0; turn < completions.length; turn++) {
  const prompt = renderPrompt({ tools, messages, server: 'vllm', date: '2025-08-05' }); // what vLLM sends
  console.log(`--- turn ${turn + 1}: the prompt ends with\n${prompt.text.slice(-160)}\n`);

  const parsed = parseHarmony(completions[turn]); // what openai-harmony reads
  const response = toChatCompletion(parsed, { tools, id: () => `call_${turn}` }); // what vLLM returns
  const { message } = response;
  console.log(`reasoning: ${message.reasoning}`);
  if (!message.tool_calls?.length) {
    console.log(`answer: ${message.content}`);
    break;
  }
  const checked = await checkToolCalls(message.tool_calls, tools);
  for (const d of checked.diagnostics) console.log(`${d.severity} [${d.code}] ${d.path}: ${d.message}`);
  messages.push({ role: 'assistant', content: message.content, reasoning: message.reasoning, tool_calls: message.tool_calls });
  for (const [i, call] of checked.calls.entries()) {
    if (!call.runnable) throw new Error(`the model's call ${call.name} cannot be run`);
    const result = run[call.name](call.value);
    console.log(`call: ${call.name}(${call.arguments}) → ${JSON.stringify(result)}`);
    messages.push({ role: 'tool', tool_call_id: message.tool_calls[i].id, content: JSON.stringify(result) });
  }
}
