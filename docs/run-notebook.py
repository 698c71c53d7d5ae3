#!/usr/bin/env python3
"""Execute a notebook's code cells in order and store their outputs in it.

A stand-in for `jupyter nbconvert --execute --inplace` where Jupyter is not
installed: each code cell runs in one shared namespace, from the notebook's
own directory, and its printed text (and, as Jupyter does, the value of a
last bare expression) becomes the cell's output. Text only: no rich
display. Exits non-zero, keeping the notebook as it was, if a cell fails.

    python3 docs/run-notebook.py docs/notebook.ipynb
"""
import ast
import contextlib
import io
import json
import os
import sys
import traceback


def run(path):
    with open(path) as f:
        nb = json.load(f)
    path = os.path.abspath(path)
    os.chdir(os.path.dirname(path))
    env = {"__name__": "__main__"}
    count = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        count += 1
        source = "".join(cell["source"])
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        out = io.StringIO()
        outputs = []
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(tree, f"<cell {count}>", "exec"), env)
                value = eval(compile(ast.Expression(last.value), f"<cell {count}>", "eval"), env) if last else None
        except Exception:
            sys.stderr.write(f"{path}: cell {count} failed:\n{traceback.format_exc()}")
            return 1
        if out.getvalue():
            outputs.append({"output_type": "stream", "name": "stdout", "text": out.getvalue().splitlines(True)})
        if value is not None:
            outputs.append({"output_type": "execute_result", "execution_count": count, "metadata": {},
                            "data": {"text/plain": repr(value).splitlines(True)}})
        cell["execution_count"] = count
        cell["outputs"] = outputs
    with open(path, "w") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "docs/notebook.ipynb"))
