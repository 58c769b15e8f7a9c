#!/usr/bin/env python3
"""playtest's `solve --property` against Storm's exact QVBS reference values (issue 23, item 3).

For every MDP and DTMC benchmark of the Quantitative Verification Benchmark Set (a checkout of its
repository: the folder holding benchmarks/), every instance with at most --max-states states and
every property with an exact Storm result: the property's state formulas that are not labels are
declared as labels in a copy of the PRISM model ("label "qv1" = ...;"), PRISM exports the model
in its explicit format (`-exportmodel BASE.all`: .tra, .lab, .srew/.trew, several reward
structures numbered), and `playtest solve BASE.tra --property ... --json` answers the property with
those labels. The table (model, parameters, property, Storm's exact value, playtest's, error) is
printed as Markdown; docs/qvbs.md holds the one the repository keeps.

Usage: scripts/qvbs-check.py --qvbs DIR --prism PRISM [--playtest BIN] [--work DIR] [--max-states N]
                             [--exact] [--models a,b,...] [--timeout S]
PRISM is the `prism` launcher of a PRISM installation (only its model export is used).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from fractions import Fraction

sys.set_int_max_str_digits(0) if hasattr(sys, "set_int_max_str_digits") else None


def split_top(s, sep):
    """Splits s at top-level occurrences of sep (outside (), [], {})."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(s):
        c = s[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if depth == 0 and s.startswith(sep, i):
            parts.append(cur)
            cur = ""
            i += len(sep)
            continue
        cur += c
        i += 1
    parts.append(cur)
    return parts


def read_props(text):
    """name -> formula of a .props file ("name": formula;)."""
    text = re.sub(r"//[^\n]*", "", text)
    out = {}
    for stmt in text.split(";"):
        m = re.match(r'\s*"([^"]+)"\s*:\s*(.*)$', stmt, re.S)
        if m:
            out[m.group(1)] = " ".join(m.group(2).split())
    return out


class Labeller:
    """Turns state formulas that are not made of labels alone into fresh labels (the model's own
    labels inlined: PRISM's label definitions cannot name labels)."""

    def __init__(self, model_text, consts=None):
        self.consts = consts or {}
        self.labels = []  # (name, expression)
        self.defs = dict(re.findall(r'label\s+"([^"]+)"\s*=\s*(.*?);', re.sub(r"//[^\n]*", "", model_text), re.S))

    def state(self, expr):
        e = expr.strip()
        rest = re.sub(r'"[^"]+"|\btrue\b|\bfalse\b', "", e)
        if re.fullmatch(r"[\s&|!()]*", rest):
            return e  # labels combined with & | !: playtest reads them as they are
        inlined = re.sub(r'"([^"]+)"', lambda m: "(%s)" % self.defs.get(m.group(1), '"%s"' % m.group(1)), e)
        name = "qv%d" % (len(self.labels) + 1)
        self.labels.append((name, inlined))
        return '"%s"' % name

    def path(self, p):
        p = p.strip()
        m = re.match(r"F\s*(<=\s*\d+|<\s*\d+|\^\{rew\{\"[^\"]+\"\}<=\s*\w+\}|\{\"[^\"]+\"\}<=\s*\w+)?\s*(.*)$", p, re.S)
        if m and not re.match(r"F\w", p):
            bound = re.sub(r"\b[A-Za-z_]\w*\b", lambda c: str(self.consts.get(c.group(0), c.group(0))), m.group(1) or "")
            bound = bound.replace("rew{", "rew{")  # the keyword stays
            bound = re.sub(r"\b(\d+)\b", r"\1", bound)
            return "F%s %s" % (bound, self.state(m.group(2)))
        parts = split_top(p, " U ")
        if len(parts) == 2:
            rest = parts[1].strip()
            b = re.match(r"(<=\s*\d+|<\s*\d+)\s*(.*)$", rest, re.S)
            bound, right = (b.group(1), b.group(2)) if b else ("", rest)
            return "%s U%s %s" % (self.state(parts[0]), bound, self.state(right))
        raise ValueError("unsupported path formula: " + p)

    def query(self, q):
        q = q.strip()
        m = re.match(r"((?:P|R)(?:\{[^}]*\})?(?:min|max)?\s*(?:=\?|>=|<=|>|<)\s*[0-9.eE+-]*)\s*\[(.*)\]\s*$", q, re.S)
        if not m:
            raise ValueError("unsupported query: " + q)
        return "%s [ %s ]" % (m.group(1).replace(" ", ""), self.path(m.group(2)))

    def property(self, f):
        f = f.strip()
        m = re.match(r"filter\s*\((.*)\)\s*$", f, re.S)
        if m:
            args = split_top(m.group(1), ",")
            op, q = args[0].strip(), args[1]
            states = self.state(args[2]) if len(args) > 2 else '"init"'
            return "filter(%s, %s, %s)" % (op, self.query(q), states)
        return self.query(f)


def exact_value(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, dict) and "num" in v:
        return Fraction(int(v["num"]), int(v["den"]))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qvbs", required=True, help="the QVBS checkout (holding benchmarks/)")
    ap.add_argument("--prism", required=True, help="PRISM's launcher (bin/prism)")
    ap.add_argument("--playtest", default="build/rel/playtest")
    ap.add_argument("--work", default="/tmp/playtest-qvbs")
    ap.add_argument("--max-states", type=int, default=20000)
    ap.add_argument("--exact", action="store_true", help="solve with --exact")
    ap.add_argument("--models", default="", help="comma-separated model names (default: all MDPs and DTMCs)")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    wanted = set(filter(None, a.models.split(",")))
    rows = []
    for kind in ("dtmc", "mdp"):
        base = os.path.join(a.qvbs, "benchmarks", kind)
        for model in sorted(os.listdir(base)):
            if wanted and model not in wanted:
                continue
            idx_path = os.path.join(base, model, "index.json")
            if not os.path.exists(idx_path):
                continue
            idx = json.load(open(idx_path))
            for f in idx.get("files", []):
                orig = f.get("original-file", [])
                if isinstance(orig, str):
                    orig = [orig]
                prism_files = [o for o in orig if o.endswith((".prism", ".nm", ".pm"))]
                props_files = [o for o in orig if o.endswith(".props") or o.endswith(".pctl")]
                if not prism_files or not props_files or not os.path.exists(os.path.join(base, model, prism_files[0])):
                    continue
                props = {}
                for pf in props_files:
                    props.update(read_props(open(os.path.join(base, model, pf)).read()))
                model_text = open(os.path.join(base, model, prism_files[0])).read()
                fparams = ",".join("%s=%s" % (p["name"], p["value"]) for p in f.get("file-parameter-values", []))
                for o in f.get("open-parameter-values", []):
                    states = [s["number"] for s in o.get("states", [])]
                    if not states or states[0] > a.max_states:
                        continue
                    consts = ",".join("%s=%s" % (v["name"], str(v["value"]).lower()) for v in o.get("values", []))
                    results = [(r["property"], exact_value(r["value"])) for r in o.get("results", [])
                               if "exact" in r.get("note", "").lower() or isinstance(r["value"], bool)]
                    results = [(p, v) for p, v in results if v is not None and p in props]
                    if not results:
                        continue
                    lab = Labeller(model_text, {v["name"]: v["value"] for v in o.get("values", [])})
                    rewritten = {}
                    for p, _ in results:
                        try:
                            rewritten[p] = lab.property(props[p])
                        except ValueError as e:
                            rewritten[p] = None
                            print("skip %s %s: %s" % (model, p, e), file=sys.stderr)
                    tag = re.sub(r"[^A-Za-z0-9]+", "_", "%s_%s_%s" % (model, fparams, consts)).strip("_")
                    work = os.path.join(a.work, tag)
                    os.makedirs(work, exist_ok=True)
                    mfile = os.path.join(work, "model" + os.path.splitext(prism_files[0])[1])
                    with open(mfile, "w") as out:
                        out.write(model_text)
                        out.write("\n")
                        for name, expr in lab.labels:
                            out.write('label "%s" = %s;\n' % (name, expr))
                    exp = os.path.join(work, "m")
                    if not os.path.exists(exp + ".tra"):
                        cmd = [a.prism, mfile, "-exportmodel", exp + ".all"]
                        if consts:
                            cmd += ["-const", consts]
                        t = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
                        if t.returncode != 0 or not os.path.exists(exp + ".tra"):
                            print("PRISM failed on %s: %s" % (tag, t.stdout[-500:] + t.stderr[-500:]), file=sys.stderr)
                            continue
                    for p, ref in results:
                        prop = rewritten[p]
                        row = {"model": model, "kind": kind, "params": ",".join(filter(None, [fparams, consts])),
                               "states": states[0], "property": p, "formula": props[p], "storm": ref}
                        if prop is None:
                            row["status"] = "unsupported"
                            rows.append(row)
                            continue
                        cmd = [a.playtest, "solve", exp + ".tra", "--property", prop, "--json"]
                        if a.exact:
                            cmd.append("--exact")
                        t0 = time.time()
                        try:
                            r = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
                        except subprocess.TimeoutExpired:
                            row["status"] = "timeout"
                            rows.append(row)
                            continue
                        row["seconds"] = time.time() - t0
                        row["exit"] = r.returncode
                        if r.returncode not in (0, 5):
                            row["status"] = "error: " + r.stderr.strip().splitlines()[-1][:200] if r.stderr.strip() else "error"
                            rows.append(row)
                            continue
                        s = json.loads(r.stdout)["summary"]
                        row["certified"] = s.get("certified")
                        if isinstance(ref, bool):
                            row["playtest"] = s.get("holds")
                            row["error"] = 0 if s.get("holds") == ref else 1
                        else:
                            ve = s.get("value_exact")
                            val = Fraction(*map(int, ve.split("/"))) if ve else (
                                Fraction(s["value"]) if s.get("value") is not None else None)
                            row["playtest"] = val
                            row["playtest_double"] = s.get("value")
                            row["error"] = abs(float(val - ref)) if val is not None else float("inf")
                        row["status"] = "ok"
                        rows.append(row)
                        print("%-14s %-22s %-16s storm=%-22s playtest=%-22s err=%s %.2fs" % (
                            model, row["params"], p, fmt(ref), fmt(row.get("playtest")), row.get("error"),
                            row.get("seconds", 0)), file=sys.stderr)
    print("| model | parameters | states | property | Storm (exact) | playtest | error | certified | s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print("| %s | %s | %s | %s `%s` | %s | %s | %s | %s | %s |" % (
            r["model"], r["params"], r["states"], r["property"], r["formula"].replace("|", "\\|"), fmt(r["storm"]),
            fmt(r.get("playtest")) if r["status"] == "ok" else r["status"],
            ("%.1e" % r["error"]) if r["status"] == "ok" else "-", r.get("certified", "-"),
            ("%.2f" % r["seconds"]) if "seconds" in r else "-"))


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Fraction):
        return "%.15g" % float(v) if v.denominator != 1 or abs(v) > 1e15 else str(v.numerator)
    return str(v)


if __name__ == "__main__":
    main()
