#!/usr/bin/env python3
"""The .deb: build it from this build with CPack (as scripts/package.sh does), inspect it with
dpkg-deb -I / -c, and install it with dpkg into a scratch root.

Checks: the control fields (package, version, architecture, the shared-library dependencies that
dpkg-shlibdeps found for the binary, the -dev packages the library's users need); the files where
Debian puts them (everything under /usr: bin, include, lib/<triplet> with cmake/ and pkgconfig/,
lib/python3/dist-packages, share/man/man1 gzipped, share/bash-completion/completions, share/doc),
a man page for every command, no detail/ header; then, from the scratch root, `playtest --version`
runs, `import playtest_adapter` works from the installed dist-packages, and find_package(playtest)
finds the installed CMake package. Exit 77 (skipped) where cpack's DEB generator cannot run
(dpkg-deb or dpkg-shlibdeps missing: scripts/setup.sh installs dpkg-dev).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--libdir", required=True, help="CMAKE_INSTALL_LIBDIR (lib/<triplet>)")
    ap.add_argument("--version", required=True)
    ap.add_argument("--playtest", required=True, help="the built tool (for its command list)")
    a = ap.parse_args()
    for tool in ("dpkg-deb", "dpkg-shlibdeps", "cpack", "dpkg"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} not found (scripts/setup.sh installs dpkg-dev)")
            return 77
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what, flush=True)
        if not ok:
            failures.append(what)
        return ok

    started = time.monotonic()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    cmd = ["cpack", "-G", "DEB", "--config", os.path.join(a.build_dir, "CPackConfig.cmake"), "-B", a.work]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout[-3000:], p.stderr[-3000:])
    debs = [f for f in os.listdir(a.work) if f.endswith(".deb")]
    if not check(p.returncode == 0 and len(debs) == 1, f"cpack -G DEB makes one .deb: {debs}"):
        return 1
    deb = os.path.join(a.work, debs[0])
    print(f"-- cpack: {time.monotonic() - started:.1f} s, {os.path.getsize(deb) / 1e6:.1f} MB", flush=True)
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    check(debs[0] == f"playtest_{a.version}_{arch}.deb", f"Debian's file name playtest_{a.version}_{arch}.deb")

    # Control fields.
    info = subprocess.run(["dpkg-deb", "-I", deb], capture_output=True, text=True, check=True).stdout
    print(info)
    fields = dict(re.findall(r"^ ([A-Za-z-]+): (.*)$", info, re.M))
    check(fields.get("Package") == "playtest", "Package: playtest")
    check(fields.get("Version") == a.version, f"Version: {a.version}")
    check(fields.get("Architecture") == arch, f"Architecture: {arch}")
    depends = fields.get("Depends", "")
    # dpkg-shlibdeps: the packages of the shared libraries the binary links, with their versions.
    for pkg in ("libc6", "libstdc++6", "libfmt", "libgmp", "libexpat1"):
        check(re.search(rf"(^|, ){re.escape(pkg)}[0-9a-z.]* \(>= [^)]+\)", depends) is not None,
              f"Depends has {pkg}* (>= version) from dpkg-shlibdeps")
    # Debian's shlibs file of Clp names no version.
    check(re.search(r"(^|, )coinor-libclp[0-9]+(,|$| )", depends) is not None,
          "Depends has coinor-libclp* (the shared Clp the binary links) from dpkg-shlibdeps")
    for pkg in ("nlohmann-json3-dev", "libfmt-dev", "coinor-libclp-dev", "libgmp-dev"):
        check(re.search(rf"(^|, ){re.escape(pkg)}( |,|$)", depends) is not None,
              f"Depends has {pkg} (the library's users compile against it)")
    check(bool(fields.get("Description")) and bool(fields.get("Maintainer")), "Description and Maintainer are set")

    # Files.
    listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
    entries = {}
    for line in listing.splitlines():
        parts = line.split(None, 5)
        path = parts[5].split(" -> ")[0]
        entries[path.rstrip("/")] = parts[0]
    files = {p for p, mode in entries.items() if not mode.startswith("d")}
    check(all(p == "." or p == "./usr" or p.startswith("./usr/") for p in entries), "every file is under /usr")
    check(entries.get("./usr/bin/playtest", "").startswith("-rwxr-xr-x"), "/usr/bin/playtest, mode 755")
    lib = "./usr/" + a.libdir
    expect = ["./usr/include/playtest/gtest.hpp", "./usr/include/playtest/run/in_process_adapter.hpp",
              "./usr/include/playtest/adapter_kit.hpp", f"{lib}/libplaytest_graph.a", f"{lib}/libplaytest_campaign.a",
              f"{lib}/cmake/playtest/playtestConfig.cmake", f"{lib}/cmake/playtest/playtestConfigVersion.cmake",
              f"{lib}/cmake/playtest/playtestTargets.cmake", f"{lib}/pkgconfig/playtest.pc",
              "./usr/lib/python3/dist-packages/playtest_adapter.py",
              "./usr/share/bash-completion/completions/playtest", "./usr/share/man/man1/playtest.1.gz",
              "./usr/share/doc/playtest/README.md"]
    for e in expect:
        check(e in files, f"{e[1:]}")
    check(not any("/detail/" in p for p in files), "no detail/ header")
    check(not any(p.startswith("./usr/lib/") and p.endswith(".a") and not p.startswith(lib + "/") for p in files),
          f"static libraries only in /usr/{a.libdir}")
    check(not any(p.startswith("./usr/share/man/") and not p.endswith(".gz") for p in files), "man pages gzipped")
    helps = subprocess.run([a.playtest, "--help"], capture_output=True, text=True).stdout
    commands = re.findall(r"^  (\S+)\s{2,}", helps.split("Subcommands:")[1], re.M)
    missing = [c for c in commands if f"./usr/share/man/man1/playtest-{c}.1.gz" not in files]
    check(len(commands) >= 10 and not missing, f"a man page for each of the {len(commands)} commands"
          + (f": missing {missing}" if missing else ""))

    # Installed into a scratch root with dpkg (its own database there), else unpacked.
    root = os.path.join(a.work, "root")
    admin = os.path.join(root, "var/lib/dpkg")
    for d in ("info", "updates", "triggers"):
        os.makedirs(os.path.join(admin, d), exist_ok=True)
    open(os.path.join(admin, "status"), "w").close()
    cmd = ["dpkg", f"--root={root}", "--force-depends", "--force-not-root", "--force-script-chrootless",
           "--no-triggers", "-i", deb]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout[-2000:], p.stderr[-2000:])
    if p.returncode == 0:
        st = subprocess.run(["dpkg", f"--root={root}", "-s", "playtest"], capture_output=True, text=True).stdout
        check("Status: install ok installed" in st, "dpkg -i into the scratch root: installed")
    else:
        print("dpkg -i into a scratch root is not possible here (above); unpacking with dpkg-deb -x instead")
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    exe = os.path.join(root, "usr/bin/playtest")
    v = subprocess.run([exe, "--version"], capture_output=True, text=True)
    check(v.returncode == 0 and v.stdout.strip() == f"playtest {a.version}",
          f"the installed playtest --version runs: {v.stdout.strip()!r}")
    r = subprocess.run([exe, "validate", "--help"], capture_output=True, text=True)
    check(r.returncode == 0 and "Usage:" in r.stdout, "the installed playtest runs a command")
    site = os.path.join(root, "usr/lib/python3/dist-packages")
    for python in ("/usr/bin/python3", sys.executable):
        if not os.access(python, os.X_OK):
            continue
        r = subprocess.run([python, "-c", "import playtest_adapter, sys; print(playtest_adapter.__file__)"],
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=site))
        check(r.returncode == 0 and r.stdout.strip().startswith(site), f"{python}: import playtest_adapter from "
              "the installed dist-packages")
    if os.access("/usr/bin/python3", os.X_OK):
        r = subprocess.run(["/usr/bin/python3", "-c", "import sys; print('\\n'.join(sys.path))"],
                           capture_output=True, text=True)
        check("/usr/lib/python3/dist-packages" in r.stdout.split(),
              "Debian's python3 searches /usr/lib/python3/dist-packages (import works with the .deb installed)")
    # The CMake package from the installed tree (relocatable: found under the scratch root).
    probe = os.path.join(a.work, "probe")
    os.makedirs(probe)
    with open(os.path.join(probe, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.25)\nproject(probe CXX)\nfind_package(playtest 0.1 REQUIRED)\n"
                "get_target_property(inc playtest::graph INTERFACE_INCLUDE_DIRECTORIES)\n"
                'message(STATUS "playtest include: ${inc}")\n')
    r = subprocess.run(["cmake", "-S", probe, "-B", os.path.join(probe, "b"), f"-DCMAKE_PREFIX_PATH={root}/usr"],
                       capture_output=True, text=True)
    print(r.stdout[-1500:], r.stderr[-1500:])
    check(r.returncode == 0 and f"playtest include: {root}/usr/include" in r.stdout,
          "find_package(playtest 0.1) finds the installed package, headers in <root>/usr/include")
    print(f"-- total: {time.monotonic() - started:.1f} s")
    if failures:
        print(f"{len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
