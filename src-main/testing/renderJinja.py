"""Renders a chat template as Hugging Face transformers does, for the tests' reference (jinjaReference.ts).

Reads one JSON object on stdin:
  {"template": str, "variables": {...}, "contexts": [{...}, ...]}
and writes one JSON object on stdout:
  {"results": [{"text": str} | {"error": str}, ...]}, one result per context, in order.

Each context is a template's scope (messages, tools, add_generation_prompt, enable_thinking when set), rendered with
`variables` (the tokenizer's special tokens) beneath it, as transformers' apply_chat_template does:
`template_kwargs = {**self.special_tokens_map, **kwargs}` (src/transformers/tokenization_utils_base.py).

A number written by the model crosses as {"$writtenNumber": "5.0"} and becomes a Python float when its literal has a
fraction or an exponent, an int otherwise (WrittenNumber.isFloat in src-main/llm/writtenJson.ts): Python, and so the
text the model was trained on, keeps 5 and 5.0 apart, which JSON.parse cannot.

The environment is transformers' `_compile_jinja_template` (src/transformers/utils/chat_template_utils.py, read at
huggingface/transformers@5e43e2e892453b405ce6d2cb94387b3a3213f30a):

    jinja_env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols]
    )
    jinja_env.filters["tojson"] = tojson  # json.dumps(x, ensure_ascii=False, indent=, separators=, sort_keys=)
    jinja_env.globals["raise_exception"] = raise_exception
    jinja_env.globals["strftime_now"] = strftime_now

AssistantTracker only records where `{% generation %}` blocks fall (for assistant masks); here it renders its body
and records nothing, which is what transformers renders when no mask is asked for.
"""

import json
import sys
from datetime import datetime

import jinja2
import jinja2.ext
import jinja2.nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment


class AssistantTracker(jinja2.ext.Extension):
    """`{% generation %}...{% endgeneration %}` renders its body, as in transformers without an assistant mask."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    def _generation_support(self, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # transformers overrides Jinja's own tojson, which escapes HTML characters and sorts keys.
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def strftime_now(format):
    return datetime.now().strftime(format)


def compile_template(source):
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(source)


def written_number(obj):
    """json.loads object_hook: {"$writtenNumber": literal} is the number as the model wrote it."""
    if len(obj) == 1 and "$writtenNumber" in obj:
        literal = obj["$writtenNumber"]
        if any(c in literal for c in ".eE"):
            return float(literal)
        return int(literal)
    return obj


def main():
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"), object_hook=written_number)
    template = compile_template(request["template"])
    variables = request.get("variables", {})
    results = []
    for context in request["contexts"]:
        try:
            results.append({"text": template.render(**{**variables, **context})})
        except jinja2.exceptions.TemplateError as error:
            results.append({"error": f"{type(error).__name__}: {error}"})
    # ensure_ascii keeps stdout ASCII whatever the locale; the reader decodes the escapes back.
    sys.stdout.write(json.dumps({"results": results}, ensure_ascii=True))


if __name__ == "__main__":
    main()
