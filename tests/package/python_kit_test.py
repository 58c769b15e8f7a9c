#!/usr/bin/env python3
"""The Python adapter kit installs with pip, offline, and the examples' adapters use it as installed.

  1. a copy of adapters/python is installed with `pip install --no-build-isolation --no-index
     --target DIR` (Debian's setuptools and wheel build it, no network) and every module of the
     folder imports from DIR; the distribution's version is playtest's;
  2. the same into a virtualenv (`python3 -m venv --system-site-packages --without-pip`, then
     `VENV/bin/python -m pip`, Debian's pip: README, "Install"): the venv's python imports the kit
     from the venv;
  3. an example adapter (examples/sut/jobq_adapter.py, with the work-queue server this build made)
     and its model, copied out of the checkout so that no path into it can be found, pass
     `playtest run` with only DIR on PYTHONPATH, and with the venv's python;
  4. the same adapter without the kit (python3 -S: no site-packages, no PYTHONPATH) is an ERROR
     whose message says the kit is not installed, not a Python traceback and not a FAIL.

Exit 77 (skipped) where pip, setuptools, wheel or venv are missing (scripts/setup.sh installs
python3-pip, python3-setuptools, python3-wheel, python3-venv).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time


failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def clean_env():
    """The environment with no PYTHONPATH and no user site-packages: only what a test gives is found."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--version", required=True, help="playtest's version (CMake's PROJECT_VERSION)")
    ap.add_argument("--playtest", required=True, help="the playtest binary that runs the example")
    ap.add_argument("--jobq-server", required=True, help="examples/sut/jobq_server, the example adapter's system")
    a = ap.parse_args()
    a.playtest = os.path.abspath(a.playtest)  # the example runs in a folder of its own
    # Debian's interpreter: its pip, setuptools and wheel are the Debian packages' (the offline backend).
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    missing = [m for m in ("pip", "setuptools", "wheel", "venv")
               if subprocess.run([python, "-c", f"import {m}"], capture_output=True).returncode != 0]
    if missing:
        print(f"SKIP: {python} has no {', '.join(missing)} (scripts/setup.sh installs python3-pip, "
              "python3-setuptools, python3-wheel, python3-venv)")
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
    if not check(p.returncode == 0, "pip installs adapters/python offline"):
        return 1
    modules = sorted(f[:-3] for f in os.listdir(kit) if f.endswith(".py") and f != "setup.py")
    check("playtest_adapter" in modules, f"the kit's modules: {modules}")
    for m in modules:
        check(os.path.isfile(os.path.join(site, m + ".py")), f"{m}.py is installed")
        r = subprocess.run([python, "-c", f"import {m}; print({m}.__file__)"], capture_output=True, text=True,
                           env=dict(clean_env(), PYTHONPATH=site), cwd=a.work)
        check(r.returncode == 0 and r.stdout.strip().startswith(site), f"import {m} finds the installed module"
              + (f": {r.stderr.strip()[-300:]}" if r.returncode else ""))
    check(not os.path.exists(os.path.join(site, "setup.py")), "setup.py is not installed as a module")
    dist = [d for d in os.listdir(site) if d.endswith(".dist-info")]
    check(dist == [f"playtest_adapter-{a.version}.dist-info"], f"the distribution is playtest-adapter {a.version}: {dist}")
    pyproject = open(os.path.join(kit, "pyproject.toml")).read()
    m = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    check(m is not None and m.group(1) == a.version, "pyproject.toml's version is playtest's (CMakeLists.txt)")

    # 2. Into a virtualenv that sees Debian's setuptools and wheel (the offline build needs them).
    venv = os.path.join(a.work, "venv")
    started = time.monotonic()
    p = subprocess.run([python, "-m", "venv", "--system-site-packages", "--without-pip", venv], capture_output=True,
                       text=True)
    check(p.returncode == 0,
          "python3 -m venv --system-site-packages --without-pip" + (f": {p.stderr[-500:]}" if p.returncode else ""))
    venv_python = os.path.join(venv, "bin", "python")
    if p.returncode == 0:
        p = subprocess.run([venv_python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
                            "--disable-pip-version-check", "--no-cache-dir", src], capture_output=True, text=True,
                           env=dict(clean_env(), PIP_NO_INPUT="1"))
        check(p.returncode == 0, "Debian's pip in the venv installs adapters/python offline"
              + (f": {p.stdout[-1000:]} {p.stderr[-1000:]}" if p.returncode else ""))
        r = subprocess.run([venv_python, "-c", "import playtest_adapter; print(playtest_adapter.__file__)"],
                           capture_output=True, text=True, env=clean_env(), cwd=a.work)
        check(r.returncode == 0 and r.stdout.strip().startswith(venv + os.sep),
              f"the venv's python imports playtest_adapter from the venv: {r.stdout.strip() or r.stderr[-300:]}")
    print(f"-- venv: {time.monotonic() - started:.1f} s")

    # 3. and 4. in a temporary folder out of the checkout (the work folder is in the build tree, which
    # may be in the checkout).
    example = tempfile.mkdtemp(prefix="playtest-example-adapter-")
    try:
        run_example(a, site, venv_python, example)
    finally:
        shutil.rmtree(example, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
        return 1
    return 0


def run_example(a, site, venv_python, example):
    """3. An example adapter and its model, copied out of the checkout, with the installed kit only;
    4. the same without the kit."""
    shutil.copy(os.path.join(a.source_dir, "examples/sut/jobq_adapter.py"), example)
    shutil.copy(os.path.join(a.source_dir, "examples/models/jobq.ptm"), example)
    server = shlex.quote(os.path.abspath(a.jobq_server))

    def play(python, env, want):
        # The run of tests/cli/lang/test_cli_jobq.cpp (about 1 s): the purpose met, a job not deleted
        # comes back after its time-to-run; generous timeouts for a loaded machine.
        sut = f"{python} jobq_adapter.py {server}"
        cmd = [a.playtest, "run", "jobq.ptm", "--sut", sut, "--strategy", "expected", "--seed", "1",
               "--timeout-ms", "5000"]
        print("$ " + " ".join(shlex.quote(c) for c in cmd) + f"   (PYTHONPATH={env.get('PYTHONPATH', '')})",
              flush=True)
        started = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=example, timeout=120)
        print(r.stdout[-1500:] + r.stderr[-1500:])
        print(f"-- {time.monotonic() - started:.1f} s")
        check(r.returncode == want, f"exit code {r.returncode}, expected {want}")
        return r

    installed = dict(clean_env(), PYTHONPATH=site)
    r = subprocess.run(["python3", "-c", "import playtest_adapter; print(playtest_adapter.__file__)"],
                       capture_output=True, text=True, env=installed, cwd=example)
    check(r.returncode == 0 and r.stdout.strip().startswith(site + os.sep),
          f"python3 (PATH's) imports the kit from the pip --target folder: {r.stdout.strip() or r.stderr[-300:]}")
    r = play("python3", installed, 0)
    check("verdict: PASS" in r.stdout, "the example adapter out of the checkout, the kit on PYTHONPATH: PASS")
    if os.path.exists(venv_python):
        r = play(shlex.quote(venv_python), clean_env(), 0)
        check("verdict: PASS" in r.stdout, "the example adapter run by the venv's python: PASS")

    # 4. Without the kit: -S leaves out every site-packages folder (a kit installed on this machine
    # too), and PYTHONPATH is unset.
    r = play("python3 -S", clean_env(), 3)
    out = r.stdout + r.stderr
    check("verdict: ERROR" in r.stdout, "without the kit the verdict is ERROR (not FAIL)")
    check(re.search(r"reported an error: No module named 'playtest_adapter' for /\S+python\S*: install the Python "
                    r"adapter kit: pip install adapters/python \(a playtest checkout\), or playtest's \.deb "
                    r"\(the process exited with status 1\)", out) is not None,
          "the ERROR names the missing kit, the python that misses it, and how to install it")
    check("Traceback" not in out, "no Python traceback")


if __name__ == "__main__":
    sys.exit(main())
