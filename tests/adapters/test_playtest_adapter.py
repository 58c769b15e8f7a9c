#!/usr/bin/env python3
"""Tests of the Python adapter kit (adapters/python/playtest_adapter.py), run by ctest as
`adapter_kit_python`: labels exactly as the modelling language writes them (checked against the
labels `playtest explore` writes), the protocol's order (ready, ack, outputs raised during a
stimulus held until after its ack, refused, error, quiet), one reader thread per connection with
replies and pushes apart (no deadlock when a reply and a push cross), parameters from the
environment, and a whole run of `playtest run` through an adapter written with the kit.

Usage: test_playtest_adapter.py [--playtest BINARY] [unittest options]
"""

import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "adapters", "python"))
import playtest_adapter as pa  # noqa: E402

PLAYTEST = None  # set from --playtest


class Labels(unittest.TestCase):
    def test_format(self):
        self.assertEqual(pa.format_label("Put"), "Put")
        self.assertEqual(pa.format_label("Put", 1, "a"), 'Put(1, "a")')
        self.assertEqual(pa.format_label("?Msg", -3, True, False), "?Msg(-3, true, false)")
        self.assertEqual(pa.format_label("S", 'say "hi"\\'), 'S("say \\"hi\\"\\\\")')
        self.assertEqual(pa.format_label("T", (1, ("x", pa.Name("red")))), 'T((1, ("x", red)))')
        self.assertEqual(pa.format_label("Q", [1, 2], [], {3, 1}, frozenset()), "Q([1, 2], [], {1, 3}, {})")
        self.assertEqual(pa.format_label("M", {2: "b", 1: "a"}), 'M({1 -> "a", 2 -> "b"})')
        self.assertEqual(pa.format_label("O", pa.Set(["z", "a"])), 'O({"z", "a"})')
        with self.assertRaises(TypeError):
            pa.format_label("X", None)

    def test_parse(self):
        self.assertEqual(pa.parse_label("Put"), ("Put", []))
        self.assertEqual(pa.parse_label('?Msg(1, "news", "a, (b)")'), ("?Msg", [1, "news", "a, (b)"]))
        name, args = pa.parse_label('T((1, ("x\\"y", red)), [true, false], {}, {1 -> [2]}, {4, 5}, -7)')
        self.assertEqual(name, "T")
        self.assertEqual(args, [(1, ('x"y', "red")), [True, False], frozenset(), {1: [2]}, frozenset({4, 5}), -7])
        self.assertIsInstance(args[0][1][1], pa.Name)
        self.assertIsInstance(args[0][1][0], str)
        self.assertNotIsInstance(args[0][1][0], pa.Name)
        for bad in ['P("open', "P(1,", "P(1) x", 'P("\\n")', "P(-)"]:
            with self.assertRaises(ValueError, msg=bad):
                pa.parse_label(bad)

    def test_round_trip_of_every_label_playtest_writes(self):
        if not PLAYTEST:
            self.skipTest("no --playtest given")
        model = """
            enum Color { red, green }
            type Word = {"a", "b\\"q", "c\\\\d", "e, (f)"};
            var n: 0..2 = 0;
            controllable A(x: -2..1, c: Color, w: Word) require n == 0 { n := 1; }
            controllable B(t: (bool, Word), s: set<Color>) require n == 1 { n := 2; }
            observable C(q: (0..1, (Color, bool)), s: set<0..2>) require n == 2 { n := 0; }
        """
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "labels.ptm")
            with open(path, "w") as f:
                f.write(model)
            out = os.path.join(d, "g.json")
            subprocess.run([PLAYTEST, "explore", path, "-o", out], check=True, capture_output=True)
            with open(out) as f:
                labels = {e["label"] for e in json.load(f)["edges"]}
        self.assertGreater(len(labels), 50)
        for label in labels:
            name, args = pa.parse_label(label)
            self.assertEqual(pa.format_label(name, *args), label)


class Params(unittest.TestCase):
    def test_param(self):
        os.environ["PLAYTEST_PARAM_NW"] = "3"
        os.environ["PLAYTEST_PARAM_FLAG"] = "true"
        try:
            self.assertEqual(pa.param("NW"), "3")
            self.assertEqual(pa.param("NW", convert=int), 3)
            self.assertIs(pa.param("FLAG", convert=bool), True)
            self.assertEqual(pa.param("MISSING", 7), 7)
            # The conversion applies to a default given as text too (issue 36: "2" came back).
            self.assertEqual(pa.param("JOBS", "2", int), 2)
            self.assertIs(pa.param("VERBOSE", "false", bool), False)
            self.assertEqual(pa.param("JOBS", 3, int), 3)
            os.environ["PLAYTEST_PARAM_NW"] = "three"
            with self.assertRaisesRegex(pa.AdapterFailure, "PLAYTEST_PARAM_NW=three"):
                pa.param("NW", "2", int)
            with self.assertRaisesRegex(pa.AdapterFailure, "the default 'x' of the parameter JOBS"):
                pa.param("JOBS", "x", int)
        finally:
            del os.environ["PLAYTEST_PARAM_NW"], os.environ["PLAYTEST_PARAM_FLAG"]


class Lines:
    """A stdin that hands lines out as the test feeds them (blocking like a pipe)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.lines, self.closed = [], False

    def feed(self, line):
        with self.cond:
            self.lines.append(line + "\n")
            self.cond.notify_all()

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def __iter__(self):
        while True:
            with self.cond:
                self.cond.wait_for(lambda: self.lines or self.closed)
                if not self.lines:
                    return
                line = self.lines.pop(0)
            yield line


class Out(io.StringIO):
    """stdout whose lines can be awaited."""

    def __init__(self):
        super().__init__()
        self.cond = threading.Condition()

    def write(self, s):
        with self.cond:
            n = super().write(s)
            self.cond.notify_all()
            return n

    def lines(self):
        return self.getvalue().splitlines()

    def wait_for(self, line, timeout=5.0):
        with self.cond:
            ok = self.cond.wait_for(lambda: line in self.lines(), timeout)
        if not ok:
            raise AssertionError("%r not written; got %r" % (line, self.lines()))


def start(adapter):
    stdin, stdout = Lines(), Out()
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("status", adapter.run(stdin, stdout)), daemon=True)
    t.start()
    return stdin, stdout, t, result


class Protocol(unittest.TestCase):
    def test_ready_ack_and_outputs_held_until_after_the_ack(self):
        events = []

        class A(pa.Adapter):
            def on_start(self):
                events.append("start")

            def on_stimulus(self, name, args):
                if name == "go":
                    # Raised during the stimulus, by the handler and by another thread: both after the ack.
                    self.output("Early", 1)
                    t = threading.Thread(target=lambda: self.output("FromThread", "x"))
                    t.start()
                    t.join()
                    time.sleep(0.05)
                elif name == "no":
                    raise pa.Refused()
                elif name == "boom":
                    raise RuntimeError("the system\nfell over")

            def on_stop(self):
                events.append("stop")

        a = A()
        stdin, out, t, result = start(a)
        out.wait_for("ready")
        self.assertEqual(events, ["start"])
        stdin.feed("stimulus go(1, \"x\")")
        out.wait_for('output ?FromThread("x")')
        self.assertEqual(out.lines(), ["ready", "ack", "output ?Early(1)", 'output ?FromThread("x")'])
        # Outside a stimulus an output is written at once; quiet too.
        a.output("Late")
        a.quiet()
        out.wait_for("quiet")
        self.assertEqual(out.lines()[-2:], ["output ?Late", "quiet"])
        stdin.feed("stimulus no")
        out.wait_for("refused")
        stdin.feed("# a comment")
        stdin.feed("")
        stdin.feed("reset")
        self.assertEqual(out.lines().count("ready"), 1)
        deadline = time.time() + 5
        while out.lines().count("ready") < 2 and time.time() < deadline:
            time.sleep(0.01)
        self.assertEqual(out.lines().count("ready"), 2)
        self.assertEqual(events, ["start", "stop", "start"])
        stdin.feed("stimulus boom")
        t.join(5)
        self.assertEqual(result.get("status"), 1)
        # The error names where the adapter's code raised it (the whole traceback goes to stderr).
        self.assertRegex(out.lines()[-1],
                         r"^error RuntimeError: the system fell over \(at test_playtest_adapter\.py:\d+ in on_stimulus\)$")
        self.assertEqual(events[-1], "stop")

    def test_every_way_out_of_a_handler_gives_error_and_on_stop(self):
        """sys.exit, KeyboardInterrupt and a TypeError in on_stimulus, on_start or on_reset: an
        `error` line (never a silent end) and on_stop, exit status 1."""
        cases = [
            ("stimulus", lambda: sys.exit(), r"^error the adapter called sys\.exit\(\) \(at test_playtest_adapter\.py:\d+ in <lambda>\)$"),
            ("stimulus", lambda: sys.exit(3), r"^error the adapter called sys\.exit\(3\)"),
            ("stimulus", lambda: (_ for _ in ()).throw(KeyboardInterrupt()), r"^error KeyboardInterrupt"),
            ("stimulus", lambda: "x" + 1, r"^error TypeError: .*str.* \(at test_playtest_adapter\.py:\d+ in <lambda>\)$"),
            ("start", lambda: sys.exit(0), r"^error the adapter called sys\.exit\(0\)"),
            ("reset", lambda: sys.exit(), r"^error the adapter called sys\.exit\(\)"),
        ]
        for where, action, want in cases:
            with self.subTest(where=where, want=want):
                stops = []

                class A(pa.Adapter):
                    def on_start(self):
                        if where == "start":
                            action()

                    def on_stimulus(self, name, args):
                        action()

                    def on_reset(self):
                        action()

                    def on_stop(self):
                        stops.append(True)

                stdin, out, t, result = start(A())
                if where != "start":
                    out.wait_for("ready")
                    stdin.feed("stimulus go" if where == "stimulus" else "reset")
                t.join(5)
                self.assertFalse(t.is_alive())
                self.assertEqual(result.get("status"), 1)
                self.assertRegex(out.lines()[-1], want)
                self.assertEqual(stops, [True])

    def test_done_says_a_stimulus_s_outputs_are_complete(self):
        class A(pa.Adapter):
            def on_stimulus(self, name, args):
                if name == "answer":
                    self.output("Got", 1)
                    self.done()  # held: after the ack and the output
                elif name == "maybe":
                    self.done_after(0.1)  # an answer or nothing: 0.1 s after the ack, `done`
                elif name == "no":
                    self.done()
                    raise pa.Refused()

        a = A()
        stdin, out, t, result = start(a)
        out.wait_for("ready")
        stdin.feed("stimulus answer")
        out.wait_for("done")
        self.assertEqual(out.lines(), ["ready", "ack", "output ?Got(1)", "done"])
        stdin.feed("stimulus maybe")
        with out.cond:
            out.cond.wait_for(lambda: out.lines().count("ack") == 2, 5)
        began = time.time()
        a.output("Late", 2)  # within the settle time: before the `done`
        with out.cond:
            out.cond.wait_for(lambda: out.lines().count("done") == 2, 5)
        self.assertGreaterEqual(time.time() - began, 0.05)
        self.assertEqual(out.lines()[-3:], ["ack", "output ?Late(2)", "done"])
        # A new stimulus before the settle time is over: the old `done` is never written.
        stdin.feed("stimulus maybe")
        stdin.feed("stimulus no")
        out.wait_for("refused")
        time.sleep(0.25)
        self.assertEqual(out.lines()[-2:], ["ack", "refused"])
        stdin.feed("end")
        t.join(5)
        self.assertEqual(result.get("status"), 0)

    def test_settle_gives_every_stimulus_its_done(self):
        class A(pa.Adapter):
            settle = 0.02

            def on_stimulus(self, name, args):
                if name == "now":
                    self.done()

        stdin, out, t, result = start(A())
        out.wait_for("ready")
        stdin.feed("stimulus x")
        out.wait_for("done")
        stdin.feed("stimulus now")
        with out.cond:
            out.cond.wait_for(lambda: out.lines().count("done") == 2, 5)
        time.sleep(0.1)
        self.assertEqual(out.lines(), ["ready", "ack", "done", "ack", "done"])
        stdin.feed("end")
        t.join(5)

    def test_end_stops(self):
        stopped = []

        class A(pa.Adapter):
            def on_stimulus(self, name, args):
                pass

            def on_stop(self):
                stopped.append(True)

        stdin, out, t, result = start(A())
        out.wait_for("ready")
        stdin.feed("stimulus x")
        out.wait_for("ack")
        stdin.feed("end")
        t.join(5)
        self.assertEqual(result.get("status"), 0)
        self.assertEqual(stopped, [True])

    def test_garbage_and_bad_labels_are_errors(self):
        for line, want in [("hello", "error AdapterFailure: cannot handle the line 'hello'"),
                           ('stimulus P("x', 'error ValueError: bad label \'P("x\' at column 3: unterminated string')]:
            class A(pa.Adapter):
                def on_stimulus(self, name, args):
                    pass

            stdin, out, t, result = start(A())
            out.wait_for("ready")
            stdin.feed(line)
            t.join(5)
            self.assertEqual(out.lines()[-1], want)


class Server:
    """A line server: answers "ask N" with "answer N" after `delay`, and on "push" sends "pushed"
    at once on every connection."""

    def __init__(self, delay=0.0):
        self.delay = delay
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.conns = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)
            threading.Thread(target=self.serve, args=(c,), daemon=True).start()

    def serve(self, c):
        for raw in c.makefile("rb"):
            line = raw.decode().strip()
            if line.startswith("ask "):
                time.sleep(self.delay)
                c.sendall(("answer " + line[4:] + "\n").encode())
            elif line == "push":
                for other in list(self.conns):
                    other.sendall(b"pushed\n")

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


class Connections(unittest.TestCase):
    def test_replies_and_pushes_on_two_connections(self):
        server = Server(delay=0.05)
        pushes = []

        class A(pa.Adapter):
            def on_start(self):
                # Two connections, each with its reader: a push on B arrives while A waits for a reply.
                self.a = pa.LineConnection(self, "127.0.0.1", server.port, name="a",
                                           is_reply=lambda l: l.startswith("answer"),
                                           on_push=lambda l: self.output("Pushed", "a"))
                self.b = pa.LineConnection(self, "127.0.0.1", server.port, name="b",
                                           is_reply=lambda l: l.startswith("answer"),
                                           on_push=lambda l: (pushes.append(l), self.output("Pushed", "b")))

            def on_stimulus(self, name, args):
                self.b.send("push")
                reply = self.a.request("ask %d" % args[0])
                self.output("Answer", int(reply.split()[1]))

            def on_stop(self):
                self.a.close()
                self.b.close()

        stdin, out, t, result = start(A())
        out.wait_for("ready")
        stdin.feed("stimulus Ask(7)")
        out.wait_for("output ?Answer(7)")
        lines = out.lines()
        self.assertEqual(lines[:2], ["ready", "ack"])
        self.assertEqual(sorted(lines[2:]), sorted(['output ?Pushed("a")', 'output ?Pushed("b")', "output ?Answer(7)"]))
        self.assertEqual(pushes, ["pushed"])
        stdin.feed("end")
        t.join(5)
        self.assertEqual(result.get("status"), 0)
        server.close()

    def test_no_reply_in_time_is_an_error(self):
        server = Server(delay=1.0)

        class A(pa.Adapter):
            def on_start(self):
                self.a = pa.LineConnection(self, "127.0.0.1", server.port, name="slow", timeout=0.2)

            def on_stimulus(self, name, args):
                self.a.request("ask 1")

            def on_stop(self):
                self.a.close()

        stdin, out, t, result = start(A())
        out.wait_for("ready")
        stdin.feed("stimulus Ask")
        t.join(5)
        self.assertEqual(result.get("status"), 1)
        self.assertIn("slow: no reply to 'ask 1' within 0.2 s", out.lines()[-1])
        server.close()


class Docs(unittest.TestCase):
    def test_the_documented_adapters_are_the_examples(self):
        """docs/adapter-protocol.md shows the work-queue adapters as they are in examples/sut."""
        with open(os.path.join(SOURCE, "docs", "adapter-protocol.md")) as f:
            doc = f.read()
        with open(os.path.join(SOURCE, "examples", "sut", "jobq_adapter.py")) as f:
            # Everything after the docstring: the import lines every adapter needs too (issue 36).
            py = f.read().split('"""', 2)[2].strip("\n")
        self.assertIn("import playtest_adapter as pa", py)
        with open(os.path.join(SOURCE, "examples", "sut", "jobq_adapter.cpp")) as f:
            cpp = f.read().split('#include "playtest/adapter_kit.hpp"\n', 1)[1].strip("\n")
        self.assertIn("```python\n" + py + "\n```", doc)
        self.assertIn("```cpp\n" + cpp + "\n```", doc)


@unittest.skipUnless(os.name == "posix", "needs /bin/sh")
class WithPlaytest(unittest.TestCase):
    """playtest runs an adapter written with the kit: a model with strings, tuples and values."""

    def test_run(self):
        if not PLAYTEST:
            self.skipTest("no --playtest given")
        model = """
            param N: 1..5 = 2;
            type Id = slot<int, 2>;
            type Word = {"a b", "c\\"d"};
            var live: set<Id> = {};
            var pending: seq<(Word, 0..5), 1> = [];
            var asked: bool = false;
            controllable Open(w: Word) require not asked and size(live) < 2 { asked := true; pending := [(w, N)]; }
            observable Opened(i: Id, w: Word, n: 0..5) require asked and not (i in live) and head(pending) == (w, n)
              require value(i) > 0
            { asked := false; live := live + {i}; pending := []; }
            controllable Close(i: Id) require i in live and not asked { live := live - {i}; }
            reset;
        """
        adapter = '''
import sys
sys.path.insert(0, %r)
import playtest_adapter as pa
class A(pa.Adapter):
    def on_start(self):
        self.next = 40 + int(pa.param("N"))
        self.open = set()
    def on_stimulus(self, name, args):
        if name == "Open":
            self.next += 1
            self.open.add(self.next)
            self.output("Opened", self.next, args[0], int(pa.param("N")))
        elif name == "Close":
            if args[0] not in self.open:
                raise pa.AdapterFailure("closing %%r, which was never opened" %% (args[0],))
            self.open.discard(args[0])
        else:
            raise pa.Refused()
A().run()
''' % os.path.join(SOURCE, "adapters", "python")
        with tempfile.TemporaryDirectory() as d:
            mpath = os.path.join(d, "m.ptm")
            apath = os.path.join(d, "a.py")
            tpath = os.path.join(d, "t.jsonl")
            with open(mpath, "w") as f:
                f.write(model)
            with open(apath, "w") as f:
                f.write(adapter)
            r = subprocess.run([PLAYTEST, "run", mpath, "--sut", "%s %s" % (sys.executable, apath), "--param", "N=3",
                                "--strategy", "random", "--purpose", "none", "--steps", "60", "--seed", "3",
                                "--trace", tpath], capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            steps = [json.loads(l) for l in open(tpath) if '"step"' in l]
        concrete = [s.get("concrete", "") for s in steps]
        self.assertTrue(any(c.startswith('?Opened(44, "a b", 3)') or c.startswith('?Opened(44, "c\\"d", 3)')
                            for c in concrete), concrete)
        self.assertTrue(any(c.startswith("Close(4") for c in concrete), concrete)


def main():
    global PLAYTEST
    argv = [sys.argv[0]]
    i = 1
    while i < len(sys.argv):
        if sys.argv[i] == "--playtest":
            PLAYTEST = sys.argv[i + 1]
            i += 2
        else:
            argv.append(sys.argv[i])
            i += 1
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
