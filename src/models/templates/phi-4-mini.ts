/** Microsoft Phi-4-mini-instruct chat template (the chat_template of its tokenizer_config.json). */
// Written by scripts/import-template.mjs: the text is the source's bytes, checked by source.blob. Do not edit by hand.
import type { OfficialTemplate } from '../types.js';

export const TEMPLATE: OfficialTemplate = {
  text: "{% for message in messages %}{% if message['role'] == 'system' and 'tools' in message and message['tools'] is not none %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|tool|>' + message['tools'] + '<|/tool|>' + '<|end|>' }}{% else %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|end|>' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>' }}{% else %}{{ eos_token }}{% endif %}",
  source: {
    repo: "ShishirPatil/gorilla",
    path: "berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/phi.py",
    commit: "d858a2a934f8e692b1bd425f08bfc8e41017f2cd",
    blob: "a9c00dd9bbd97e117371168e9d62af65b9f0e725",
    licence: "MIT",
    model: "microsoft/Phi-4-mini-instruct",
    note: "The chat_template value of microsoft/Phi-4-mini-instruct tokenizer_config.json, quoted verbatim as a JSON string in a docstring of that file (the decoded value, not the file: blob is the id of the value). One line, no trailing newline. llama.cpp has no official copy (its llama-cpp-microsoft-Phi-4-mini-instruct.jinja is its own).",
  },
};
