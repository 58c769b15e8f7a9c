#!/usr/bin/env python3
"""Man pages for playtest and each of its commands, made by help2man from the tool's --help.

    make_man_pages.py --playtest BIN --help2man HELP2MAN --out DIR

writes DIR/playtest.1.gz and DIR/playtest-<command>.1.gz (gzip -n: no name or time stamp, as
Debian wants) for every command `playtest --help` lists under "Subcommands:", and
DIR/playtest-<command>-<subcommand>.1.gz for the commands' own (playtest-gen-random.1). The pages are
reproducible: help2man's date comes from SOURCE_DATE_EPOCH (the release date below unless set).
tests/package/check_man_pages.py makes them again and compares.
"""
import argparse
import gzip
import os
import re
import shlex
import subprocess
import sys
import tempfile

# The date help2man prints in the pages' footer (SOURCE_DATE_EPOCH), when the caller sets none:
# 2026-11-01, the month of version 0.1.0.
RELEASE_EPOCH = "1793491200"


def commands(playtest, command=None):
    """(name, one-line description) of each command in `playtest --help` (with `command`: of each of
    its own subcommands in `playtest COMMAND --help`, e.g. gen random)."""
    args = [playtest] + ([command] if command else []) + ["--help"]
    text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  (\S+)\s{2,}(.*)$", line)
            if m:
                out.append((m.group(1), m.group(2).strip()))
            elif line and not line.startswith(" "):
                break
    if not out and command is None:
        sys.exit(f"make_man_pages.py: no commands in '{playtest} --help'")
    return out


def first_sentence(text):
    m = re.match(r"^(.*?[^.])\.(\s|$)", text)
    s = m.group(1) if m else text.rstrip(".")
    return s[:1].lower() + s[1:]


def page(help2man, playtest, command, description, version, workdir):
    """The text of one man page."""
    words = [] if command is None else command.split()
    name = "-".join(["playtest"] + words)
    # help2man runs PROGRAM --help; a command's page needs "playtest COMMAND --help", so a small
    # script named after the page runs that (its name is the page's NAME).
    wrapper = os.path.join(workdir, name)
    args = "".join(" " + shlex.quote(w) for w in words)
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nexec {shlex.quote(os.path.abspath(playtest))}{args} "$@"\n')
    os.chmod(wrapper, 0o755)
    env = dict(os.environ, SOURCE_DATE_EPOCH=os.environ.get("SOURCE_DATE_EPOCH", RELEASE_EPOCH), LC_ALL="C.UTF-8")
    cmd = [help2man, "--no-info", "--no-discard-stderr", f"--version-string={version}", "--section=1",
           f"--name={description}", wrapper]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout


def make_pages(playtest, help2man):
    """{file name: page text} for the tool and every command."""
    version_text = subprocess.run([playtest, "--version"], check=True, capture_output=True, text=True).stdout
    version = version_text.split()[-1]
    pages = {}
    with tempfile.TemporaryDirectory() as work:
        pages["playtest.1"] = page(help2man, playtest, None,
                                   "test nondeterministic systems by playing a game against them", version, work)
        for command, description in all_commands(playtest):
            pages["-".join(["playtest"] + command.split()) + ".1"] = page(
                help2man, playtest, command, first_sentence(description), version, work)
    return pages


def all_commands(playtest):
    """(words, description) of every command and subcommand: ("run", ...), ("gen random", ...)."""
    out = []
    for command, description in commands(playtest):
        out.append((command, description))
        out += [(f"{command} {sub}", d) for sub, d in commands(playtest, command)]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playtest", required=True)
    ap.add_argument("--help2man", default="help2man")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pages = make_pages(a.playtest, a.help2man)
    for old in os.listdir(a.out):  # a command removed since the last build
        if old.endswith(".1.gz") and old[:-3] not in pages:
            os.remove(os.path.join(a.out, old))
    for name, text in pages.items():
        with open(os.path.join(a.out, name + ".gz"), "wb") as f:
            f.write(gzip.compress(text.encode(), compresslevel=9, mtime=0))


if __name__ == "__main__":
    main()
