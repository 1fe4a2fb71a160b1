#!/usr/bin/python3
"""Runs the shell blocks of coinfer's Markdown pages and checks the output they show.

    scripts/doc-blocks.py --coinfer build/coinfer [--render] PAGE.md...

Fences, by language:
  sh                 run, in order, with `bash -eo pipefail`, in one scratch folder per page that holds
                     a copy of the repository's inputs (scenarios/, platforms/, models/, examples/,
                     bench/, scripts/); `coinfer` and `build/coinfer` are the binary given
  console            shown only (commands that install, take minutes, or need other machines)
  anything else      shown only (text, yaml, json, cpp, ...)
A fence of any language right after a line `<!-- output -->` is the output (stdout and stderr, as they came) of
the `sh` block before it: the check fails when they differ, and --render rewrites it from the run.
Every fence must name its language. Exit status: 0 ok, 1 a block failed or an output differs.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = ["scenarios", "platforms", "models", "examples", "bench", "scripts"]
OUTPUT_MARKER = "<!-- output -->"
BLOCK_TIMEOUT_S = 240
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


class Block:
    def __init__(self, lang, indent, first, last, body):
        self.lang, self.indent, self.first, self.last, self.body = lang, indent, first, last, body
        self.output = None  # the Block showing this one's output


def parse_blocks(path, lines):
    """Fenced blocks with their line ranges (0-based; first = the opening fence)."""
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        if not lang:
            sys.exit(f"{path}:{i + 1}: a fence must name its language (sh runs; console, text, ... are shown)")
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            sys.exit(f"{path}:{i + 1}: fence not closed")
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end]]
        blocks.append(Block(lang, indent, i, end, body))
        i = end + 1
    return blocks


def link_outputs(path, lines, blocks):
    """Attaches each block after an output marker to the sh block before it."""
    for prev, block in zip(blocks, blocks[1:]):
        marker = block.first - 1
        if marker >= 0 and lines[marker].strip() == OUTPUT_MARKER:
            if prev.lang != "sh" or prev.last + 1 != marker:
                sys.exit(f"{path}:{marker + 1}: an output block must follow its sh block directly")
            prev.output = block
    return [b for b in blocks if b.lang == "sh"]


def scratch(coinfer):
    """A scratch folder with the repository's inputs, build/coinfer and the coinfer-* tools built
    beside it (coinfer-ns3-wifi-cell)."""
    root = tempfile.mkdtemp(prefix="coinfer_docs_")
    for name in INPUTS:
        shutil.copytree(os.path.join(REPO, name), os.path.join(root, name), symlinks=True)
    os.makedirs(os.path.join(root, "build"))
    os.symlink(os.path.abspath(coinfer), os.path.join(root, "build", "coinfer"))
    build = os.path.dirname(os.path.abspath(coinfer))
    for name in sorted(os.listdir(build)):
        tool = os.path.join(build, name)
        if name.startswith("coinfer-") and os.path.isfile(tool) and os.access(tool, os.X_OK):
            os.symlink(tool, os.path.join(root, "build", name))
    return root


def run_block(root, block):
    env = dict(os.environ, PATH=os.path.join(root, "build") + os.pathsep + os.environ["PATH"])
    script = "\n".join(block.body) + "\n"
    start = time.monotonic()
    proc = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=root, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=BLOCK_TIMEOUT_S)
    return proc, time.monotonic() - start


def check_page(path, coinfer, render):
    with open(path) as f:
        lines = f.read().split("\n")
    runnable = link_outputs(path, lines, parse_blocks(path, lines))
    root, ok, edits = scratch(coinfer), True, []
    try:
        for block in runnable:
            proc, took = run_block(root, block)
            where = f"{os.path.relpath(path, REPO)}:{block.first + 1}"
            print(f"{where}: sh block, exit {proc.returncode}, {took:.1f} s")
            if proc.returncode != 0:
                print(f"{where}: failed\n{proc.stdout}")
                ok = False
                continue
            if block.output is None:
                continue
            shown = proc.stdout.rstrip("\n").split("\n")
            if shown == block.output.body:
                continue
            if render:
                edits.append((block.output, shown))
            else:
                ok = False
                print(f"{where}: the output shown differs from the run (scripts/doc-blocks.py --render rewrites it)")
                sys.stdout.writelines(difflib.unified_diff(
                    [l + "\n" for l in block.output.body], [l + "\n" for l in shown], "shown", "run"))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for block, shown in reversed(edits):  # from the end, so earlier line numbers stay valid
        lines[block.first + 1:block.last] = [(block.indent + l) if l else l for l in shown]
    if edits:
        with open(path, "w") as f:
            f.write("\n".join(lines))
        print(f"{path}: rewrote {len(edits)} output block(s)")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--coinfer", required=True, help="the coinfer binary the blocks run")
    parser.add_argument("--render", action="store_true", help="rewrite output blocks from the run")
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    results = [check_page(os.path.abspath(p), args.coinfer, args.render) for p in args.pages]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
