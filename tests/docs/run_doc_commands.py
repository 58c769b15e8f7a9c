#!/usr/bin/env python3
"""Docs that run: executes every documented command of README.md and docs/*.md.

Registered with ctest as `docs_commands` (tests/docs/CMakeLists.txt). Conventions, also written
in docs/testing.md ("Documented commands are tested"):

* A ```sh block is a list of shell commands. Each complete command (backslash continuations,
  loops, quotes and here-documents included: the block is cut wherever `bash -n` accepts what
  came before) runs on its own with `bash -c`, stdin from /dev/null.
* A ```console block is a transcript: each line `$ COMMAND` runs as above, and every line of the
  documented output below it must appear in the command's output (stdout and stderr, blanks
  collapsed); a line holding `...` is an abbreviation and is not compared.
* A command must exit 0 unless a comment on it documents another code: `# exit 1`,
  `# exit code 2`, `# ... verdict FAIL, exit code 1`.
* Untagged blocks (output, file formats, synopses with placeholders like FILE or [--json]) are
  not run; one that holds a plain command line (`playtest ...`, `$ ...`, `build/...`) without a
  placeholder fails the test, so that a new example cannot escape it by its fence.
* A command that calls Graphviz's `dot` fails unless `dot` is installed (scripts/setup.sh then
  needs graphviz; no documented command calls it today).
* A block whose first line is `# doc-test: skip (REASON)` (or whose fence is ```sh-skip with such
  a line) is not run; the test prints it with its reason and counts it. Skip only what cannot
  run here (a server, a long benchmark, another build), never a command that is merely wrong.
* Commands run in a fresh scratch directory holding a copy of examples/, scripts/ and adapters/, with
  `playtest` on PATH and build/release (and build/test) pointing at the build being tested, so
  the docs write paths the way a user who ran scripts/demo.sh types them; the copy's
  adapters/python is on PYTHONPATH, as the Python adapter kit of a user who installed it.

Any failure names the file:line of the command.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# A line of an untagged block that looks like a command a reader would copy.
COMMANDISH = re.compile(r"^\s*(\$ |(playtest|\./\S+|build/\S+|examples/\S+)(\s|$))")
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b|\[--")
USES_DOT = re.compile(r"(^|[|;&(]\s*|\n\s*)dot\s")
FENCE = re.compile(r"^( {0,3})(```+|~~~+)\s*([\w-]*)\s*$")  # also inside list items
SKIP = re.compile(r"^#\s*doc-test:\s*skip\s*\((.+)\)\s*$")
EXIT = re.compile(r"#.*\bexit(?: code)?\s+(\d+)\b")


class Block:
    def __init__(self, path, line, lang, lines):
        self.path, self.line, self.lang, self.lines = path, line, lang, lines

    def where(self, offset=0):
        return f"{self.path}:{self.line + 1 + offset}"


def blocks_of(path, rel):
    """The fenced blocks of a markdown file; `line` is the fence's 1-based line number."""
    out, current, start, lang, fence, indent = [], None, 0, "", "", 0
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            m = FENCE.match(line)
            if current is None:
                if m:
                    current, start, lang, fence, indent = [], number, m.group(3), m.group(2), len(m.group(1))
            elif m and m.group(2).startswith(fence[0]) and len(m.group(2)) >= len(fence) and not m.group(3):
                out.append(Block(rel, start, lang, current))
                current = None
            else:
                # A fence indented by k spaces (a list item) indents its content by k as well.
                current.append(line[indent:] if line[:indent] == " " * indent else line.lstrip(" "))
    if current is not None:
        raise SystemExit(f"{rel}:{start}: unterminated code block")
    return out


def complete(text):
    """True when `text` is a complete shell command list (bash -n accepts it without a word)."""
    r = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True)
    # An open here-document is only a warning for bash -n ("delimited by end-of-file").
    return r.returncode == 0 and not r.stderr and not text.rstrip().endswith("\\")


def split_commands(lines):
    """[(first line offset, command text)] for a list of shell lines."""
    out, pending, first = [], [], 0
    for i, line in enumerate(lines):
        if not pending:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            first = i
        pending.append(line)
        text = "\n".join(pending) + "\n"
        if complete(text):
            out.append((first, text))
            pending = []
    if pending:
        out.append((first, "\n".join(pending) + "\n"))  # bash will report the syntax error
    return out


def expected_exit(command):
    codes = [int(m.group(1)) for line in command.splitlines() for m in [EXIT.search(line)] if m]
    return codes[-1] if codes else 0


def normalize(line):
    return " ".join(line.split())


class Runner:
    def __init__(self, args):
        self.args = args
        self.failures, self.skipped, self.commands = [], [], 0
        self.scratch = tempfile.mkdtemp(prefix="playtest-doc-test-")
        src, binary = args.source_dir, os.path.abspath(args.binary_dir)
        for d in ("examples", "scripts", "adapters"):
            shutil.copytree(os.path.join(src, d), os.path.join(self.scratch, d), symlinks=True)
        os.makedirs(os.path.join(self.scratch, "build"))
        for name in ("release", "test"):
            os.symlink(binary, os.path.join(self.scratch, "build", name))
        bindir = os.path.join(self.scratch, ".bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(args.playtest), os.path.join(bindir, "playtest"))
        self.env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        # The docs are written for a user who installed the Python adapter kit (`import
        # playtest_adapter`, docs/adapter-protocol.md "Installing the kits"): here it is the copy of
        # the checkout's adapters/python, first on Python's path.
        kit = os.path.join(self.scratch, "adapters", "python")
        self.env["PYTHONPATH"] = kit + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")

    def run(self, block, offset, command):
        self.commands += 1
        if USES_DOT.search("\n" + command) and shutil.which("dot") is None:
            self.fail(block, offset, command, "needs Graphviz's dot: add graphviz to scripts/setup.sh", "")
            return None
        want = expected_exit(command)
        try:
            r = subprocess.run(["bash", "-c", command], cwd=self.scratch, env=self.env, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, errors="replace", timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            self.fail(block, offset, command, f"did not finish within {self.args.timeout} s", "")
            return None
        output = r.stdout + r.stderr
        if r.returncode != want:
            self.fail(block, offset, command, f"exit code {r.returncode}, documented {want}", output)
            return None
        return output

    def fail(self, block, offset, command, why, output):
        tail = "\n".join(output.splitlines()[-12:])
        self.failures.append(f"{block.where(offset)}: {why}\n  $ {command.strip()}\n" +
                             "".join(f"  | {line}\n" for line in tail.splitlines()))

    def sh(self, block):
        for offset, command in split_commands(block.lines):
            self.run(block, offset, command)

    def console(self, block):
        i = 0
        while i < len(block.lines):
            line = block.lines[i]
            if not line.startswith("$ "):
                i += 1
                continue
            start, parts = i, [line[2:]]
            while parts[-1].rstrip().endswith("\\") and i + 1 < len(block.lines):
                i += 1
                parts.append(block.lines[i])
            i += 1
            expected = []
            while i < len(block.lines) and not block.lines[i].startswith("$ "):
                expected.append((i, block.lines[i]))
                i += 1
            command = "\n".join(parts) + "\n"
            output = self.run(block, start, command)
            if output is None:
                continue
            got = {normalize(l) for l in output.splitlines()}
            for k, want in expected:
                if "..." in want or not want.strip() or normalize(want) in got:
                    continue
                self.fail(block, k, command, f"documented output line not printed: {want.strip()!r}", output)
                break

    def check(self, block):
        if block.lang == "":
            # Untagged blocks are output, formats and synopses (with placeholders such as FILE or
            # [--json]); a runnable command there would never be tested.
            if any(COMMANDISH.match(l) for l in block.lines) and not any(PLACEHOLDER.search(l) for l in block.lines):
                self.failures.append(f"{block.where()}: a command in an untagged block: tag it ```sh or ```console "
                                     "(or skip it with '# doc-test: skip (reason)')\n")
            return
        first = next((l for l in block.lines if l.strip()), "")
        m = SKIP.match(first.strip())
        if block.lang.endswith("-skip") or m:
            if not m:
                self.failures.append(f"{block.where()}: a skipped block needs '# doc-test: skip (reason)' first\n")
            else:
                self.skipped.append(f"{block.where()}: {m.group(1)}")
            return
        if block.lang == "sh":
            self.sh(block)
        elif block.lang == "console":
            self.console(block)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source-dir", required=True)
    p.add_argument("--binary-dir", required=True, help="the build directory (stands in for build/release)")
    p.add_argument("--playtest", required=True, help="the playtest binary to put on PATH")
    p.add_argument("--timeout", type=float, default=60, help="seconds per command")
    p.add_argument("--keep", action="store_true", help="keep the scratch directory")
    p.add_argument("files", nargs="*", help="markdown files relative to the source dir (default: README.md docs/*.md)")
    args = p.parse_args()
    files = args.files or ["README.md"] + sorted(os.path.relpath(f, args.source_dir)
                                                 for f in glob.glob(os.path.join(args.source_dir, "docs", "*.md")))
    runner = Runner(args)
    try:
        ran = 0
        for rel in files:
            for block in blocks_of(os.path.join(args.source_dir, rel), rel):
                if block.lang in ("sh", "console", "") or block.lang.endswith("-skip"):
                    ran += block.lang != ""
                    runner.check(block)
    finally:
        if not args.keep:
            shutil.rmtree(runner.scratch, ignore_errors=True)
    print(f"doc-test: {ran} blocks in {len(files)} files, {runner.commands} commands run, "
          f"{len(runner.skipped)} blocks skipped, {len(runner.failures)} failures")
    for s in runner.skipped:
        print(f"  skipped {s}")
    for f in runner.failures:
        print(f"FAIL {f}", end="")
    if args.keep:
        print(f"scratch directory kept: {runner.scratch}")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
