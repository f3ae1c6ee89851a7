#!/usr/bin/env python3
"""Regenerate the expected outputs of test/cases/xml with the shared oracle's render.py.

    python3 test/cases/xml/generate.py [SHARED_DIR]     (default ../shared)

Each case in cases.jsonl is rendered through render.py's own Jinja environment
(compile_template, SPECIAL_TOKENS) exactly as render.py renders a case, with two additions
render.py's CLI has no flags for: a case's "messages" (default one user "hi") and
"add_generation_prompt" (default true). "instructions", when a non-empty string, is a system
message placed first, as render.py does. Writes CASE.DIALECT.txt (the prompt) or
CASE.DIALECT.error.txt ("ExceptionType: message"). The anthropic files are not generated:
no template exists; they were written and checked by hand.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "..", "shared")
XML = os.path.join(SHARED, "oracles", "xml")

spec = importlib.util.spec_from_file_location("render", os.path.join(XML, "render.py"))
render = importlib.util.module_from_spec(spec)
spec.loader.exec_module(render)

DIALECTS = {
    "qwen": "Qwen-Qwen2.5-7B-Instruct",
    "qwen3-coder": "Qwen3-Coder",
    "hermes": "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use",
}


def messages_of(case):
    msgs = list(case.get("messages") or [{"role": "user", "content": "hi"}])
    instr = case.get("instructions")
    if isinstance(instr, str) and instr != "":
        msgs.insert(0, {"role": "system", "content": instr})
    return msgs


def main():
    with open(os.path.join(HERE, "cases.jsonl"), encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    for dialect, name in DIALECTS.items():
        with open(os.path.join(XML, "templates", name + ".jinja"), encoding="utf-8") as f:
            template = render.compile_template(f.read())
        special = dict(render.SPECIAL_TOKENS.get(name, {}))
        for case in cases:
            base = os.path.join(HERE, f"{case['id']}.{dialect}")
            for stale in (base + ".txt", base + ".error.txt"):
                if os.path.exists(stale):
                    os.remove(stale)
            tools = [{"type": "function", "function": t} for t in case["tools"]]
            try:
                out = template.render(
                    messages=messages_of(case),
                    tools=tools or None,
                    documents=None,
                    add_generation_prompt=case.get("add_generation_prompt", True),
                    **special,
                )
                path, text = base + ".txt", out
            except Exception as e:  # TemplateError, UndefinedError, TypeError, RecursionError
                path, text = base + ".error.txt", f"{type(e).__name__}: {e}\n"
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    print(f"{len(cases)} cases x {len(DIALECTS)} dialects", file=sys.stderr)


if __name__ == "__main__":
    main()
