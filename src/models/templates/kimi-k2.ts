/** Kimi K2 Instruct chat template of July 2025 (tokenizer_config.json of moonshotai/Kimi-K2-Instruct), CRLF line endings kept. */
// Written by scripts/import-template.mjs: the text is the source's bytes, checked by source.blob. Do not edit by hand.
import type { OfficialTemplate } from '../types.js';

export const TEMPLATE: OfficialTemplate = {
  text: "{%- if tools -%}\r\n  <|im_system|>tool_declare<|im_middle|>{{ tools | tojson }}<|im_end|>\r\n{%- endif -%}\r\n{%- for message in messages -%}\r\n  {%- if loop.first and messages[0]['role'] != 'system' -%}\r\n    <|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|>\r\n  {%- endif -%}\r\n  {%- if message['role'] == 'system' -%}\r\n    <|im_system|>system<|im_middle|>\r\n  {%- elif message['role'] == 'user' -%}\r\n    <|im_user|>user<|im_middle|>\r\n  {%- elif message['role'] == 'assistant' -%}\r\n    <|im_assistant|>assistant<|im_middle|>\r\n  {%- elif message['role'] == 'tool' -%}\r\n    <|im_system|>tool<|im_middle|>\r\n  {%- endif -%}\r\n  {%- if message['role'] == 'assistant' and message.get('tool_calls') -%}\r\n    {%- if message['content'] -%}{{ message['content'] }}{%- endif -%}\r\n    <|tool_calls_section_begin|>\r\n    {%- for tool_call in message['tool_calls'] -%}\r\n      {%- set func_name = tool_call['function']['name'] -%}\r\n      {%- set formatted_id = 'functions.' + func_name + ':' + loop.index0|string -%}\r\n      <|tool_call_begin|>{{ formatted_id }}<|tool_call_argument_begin|>{{ tool_call['function']['arguments'] | tojson}}<|tool_call_end|>\r\n    {%- endfor -%}\r\n    <|tool_calls_section_end|>\r\n  {%- elif message['role'] == 'tool' -%}\r\n    ## Return of {{ message.tool_call_id }}\\n{{ message['content'] }}\r\n  {%- elif message['content'] is string -%}\r\n    {{ message['content'] }}\r\n  {%- elif message['content'] is not none -%}\r\n    {% for content in message['content'] -%}\r\n      {% if content['type'] == 'image' or 'image' in content or 'image_url' in content -%}\r\n        <|media_start|>image<|media_content|><|media_pad|><|media_end|>\r\n      {% else -%}\r\n        {{ content['text'] }}\r\n      {%- endif -%}\r\n    {%- endfor -%}\r\n  {%- endif -%}\r\n  <|im_end|>\r\n{%- endfor -%}\r\n{%- if add_generation_prompt -%}\r\n  <|im_assistant|>assistant<|im_middle|>\r\n{%- endif -%}\r\n",
  source: {
    repo: "ggml-org/llama.cpp",
    path: "models/templates/moonshotai-Kimi-K2.jinja",
    commit: "4a4f426944e79b79e389f9ed7b34831cb9b637ad",
    blob: "ecb49a210852c024b89f03b4949708841ecb7f60",
    licence: "Modified MIT License",
    model: "moonshotai/Kimi-K2-Instruct",
    note: "PR ggml-org/llama.cpp#14654 (2025-07-15), the July 2025 template, CRLF line endings as in the source; later llama.cpp versions were edited. Read from the ye-NX/llama.cpp fork snapshot, which carries upstream history. Licence seen on the Kimi K2 model cards (license_name: modified-mit).",
  },
};
