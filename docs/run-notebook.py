#!/usr/bin/env python3
"""Execute a notebook's code cells in order and store their outputs in it.

A stand-in for `jupyter nbconvert --execute --inplace` where Jupyter is not
installed: each code cell runs in one shared namespace, from the notebook's
own directory, and its printed text (and, as Jupyter does, the value of a
last bare expression) becomes the cell's output. Text only: no rich
display. Exits non-zero, keeping the notebook as it was, if a cell fails.
Prints each cell's output as it runs, and with --html FILE writes the
executed notebook as a page a browser opens: its text, code and outputs.

    python3 docs/run-notebook.py docs/notebook.ipynb --html out/notebook/notebook.html
"""
import ast
import html
import re
import contextlib
import io
import json
import os
import sys
import traceback


def inline(text):
    """Markdown's inline code, bold and links, the rest escaped."""
    text = html.escape(text)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', text)


def markdown(source):
    """The little Markdown a notebook's text cells use: headings,
    paragraphs, bullet lists and fenced code."""
    out, para, items, fence = [], [], [], None
    def flush():
        if para:
            out.append("<p>" + inline(" ".join(para)) + "</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join("<li>" + inline(i) + "</li>" for i in items) + "</ul>")
            items.clear()
    for line in source.splitlines():
        if fence is not None:
            if line.startswith("```"):
                out.append("<pre>" + html.escape("\n".join(fence)) + "</pre>")
                fence = None
            else:
                fence.append(line)
            continue
        if line.startswith("```"):
            flush()
            fence = []
        elif m := re.match(r"(#{1,6}) (.*)", line):
            flush()
            n = len(m.group(1))
            out.append(f"<h{n}>{inline(m.group(2))}</h{n}>")
        elif m := re.match(r"\s*[-*] (.*)", line):
            if para:
                flush()
            items.append(m.group(1))
        elif not line.strip():
            flush()
        elif items and line.startswith(" "):
            items[-1] += " " + line.strip()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def write_html(nb, title, dest):
    parts = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            parts.append(markdown(source))
            continue
        if cell["cell_type"] != "code":
            continue
        parts.append(f'<pre class="code">{html.escape(source)}</pre>')
        for o in cell.get("outputs", []):
            text = o.get("text") or o.get("data", {}).get("text/plain", [])
            parts.append(f'<pre class="out">{html.escape("".join(text))}</pre>')
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; line-height: 1.45; margin: 0; }}
main {{ max-width: 60em; margin: 0 auto; padding: 1em; }}
pre {{ overflow-x: auto; padding: .5em; font-size: .88em; }}
pre.code {{ background: #f4f4f4; border-left: 3px solid #0072B2; }}
pre.out {{ background: #fff; border-left: 3px solid #ccc; }}
code {{ background: #f4f4f4; padding: 0 .2em; }}
</style></head><body><main>
{chr(10).join(parts)}
</main></body></html>
"""
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    with open(dest, "w") as f:
        f.write(page)


def run(path, html_out=None):
    with open(path) as f:
        nb = json.load(f)
    path = os.path.abspath(path)
    if html_out:
        html_out = os.path.abspath(html_out)
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
        if out.getvalue() or value is not None:
            print(f"[cell {count}]")
            sys.stdout.write(out.getvalue())
            if value is not None:
                print(repr(value))
            sys.stdout.flush()
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
    if html_out:
        write_html(nb, os.path.basename(path), html_out)
        print(f"wrote {os.path.relpath(html_out, os.path.dirname(os.path.dirname(path)))}: the executed notebook, for a browser")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    dest = None
    if "--html" in args:
        i = args.index("--html")
        if i + 1 >= len(args):
            sys.exit("run-notebook.py: --html wants a FILE")
        dest = args[i + 1]
        del args[i:i + 2]
    sys.exit(run(args[0] if args else "docs/notebook.ipynb", dest))
