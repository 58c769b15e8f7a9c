#!/usr/bin/env python3
"""The installed package is complete: install this build into a temporary prefix, then build and test
examples/downstream (a project that knows only the prefix) against it.

Checks, in order:
  1. `cmake --install BUILD --prefix P` installs the tool, headers (no detail/ folder), static
     libraries, playtestConfig.cmake + playtestConfigVersion.cmake, playtest.pc, the adapter kits;
  2. (--header-check) every installed header compiles from the prefix alone: one translation unit
     including all of them, with -I P/include and nothing of the source tree (each header compiling
     on its own is the source tree's header check, PLAYTEST_HEADER_CHECK);
  3. pkg-config: a program compiled and linked with `pkg-config --cflags --libs playtest` runs;
  4. an example adapter written with the C++ adapter kit (examples/sut/workers.cpp, which includes
     "playtest/adapter_kit.hpp"), copied out of the checkout with its model, builds in a project of
     its own with find_package(playtest) and playtest::adapter_kit, and the installed playtest
     runs it: PASS;
  5. examples/downstream configures with find_package(playtest 0.1) (and refuses 0.2 / 1.0), builds
     with -DUPLOADER_PLANT_RACE=ON, and its ctest passes: the correct uploader's test passes, the
     racy one's fails with a replay line;
  6. the replay line, run as printed with PLAYTEST_TRACE_DIR set, fails again with the same seed
     (PLAYTEST_SEED) and writes the trace, which the installed `playtest report` draws.

Under a sanitizer (--sanitize address|thread) the downstream code is compiled and linked with the
same -fsanitize flags as the installed (instrumented) libraries. Exit 77 (skipped) only where a tool
is missing: GoogleTest's CMake package, pkg-config.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

SANITIZER_FLAGS = {
    "none": "",
    "address": "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer",
    "thread": "-fsanitize=thread -fno-omit-frame-pointer",
}

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def run(cmd, **kw):
    """Runs cmd; returns CompletedProcess (text). Prints the command."""
    print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def must(cmd, **kw):
    p = run(cmd, **kw)
    if p.returncode != 0:
        print(p.stdout[-6000:])
        print(p.stderr[-6000:])
        sys.exit(f"FAIL: exit code {p.returncode}: {' '.join(cmd)}")
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True, help="scratch folder (emptied first)")
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--launcher", default="")
    ap.add_argument("--generator", default="Ninja")
    ap.add_argument("--sanitize", choices=SANITIZER_FLAGS, default="none")
    ap.add_argument("--header-check", action="store_true")
    ap.add_argument("--libdir", required=True, help="CMAKE_INSTALL_LIBDIR")
    a = ap.parse_args()
    started = time.monotonic()
    stage = started

    def lap(name):
        nonlocal stage
        now = time.monotonic()
        print(f"-- {name}: {now - stage:.1f} s", flush=True)
        stage = now

    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    prefix = os.path.join(a.work, "prefix")
    flags = SANITIZER_FLAGS[a.sanitize]
    env = dict(os.environ)
    # The racy test's failure is expected: its sanitizer must not turn a leak at exit into another.
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")

    # 1. Install.
    must(["cmake", "--install", a.build_dir, "--prefix", prefix])
    lap("install")
    inc = os.path.join(prefix, "include")
    lib = os.path.join(prefix, a.libdir)
    for rel in ["bin/playtest", "include/playtest/gtest.hpp", "include/playtest/run/in_process_adapter.hpp",
                "include/playtest/adapter_kit.hpp", f"{a.libdir}/libplaytest_graph.a",
                f"{a.libdir}/cmake/playtest/playtestConfig.cmake",
                f"{a.libdir}/cmake/playtest/playtestConfigVersion.cmake",
                f"{a.libdir}/cmake/playtest/playtestTargets.cmake", f"{a.libdir}/pkgconfig/playtest.pc",
                "lib/python3/dist-packages/playtest_adapter.py",
                "share/bash-completion/completions/playtest"]:
        check(os.path.isfile(os.path.join(prefix, rel)), f"installed {rel}")
    headers, detail = [], []
    for root, dirs, files in os.walk(os.path.join(inc, "playtest")):
        detail += [os.path.join(root, d) for d in dirs if d == "detail"]
        headers += [os.path.relpath(os.path.join(root, f), inc) for f in files if f.endswith(".hpp")]
    check(not detail, f"no detail/ folder is installed {detail}")
    source_headers = []
    # The library's public headers, and the C++ adapter kit (adapters/cpp/playtest/adapter_kit.hpp).
    for top in ("include", "adapters/cpp"):
        for root, dirs, files in os.walk(os.path.join(a.source_dir, top, "playtest")):
            dirs[:] = [d for d in dirs if d != "detail"]
            source_headers += [os.path.relpath(os.path.join(root, f), os.path.join(a.source_dir, top))
                               for f in files if f.endswith(".hpp")]
    check(sorted(headers) == sorted(source_headers),
          f"the {len(source_headers)} public headers of include/playtest and the adapter kit are installed, "
          "nothing else")
    config_text = open(os.path.join(lib, "cmake/playtest/playtestTargets.cmake")).read()
    check(a.source_dir not in config_text and os.path.abspath(a.build_dir) not in config_text,
          "the exported targets name no path of the source or build tree")
    check("-Werror" not in config_text, "the exported targets impose no warning options")

    launcher = [a.launcher] if a.launcher else []
    base_flags = shlex.split(flags)

    # 2. Every installed header compiles from the prefix alone.
    if a.header_check:
        tu = os.path.join(a.work, "all_headers.cpp")
        with open(tu, "w") as f:
            for h in sorted(headers):
                f.write(f"#include <{h}>\n")
        must(launcher + [a.cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic",
                       "-Wno-missing-field-initializers", "-Werror", "-I", inc, tu])
        check(True, f"all {len(headers)} installed headers compile together with -I PREFIX/include only")
        lap("header check")

    # 3. pkg-config.
    if shutil.which("pkg-config"):
        pc_env = dict(env, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"))
        mod = must(["pkg-config", "--modversion", "playtest"], env=pc_env).stdout.strip()
        check(mod == open(os.path.join(lib, "cmake/playtest/playtestConfigVersion.cmake")).read().split(
            'set(PACKAGE_VERSION "')[1].split('"')[0], f"playtest.pc's version {mod} is the CMake package's")
        cflags = shlex.split(must(["pkg-config", "--cflags", "playtest"], env=pc_env).stdout)
        libs = shlex.split(must(["pkg-config", "--libs", "playtest"], env=pc_env).stdout)
        check(any(os.path.realpath(x[2:]) == os.path.realpath(inc) for x in cflags if x.startswith("-I")),
              "pkg-config --cflags names PREFIX/include (found from the .pc file's own place)")
        main_cpp = os.path.join(a.work, "pc_main.cpp")
        with open(main_cpp, "w") as f:
            f.write('#include <iostream>\n#include "playtest/input/load.hpp"\n'
                    'int main(int, char** argv) {\n'
                    '  const playtest::TestGraph g = playtest::load_test_graph({.path = argv[1]});\n'
                    '  std::cout << g.num_vertices() << "\\n";\n}\n')
        exe = os.path.join(a.work, "pc_main")
        must(launcher + [a.cxx, "-std=c++20"] + base_flags + cflags + [main_cpp, "-o", exe] + libs + base_flags)
        model = os.path.join(a.source_dir, "examples/downstream/uploader.json")
        out = must([exe, model], env=env).stdout.strip()
        check(out == "8", f"a program built with pkg-config's flags loads the uploader's model (8 vertices; got {out})")
        lap("pkg-config program")
    else:
        print("pkg-config not found: the pkg-config check is skipped (scripts/setup.sh installs pkg-config)")

    # 4. An example adapter of examples/sut built against the installed C++ adapter kit alone: the
    # source and the model are copied out of the checkout, so no path into it can be found.
    adapter_src = os.path.join(a.work, "adapter")
    os.makedirs(adapter_src)
    for f in ("workers.cpp", "workers.json"):
        shutil.copy(os.path.join(a.source_dir, "examples/sut", f), adapter_src)
    with open(os.path.join(adapter_src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.25)\nproject(workers CXX)\n"
                "set(CMAKE_CXX_STANDARD 20)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
                "find_package(playtest 0.1 REQUIRED)\n"
                "add_executable(workers_sut workers.cpp)\n"
                "target_link_libraries(workers_sut PRIVATE playtest::adapter_kit)\n")
    adapter_build = os.path.join(a.work, "adapter-build")
    must(["cmake", "-S", adapter_src, "-B", adapter_build, "-G", a.generator, f"-DCMAKE_PREFIX_PATH={prefix}",
          f"-DCMAKE_CXX_COMPILER={a.cxx}", "-DCMAKE_BUILD_TYPE=Release"]
         + ([f"-DCMAKE_CXX_COMPILER_LAUNCHER={a.launcher}"] if a.launcher else []), env=env)
    must(["cmake", "--build", adapter_build], env=env)
    # The kit's header came from the prefix (the compiler's dependency file names what it read).
    if a.generator == "Ninja":
        # (Paths relative to the build folder where ccache's CCACHE_BASEDIR made them so: CI sets it.)
        deps = [os.path.realpath(os.path.join(adapter_build, line.strip()))
                for line in must(["ninja", "-C", adapter_build, "-t", "deps"], env=env).stdout.splitlines()
                if line.startswith(" ")]
        tree = [os.path.join(os.path.realpath(a.source_dir), d) + os.sep for d in ("adapters", "include", "examples")]
        check(os.path.realpath(os.path.join(inc, "playtest", "adapter_kit.hpp")) in deps
              and not any(d.startswith(t) for d in deps for t in tree),
              "workers.cpp includes playtest/adapter_kit.hpp from PREFIX/include, nothing of the checkout")
    # --purpose none: a PASS is 60 steps without a failure. (Covering every edge needs both orders of
    # the two workers' race, which a loaded machine may not show for a thousand steps.)
    p = run([os.path.join(prefix, "bin/playtest"), "run", "workers.json", "--sut",
             shlex.quote(os.path.join(adapter_build, "workers_sut")), "--strategy", "random", "--purpose", "none",
             "--steps", "60", "--seed", "1", "--timeout-ms", "5000"], cwd=adapter_src, env=env)
    print(p.stdout[-2000:], p.stderr[-2000:])
    check(p.returncode == 0 and "verdict: PASS" in p.stdout,
          f"the installed playtest runs the example adapter built against the installed kit: PASS "
          f"(exit {p.returncode})")
    lap("example adapter")

    # 5. The downstream project.
    src = os.path.join(a.source_dir, "examples/downstream")
    build = os.path.join(a.work, "build")
    configure = ["cmake", "-S", src, "-B", build, "-G", a.generator, f"-DCMAKE_PREFIX_PATH={prefix}",
                 f"-DCMAKE_CXX_COMPILER={a.cxx}", "-DCMAKE_BUILD_TYPE=", f"-DCMAKE_CXX_FLAGS={flags}"]
    if a.launcher:
        configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={a.launcher}")
    # A version the package does not satisfy is refused (SameMinorVersion: 0.1 only).
    probe = os.path.join(a.work, "probe")
    os.makedirs(probe)
    with open(os.path.join(probe, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.25)\nproject(probe CXX)\n"
                "find_package(playtest ${WANT} REQUIRED)\n"
                "foreach(t playtest::playtest playtest::adapter_kit playtest::graph playtest::campaign)\n"
                "  if(NOT TARGET ${t})\n    message(FATAL_ERROR \"no target ${t}\")\n  endif()\nendforeach()\n"
                'message(STATUS "playtest ${playtest_VERSION} at ${playtest_DIR}")\n')
    for want, ok in [("0.1", True), ("0.2", False), ("1.0", False)]:
        p = run(["cmake", "-S", probe, "-B", os.path.join(probe, "b"), f"-DWANT={want}",
                 f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCMAKE_CXX_COMPILER={a.cxx}"])
        check((p.returncode == 0) == ok, f"find_package(playtest {want}) {'succeeds' if ok else 'is refused'}"
              + (" with targets playtest::playtest, playtest::adapter_kit, playtest::<area>" if ok else ""))
    p = run(configure + ["-DUPLOADER_PLANT_RACE=ON"], env=env)
    if p.returncode != 0 and re.search(r"Could NOT find GTest|GTestConfig\.cmake", p.stdout + p.stderr):
        print(p.stderr)
        print("SKIP: GoogleTest's CMake package is missing (scripts/setup.sh installs libgtest-dev)")
        return 77
    if p.returncode != 0:
        print(p.stdout[-6000:])
        print(p.stderr[-6000:])
        sys.exit("FAIL: examples/downstream does not configure against the installed package")
    lap("configure downstream")
    must(["cmake", "--build", build, "-j", str(os.cpu_count() or 2)], env=env)
    lap("build downstream")
    p = run(["ctest", "--test-dir", build, "--output-on-failure"], env=env)
    print(p.stdout[-4000:])
    check(p.returncode == 0, "examples/downstream's ctest passes: the uploader passes, the race is caught")

    # The racy build's test, run as a user would: the failure's message.
    racy = os.path.join(build, "uploader_tests_racy")
    p = run([racy], env=env)
    out = p.stdout + p.stderr
    print(out[-5000:])
    check(p.returncode == 1, f"the racy uploader's test fails (exit {p.returncode})")
    check(re.search(r"\[ playtest \] Uploader\.\S+: strategy cover, 3 runs, seed 1 \(default", out) is not None,
          "the seed is printed before the runs (default 1)")
    check("playtest: verdict FAIL" in out, "the verdict is FAIL")
    check(re.search(r"message: .*complete", out) is not None, "the message names the missing output 'complete'")
    check(re.search(r"path:\n(.*\n)*.*upload", out) is not None, "the path of the failing run is printed")
    check(re.search(r"shrunk stimuli \(1 of \d+, failing \d+ of \d+ attempts\): upload\n", out) is not None,
          "the failure is shrunk to the one stimulus 'upload'")
    m = re.search(r"replay: (PLAYTEST_SEED=(\d+) (\S+) --gtest_filter=(\S+))\n", out)
    if not check(m is not None, "a replay line is printed"):
        return 1
    line, seed = m.group(1), m.group(2)
    lap("downstream tests")

    # 6. The replay line reproduces the failure and keeps the trace.
    traces = os.path.join(a.work, "traces")
    p = subprocess.run(["sh", "-c", line], capture_output=True, text=True, env=dict(env, PLAYTEST_TRACE_DIR=traces))
    out = p.stdout + p.stderr
    print("$ PLAYTEST_TRACE_DIR=" + traces + " " + line)
    print(out[-3000:])
    check(p.returncode == 1 and "playtest: verdict FAIL" in out, "the replay line fails the same way")
    check(f"seed {seed} (PLAYTEST_SEED)" in out, f"the replay plays seed {seed}, taken from PLAYTEST_SEED")
    trace = os.path.join(traces, "Uploader.EveryUploadCompletesWhicheverChunkFinishesFirst.jsonl")
    check(os.path.isfile(trace) and f"trace: {trace}" in out, "the trace is written to PLAYTEST_TRACE_DIR and named")
    check(os.path.isfile(trace[:-len(".jsonl")] + ".min.jsonl"), "the shrunk run's trace is written beside it")
    if os.path.isfile(trace):
        text = open(trace).read()
        check('"verdict":"FAIL"' in text.replace(" ", ""), "the trace records the FAIL")
        check("PLAYTEST_SEED=" + seed in text, "the trace's replay command is the replay line")
        html = os.path.join(a.work, "report.html")
        p = run([os.path.join(prefix, "bin/playtest"), "report", trace, "--model",
                 os.path.join(src, "uploader.json"), "-o", html], env=env)
        check(p.returncode == 0 and os.path.isfile(html), "the installed playtest report draws the trace")
    # A bad PLAYTEST_SEED is a failed test with the reason, not a crash.
    p = run([os.path.join(build, "uploader_tests")], env=dict(env, PLAYTEST_SEED="12x"))
    check(p.returncode == 1 and "PLAYTEST_SEED='12x' is not a seed" in p.stdout,
          "PLAYTEST_SEED=12x fails the test with the reason")
    lap("replay")
    print(f"-- total: {time.monotonic() - started:.1f} s")
    if failures:
        print(f"{len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
