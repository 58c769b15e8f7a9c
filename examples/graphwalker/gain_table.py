#!/usr/bin/env python3
"""The gain table of docs/graphwalker.md: for every GraphWalker model file (JSON, or GraphML drawn in
yEd) in the folders given,
its vertices and edges, and the steps to cover every edge with GraphWalker's default
random(edge_coverage(100)) (playtest's random strategy plays the same walk: mean and 95th percentile
over the runs), with quick_random (playtest plays it as the planner) and with playtest's cover (the
optimal tour). Models playtest refuses are listed with the reason.

    examples/graphwalker/gain_table.py build/release/playtest DIR... [--runs 100] [--steps 1000000]
        [--together FILE,FILE,...]...

--together names the files of a model spread over several (GraphWalker's several -m): they are read
as one model (one row, "FIRST+SECOND+..."), each also on its own as it is found in the folders.

Steps count every element visited, vertices and edges, as GraphWalker's path does.
"""

import argparse
import json
import math
import re
import os
import subprocess
import sys


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, math.ceil(p / 100 * len(s)) - 1)
    return s[k]


def graphml_counts(path):
    # GraphWalker's GraphML (yEd): one model, as playtest and GraphWalker read it: its vertices are
    # the nodes that hold no subgraph, but the one labelled Start; its edges all edges, the one from
    # Start included (the start edge); BLOCKED elements and the edges of BLOCKED vertices left out.
    import xml.etree.ElementTree as ET
    g = "{http://graphml.graphdrawing.org/xmlns}"
    y = "{http://www.yworks.com/xml/graphml}"
    root = ET.parse(path).getroot()
    start, blocked = set(), set()
    vertices = 0
    for n in root.iter(g + "node"):
        if n.find(g + "graph") is not None:
            continue
        label = "".join(l.text or "" for l in n.iter(y + "NodeLabel")).strip()
        if label.lower() == "start":
            start.add(n.get("id"))
        elif re.search(r"\bBLOCKED\b", label):
            blocked.add(n.get("id"))
        else:
            vertices += 1
    edges = 0
    for e in root.iter(g + "edge"):
        label = "".join(l.text or "" for l in e.iter(y + "EdgeLabel"))
        if not (re.search(r"\bBLOCKED\b", label) or e.get("source") in blocked or e.get("target") in blocked):
            edges += 1
    return (1, vertices, edges)


def counts(path):
    if path.endswith(".graphml"):
        return graphml_counts(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # GraphWalker's reader takes comments (a licence header); Python's does not.
    text = re.sub(r"^\s*/\*.*?\*/", "", text, flags=re.S)
    doc = json.loads(text)
    models = doc.get("models", []) if isinstance(doc, dict) else []

    def blocked(el):  # GraphWalker's BLOCKED in JSON, left out with a blocked vertex's edges
        props = el.get("properties") if isinstance(el, dict) else None
        return isinstance(props, dict) and props.get("blocked") is True

    vertices = edges = 0
    for m in models:
        out = {v.get("id") for v in m.get("vertices", []) if blocked(v)}
        vertices += sum(1 for v in m.get("vertices", []) if not blocked(v))
        edges += sum(1 for e in m.get("edges", []) if not blocked(e) and e.get("sourceVertexId") not in out
                     and e.get("targetVertexId") not in out)
    return (len(models), vertices, edges)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("playtest")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--steps", type=int, default=1000000)
    ap.add_argument("--together", action="append", default=[])
    a = ap.parse_args()
    files = []
    for d in a.dirs:
        for root, _, names in os.walk(d):
            files += [[os.path.join(root, n)] for n in sorted(names) if n.endswith((".json", ".graphml"))]
    files += [t.split(",") for t in a.together]
    print("| model | models | vertices | edges | random: mean | random: p95 | quick_random (planner): mean | cover |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    refused = []
    for paths in files:
        path = paths[0]
        name = os.path.relpath(path, os.path.commonpath(a.dirs) if len(a.dirs) > 1 else a.dirs[0])
        name += "".join("+" + os.path.basename(p) for p in paths[1:])
        try:
            m = v = e = 0
            for p in paths:
                mp, vp, ep = counts(p)
                m, v, e = m + mp, v + vp, e + ep
        except (ValueError, UnicodeDecodeError) as ex:
            refused.append((name, "not JSON: %s" % ex))
            continue
        except SyntaxError:  # not XML (ElementTree's ParseError): playtest says where
            m = v = e = 0
        r = subprocess.run([a.playtest, "simulate", *paths, "--generator",
                            "random(edge_coverage(100))", "--strategy", "random,planner,cover", "--runs",
                            str(a.runs), "--steps", str(a.steps), "--json"], capture_output=True, text=True)
        if r.returncode != 0:
            errors = [l for l in r.stderr.splitlines() if "error:" in l] or ["exit %d" % r.returncode]
            refused.append((name, errors[0].replace("playtest: ", "", 1)))
            continue
        rows = {row["strategy"]: row for row in json.loads(r.stdout)["strategies"]}
        # The distribution of the random walk's steps: one run per seed (simulate's JSON has the
        # mean and the standard deviation).
        random_steps = []
        if rows["random"]["success_rate"] == 1:
            for seed in range(1, a.runs + 1):
                one = subprocess.run([a.playtest, "simulate", *paths, "--generator",
                                      "random(edge_coverage(100))", "--strategy", "random", "--runs", "1", "--seed",
                                      str(seed), "--steps", str(a.steps), "--json"], capture_output=True, text=True)
                random_steps.append(json.loads(one.stdout)["strategies"][0]["mean_steps"])

        def cell(s, p=None):
            row = rows[s]
            if row["success_rate"] < 1:
                return "%d%% of runs" % round(100 * row["success_rate"])
            return "%.1f" % row["mean_steps"] if p is None else "%d" % percentile(random_steps, p)

        print("| %s | %d | %d | %d | %s | %s | %s | %s |" % (name, m, v, e, cell("random"), cell("random", 95),
                                                            cell("planner"), cell("cover")))
    if refused:
        print()
        print("| refused | why |")
        print("| --- | --- |")
        for name, why in refused:
            print("| %s | %s |" % (name, why.replace("|", "\\|")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
