"""BFCL's own verdicts on model outputs, for Homebody's agreement test (src-main/eval/bfclAgreement.int.test.ts).

Reads JSON lines on stdin, one case each:
  {"id": str, "category": "simple_python" | "multiple" | "parallel" | "parallel_multiple" | ...,
   "functions": [function docs], "output": "<JSON text>", "answer": "<JSON text>"}
where `output` is the model's calls as a model writes them, BFCL's decoded form `[{"name": {"arg": value}}]`,
and `answer` is the case's ground_truth as the possible_answer file writes it. Both are JSON TEXT, read here with
json.loads, so `5` stays an int and `5.0` a float, as they are for BFCL.

Prints one JSON line per case, in order: {"id", "valid"} and, when not valid, "error_type" and "error" (the start
of BFCL's messages as JSON), or {"id", "crash"} when BFCL's checker raised (its runner does not catch that: the
whole evaluation would stop).

The steps are BFCL's _evaluate_single_ast_entry (bfcl_eval/eval_checker/eval_runner.py) for a function-calling
model, whose handler's decode_ast is json.loads of the calls: decode, is_function_calling_format_output (copied
below from bfcl_eval/utils.py, which imports packages that need pip installs), then ast_checker, Python language.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bfcl_eval.constants.enums import Language  # noqa: E402
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker  # noqa: E402

# The model whose settings ast_checker reads (underscore_to_dot: False, so names with dots are compared as
# they are), spelled as BFCL's runner passes it: "/" written "_".
MODEL_NAME = "Qwen_Qwen3-0.6B-FC"
ERROR_CHARS = 400


# Copied from bfcl_eval/utils.py (Apache-2.0, same commit as the checker).
def is_function_calling_format_output(decoded_output):
    if type(decoded_output) != list:
        return False
    for item in decoded_output:
        if type(item) != dict:
            return False
        if len(item) != 1:
            return False
        if type(list(item.values())[0]) != dict:
            return False
    return True


def verdict(case):
    try:
        output = json.loads(case["output"])
    except Exception as e:
        return {"valid": False, "error_type": "ast_decoder:decoder_failed", "error": str(e)}
    if not is_function_calling_format_output(output):
        return {"valid": False, "error_type": "ast_decoder:decoder_wrong_output_format", "error": ""}
    answer = json.loads(case["answer"])
    try:
        result = ast_checker(case["functions"], output, answer, Language.PYTHON, case["category"], MODEL_NAME)
    except Exception as e:
        return {"crash": f"{type(e).__name__}: {e}"}
    if result["valid"]:
        return {"valid": True}
    # The start of the messages only: a parallel case's errors repeat every candidate call and answer.
    error = json.dumps(result.get("error", []), ensure_ascii=False, default=str)
    return {"valid": False, "error_type": result.get("error_type"), "error": error[:ERROR_CHARS]}


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        result = {"id": case["id"], **verdict(case)}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
