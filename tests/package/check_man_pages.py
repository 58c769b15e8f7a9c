#!/usr/bin/env python3
"""Man pages never drift from --help: the build's pages (cmake/make_man_pages.py, help2man) are
checked against the tool they were made from.

  * there is a page for the tool and for every command `playtest --help` lists, and no other;
  * each page is byte for byte what help2man makes now from the tool's --help (a page left from an
    older tool, or a --help changed without the pages being made again, fails here);
  * each command's page names every option its --help lists, and the tool's page every command.
Exit 77 (skipped) where help2man is missing (scripts/setup.sh installs it).
"""
import argparse
import gzip
import importlib.util
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--playtest", required=True)
    ap.add_argument("--pages", required=True, help="the build's man page folder")
    ap.add_argument("--maker", required=True, help="cmake/make_man_pages.py")
    ap.add_argument("--help2man", default="help2man")
    a = ap.parse_args()
    if not shutil.which(a.help2man):
        print("SKIP: help2man not found (scripts/setup.sh installs it)")
        return 77
    spec = importlib.util.spec_from_file_location("make_man_pages", a.maker)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)

    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    expected = maker.make_pages(a.playtest, a.help2man)
    commands = [c for c, _ in maker.all_commands(a.playtest)]
    check(len(commands) >= 10 and "run" in commands and "gen random" in commands,
          f"`playtest --help` and the commands' --help list {len(commands)} commands and subcommands")
    built = sorted(f[:-3] for f in os.listdir(a.pages) if f.endswith(".1.gz"))
    check(built == sorted(expected), f"a page for playtest and each command, no other: {built}")
    for name, text in sorted(expected.items()):
        path = os.path.join(a.pages, name + ".gz")
        if not os.path.isfile(path):
            continue
        with gzip.open(path, "rt") as f:
            have = f.read()
        check(have == text, f"{name} is what help2man makes from today's --help")
    # The pages' content, independently of help2man's layout.
    top = expected["playtest.1"]
    check(all(re.search(rf"\b{re.escape(c)}\b", top) for c in commands if " " not in c),
          "playtest.1 names every command")
    for c in commands:
        help_text = subprocess.run([a.playtest] + c.split() + ["--help"], capture_output=True, text=True).stdout
        options = set(re.findall(r"^\s+(?:-\w,)?(--[A-Za-z0-9][-A-Za-z0-9]*)", help_text, re.M))
        page = expected["-".join(["playtest"] + c.split()) + ".1"].replace("\\-", "-")
        missing = sorted(o for o in options if o not in page)
        check(options and not missing, f"playtest-{c.replace(' ', '-')}.1 names its {len(options)} options{': missing ' + str(missing) if missing else ''}")
    if failures:
        print(f"{len(failures)} check(s) failed; the pages are made by cmake/make_man_pages.py at build time "
              "(target playtest_man)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
