#!/usr/bin/env python3
"""The Python adapter kit installs with pip, offline: a copy of adapters/python is installed with
`pip install --no-build-isolation --no-index --target DIR` (Debian's setuptools and wheel build it,
no network) and every module of the folder imports from DIR. The distribution's version is
playtest's. Exit 77 (skipped) where pip, setuptools or wheel are missing (scripts/setup.sh installs
python3-pip, python3-setuptools, python3-wheel).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--version", required=True, help="playtest's version (CMake's PROJECT_VERSION)")
    a = ap.parse_args()
    # Debian's interpreter: its pip, setuptools and wheel are the Debian packages' (the offline backend).
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    missing = [m for m in ("pip", "setuptools", "wheel")
               if subprocess.run([python, "-c", f"import {m}"], capture_output=True).returncode != 0]
    if missing:
        print(f"SKIP: {python} has no {', '.join(missing)} (scripts/setup.sh installs python3-pip, "
              "python3-setuptools, python3-wheel)")
        return 77
    kit = os.path.join(a.source_dir, "adapters/python")
    shutil.rmtree(a.work, ignore_errors=True)
    src, site = os.path.join(a.work, "src"), os.path.join(a.work, "site")
    # A copy: setuptools builds in place (build/, *.egg-info) and the checkout stays clean.
    shutil.copytree(kit, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    cmd = [python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
           "--disable-pip-version-check", "--no-cache-dir", "--target", site, src]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PIP_NO_INPUT="1"))
    print(p.stdout[-3000:], p.stderr[-3000:])
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)
        return ok

    if not check(p.returncode == 0, "pip installs adapters/python offline"):
        return 1
    modules = sorted(f[:-3] for f in os.listdir(kit) if f.endswith(".py") and f != "setup.py")
    check("playtest_adapter" in modules, f"the kit's modules: {modules}")
    for m in modules:
        check(os.path.isfile(os.path.join(site, m + ".py")), f"{m}.py is installed")
        r = subprocess.run([python, "-c", f"import {m}; print({m}.__file__)"], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=site), cwd=a.work)
        check(r.returncode == 0 and r.stdout.strip().startswith(site), f"import {m} finds the installed module"
              + (f": {r.stderr.strip()[-300:]}" if r.returncode else ""))
    check(not os.path.exists(os.path.join(site, "setup.py")), "setup.py is not installed as a module")
    dist = [d for d in os.listdir(site) if d.endswith(".dist-info")]
    check(dist == [f"playtest_adapter-{a.version}.dist-info"], f"the distribution is playtest-adapter {a.version}: {dist}")
    pyproject = open(os.path.join(kit, "pyproject.toml")).read()
    m = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    check(m is not None and m.group(1) == a.version, "pyproject.toml's version is playtest's (CMakeLists.txt)")
    if failures:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
