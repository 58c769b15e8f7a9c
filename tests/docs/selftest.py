#!/usr/bin/env python3
"""Checks run_doc_commands.py on selftest.md: each kind of documentation error is reported at its
file:line, skips are counted, and correct blocks (multi-line commands included) pass."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
source = os.path.dirname(os.path.dirname(here))
r = subprocess.run([sys.executable, os.path.join(here, "run_doc_commands.py")] + sys.argv[1:] +
                   ["--source-dir", source, "tests/docs/selftest.md"], capture_output=True, text=True)
out = r.stdout + r.stderr
print(out)
expected = [
    "doc-test: 5 blocks in 1 files, 8 commands run, 1 blocks skipped, 3 failures",
    "skipped tests/docs/selftest.md:19: fixture: never run",
    "FAIL tests/docs/selftest.md:13: exit code 2, documented 0",
    "FAIL tests/docs/selftest.md:27: documented output line not printed: 'this line is not printed'",
    "FAIL tests/docs/selftest.md:33: a command in an untagged block",
]
missing = [e for e in expected if e not in out]
if r.returncode != 1 or missing:
    print(f"selftest: exit code {r.returncode} (want 1); missing lines: {missing}", file=sys.stderr)
    sys.exit(1)
print("selftest: ok")
