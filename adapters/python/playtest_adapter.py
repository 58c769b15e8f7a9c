"""The playtest adapter kit for Python (standard library only).

An adapter translates playtest's lines (docs/adapter-protocol.md) into calls of the system under
test. This module implements the protocol, so that an adapter only says what a stimulus does and
which outputs the system produces:

* ``ready`` after the start and after ``reset``, ``ack`` once a stimulus is applied, ``refused``
  when the handler raises :class:`Refused`, ``error`` (with the place in the adapter's code, and
  the whole traceback on standard error) when it raises anything else or calls ``sys.exit``; every
  way out of a handler but a return or :class:`Refused` ends with ``error`` and :meth:`Adapter.on_stop`;
* ``done`` when the outputs of a stimulus are complete: :meth:`Adapter.done` says so, and
  :meth:`Adapter.done_after` (or the class attribute ``settle``) says it after a settle time, for
  stimuli whose answer is a message or nothing;
* outputs raised while a stimulus is being applied (by the handler or by any other thread) are held
  back and written right after its ``ack``, in the order they were raised; outputs raised at any
  other time are written at once. Every line is written whole and flushed;
* :class:`LineConnection` gives each connection to the system a reader thread of its own, which
  hands replies to the request waiting for them and everything else to a callback (so that no
  thread ever waits for another to read: the deadlock of the hand-written adapter);
* labels are formatted and parsed as the modelling language writes them (docs/language.md):
  ``Name``, ``Name(1, "a", (2, true), [x])``, strings in double quotes with ``\\"`` and ``\\\\``,
  ``", "`` between arguments; outputs get their ``?``;
* :func:`param` reads the model's parameters, which ``playtest run`` passes in the adapter's
  environment as ``PLAYTEST_PARAM_<NAME>``.

A complete adapter::

    import playtest_adapter as pa

    class Echo(pa.Adapter):
        def on_stimulus(self, name, args):
            if name != "ping":
                raise pa.Refused()
            self.output("pong")          # written after the ack

    Echo().run()
"""

import os
import socket
import sys
import sysconfig
import threading
import traceback

__all__ = [
    "Adapter", "LineConnection", "Name", "Set", "Refused", "AdapterFailure",
    "format_label", "format_value", "parse_label", "param",
]


class Refused(Exception):
    """Raised by :meth:`Adapter.on_stimulus`: the system does not accept this stimulus now."""


class AdapterFailure(Exception):
    """Something the adapter cannot go on after (the run ends with the verdict ERROR)."""


class Name(str):
    """A bare name in a label: an enum member of the model (``red`` rather than ``"red"``)."""


# --------------------------------------------------------------------------- labels

def format_value(v):
    """A value as the modelling language writes it in labels."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Name):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, tuple):
        return "(" + ", ".join(format_value(x) for x in v) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    if isinstance(v, Set):
        return "{" + ", ".join(format_value(x) for x in v.items) + "}"
    if isinstance(v, (set, frozenset)):
        # The language lists a set's elements in the order of their type's values: numbers
        # ascending; strings and names as the model declares them (give such a set as Set([...])
        # in that order).
        return "{" + ", ".join(format_value(x) for x in sorted(v)) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join(format_value(k) + " -> " + format_value(v[k]) for k in sorted(v)) + "}"
    raise TypeError("cannot put %r into a label" % (v,))


class Set(frozenset):
    """A set that is written in the order given (the model's order of its element type's values);
    parse_label gives sets in the order the label has them."""

    def __new__(cls, items=()):
        items = list(dict.fromkeys(items))
        obj = super().__new__(cls, items)
        obj.items = items
        return obj


def format_label(name, *args):
    """``Name`` or ``Name(a, b)``; an output's name carries its ``?`` (``format_label("?Done", 1)``)."""
    if not args:
        return name
    return name + "(" + ", ".join(format_value(a) for a in args) + ")"


class _Reader:
    def __init__(self, text):
        self.text, self.i = text, 0

    def fail(self, what, at=None):
        raise ValueError("bad label %r at column %d: %s" % (self.text, (self.i if at is None else at) + 1, what))

    def peek(self):
        return self.text[self.i] if self.i < len(self.text) else ""

    def skip_blanks(self):
        while self.peek() == " ":
            self.i += 1

    def expect(self, s):
        if not self.text.startswith(s, self.i):
            self.fail("expected %r" % s)
        self.i += len(s)

    def value(self):
        self.skip_blanks()
        c = self.peek()
        if c == '"':
            start = self.i
            out, self.i = [], self.i + 1
            while True:
                if self.i >= len(self.text):
                    self.fail("unterminated string", start)
                c = self.text[self.i]
                if c == '"':
                    self.i += 1
                    return "".join(out)
                if c == "\\":
                    if self.i + 1 >= len(self.text) or self.text[self.i + 1] not in '"\\':
                        self.fail("unknown escape")
                    out.append(self.text[self.i + 1])
                    self.i += 2
                    continue
                out.append(c)
                self.i += 1
        if c == "-" or c.isdigit():
            j = self.i + 1
            while j < len(self.text) and self.text[j].isdigit():
                j += 1
            digits = self.text[self.i:j]
            if digits == "-":
                self.fail("expected a number")
            self.i = j
            return int(digits)
        if c == "(":
            self.i += 1
            items = self.items(")")
            return tuple(items)
        if c == "[":
            self.i += 1
            return self.items("]")
        if c == "{":
            self.i += 1
            self.skip_blanks()
            if self.peek() == "}":
                self.i += 1
                return Set()
            first = self.value()
            self.skip_blanks()
            if self.text.startswith("->", self.i):
                self.i += 2
                out = {first: self.value()}
                self.skip_blanks()
                while self.peek() == ",":
                    self.i += 1
                    k = self.value()
                    self.skip_blanks()
                    self.expect("->")
                    out[k] = self.value()
                    self.skip_blanks()
                self.expect("}")
                return out
            rest = [first]
            while self.peek() == ",":
                self.i += 1
                rest.append(self.value())
                self.skip_blanks()
            self.expect("}")
            return Set(rest)
        j = self.i
        while j < len(self.text) and (self.text[j].isalnum() or self.text[j] in "_#"):
            j += 1
        if j == self.i:
            self.fail("expected a value")
        word, self.i = self.text[self.i:j], j
        if word == "true":
            return True
        if word == "false":
            return False
        return Name(word)

    def items(self, close):
        out = []
        self.skip_blanks()
        if self.peek() == close:
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.skip_blanks()
            if self.peek() == close:
                self.i += 1
                return out
            self.expect(",")


def parse_label(text):
    """``(name, [args])`` of a label: ``parse_label('Put(1, "a")') == ("Put", [1, "a"])``.

    Strings come back as ``str``, numbers as ``int``, ``true``/``false`` as ``bool``, bare names as
    :class:`Name`, tuples as ``tuple``, sequences as ``list``, sets as :class:`Set` (a frozenset
    that keeps the label's order), maps as ``dict``. An output keeps its ``?`` in the name. Raises ``ValueError`` on a malformed label.
    """
    open_ = text.find("(")
    if open_ < 0:
        return text, []
    r = _Reader(text)
    r.i = open_ + 1
    args = r.items(")")
    if r.i != len(text):
        r.fail("text after the closing ')'")
    return text[:open_], args


def param(name, default=None, convert=None):
    """The model parameter ``name`` (``PLAYTEST_PARAM_<name>`` in the environment), or ``default``.

    ``convert`` (e.g. ``int``) is applied to the text, and to a default given as text too
    (``param("JOBS", "2", int) == 2`` whether or not the variable is set); ``true``/``false``
    become booleans when ``convert`` is ``bool``. A value ``convert`` refuses raises
    :class:`AdapterFailure` naming the variable.
    """
    text = os.environ.get("PLAYTEST_PARAM_" + name)
    where = "PLAYTEST_PARAM_%s=%s" % (name, text)
    if text is None:
        if default is None or convert is None:
            return default
        if not isinstance(default, str):
            return default if convert is bool else convert(default)
        text, where = default, "the default %r of the parameter %s" % (default, name)
    if convert is bool:
        if text not in ("true", "false"):
            raise AdapterFailure("%s is not true or false" % where)
        return text == "true"
    if not convert:
        return text
    try:
        return convert(text)
    except ValueError as e:
        raise AdapterFailure("%s: %s" % (where, e)) from e


_KIT_FILE = os.path.abspath(__file__)
_STDLIB = os.path.abspath(sysconfig.get_paths()["stdlib"])


def _where(exc):
    """Where ``exc`` was raised in the adapter's own code: ``"at jobq_adapter.py:35 in on_start"``
    (the innermost frame outside this kit and the standard library; else outside this kit), or
    ``""`` when every frame is the kit's."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) != _KIT_FILE]
    own = [f for f in frames if not os.path.abspath(f.filename).startswith(_STDLIB + os.sep)]
    f = (own or frames or [None])[-1]
    if f is None:
        return ""
    return "at %s:%d in %s" % (os.path.basename(f.filename), f.lineno, f.name)


def _describe(exc):
    """The ``error`` line's message for an exception that ended the adapter."""
    if isinstance(exc, SystemExit):
        text = "the adapter called sys.exit(%s)" % ("" if exc.code is None else repr(exc.code))
    elif isinstance(exc, KeyboardInterrupt):
        text = "KeyboardInterrupt"
    else:
        text = "%s: %s" % (type(exc).__name__, exc)
    where = _where(exc)
    return " ".join(text.split()) + (" (%s)" % where if where else "")


# --------------------------------------------------------------------------- the protocol

class Adapter:
    """Subclass it; override :meth:`on_stimulus` and, as needed, :meth:`on_start`,
    :meth:`on_reset` and :meth:`on_stop`; then call :meth:`run`.

    ``settle`` (seconds, default None): when set, every stimulus whose handler does not call
    :meth:`done` or :meth:`done_after` itself gets ``done`` that long after its ``ack``."""

    settle = None

    def __init__(self):
        self._lock = threading.Lock()
        self._applying = False
        self._held = []
        self._out = None
        self._stopping = False
        self._stimuli = 0            # stimuli begun: a pending done_after belongs to one of them
        self._done_for = 0           # the stimulus whose `done` was written (or held)
        self._settle_for = None      # (during a stimulus) the settle time asked for it

    # -- what an adapter overrides
    def on_start(self):
        """Bring the system to its initial state (connect, start it). Called before ``ready``."""

    def on_stimulus(self, name, args):
        """Apply the stimulus ``name(args)``; return once it is applied (the ``ack`` follows).
        Raise :class:`Refused` when the system does not take it now."""
        raise Refused()

    def on_reset(self):
        """Back to the initial state; by default :meth:`on_stop` then :meth:`on_start`."""
        self.on_stop()
        self.on_start()

    def on_stop(self):
        """The run is over: release the system."""

    # -- what an adapter calls, from any thread
    def output(self, name, *args):
        """The system produced the output ``?name(args)`` (``name`` without ``?``)."""
        self.output_label("?" + format_label(name, *args))

    def output_label(self, label):
        """The system produced the output ``label`` (as the model writes it, with its ``?``)."""
        self._emit("output " + label)

    def quiet(self):
        """The system is quiescent: playtest takes the timeout now instead of waiting."""
        self._emit("quiet")

    def done(self):
        """The outputs of the last stimulus are complete: nothing more comes from it (``done``).
        Raised during the stimulus, it is written after the ``ack`` and the outputs held back."""
        with self._lock:
            self._done_locked(self._stimuli)

    def done_after(self, seconds):
        """``done`` ``seconds`` after the ``ack`` of the current (or last) stimulus, unless another
        stimulus began meanwhile: for a stimulus whose answer may be a message or nothing, the
        time within which the system sends it. Outputs raised meanwhile are written at once."""
        with self._lock:
            if self._applying:
                self._settle_for = seconds
            else:
                self._start_settle(self._stimuli, seconds)

    def comment(self, text):
        """A ``#`` line: playtest ignores it (for people reading the adapter's output)."""
        self._emit("# " + text.replace("\n", " "), hold=False)

    def fail(self, message):
        """The adapter cannot go on: writes ``error MESSAGE`` and ends the process."""
        with self._lock:
            self._write("error " + " ".join(str(message).split()))
        self._exit(1)

    # -- the loop
    def run(self, stdin=None, stdout=None):
        """Speaks the protocol on ``stdin``/``stdout`` until ``end`` or end of file; returns the
        exit status (also the process's, when it ends through :meth:`fail`)."""
        stdin = stdin or sys.stdin
        self._out = stdout or sys.stdout
        try:
            self.on_start()
            self._line("ready")
            for raw in stdin:
                line = raw.rstrip("\n").rstrip("\r")
                if not line or line.startswith("#"):
                    continue
                if line == "end":
                    break
                if line == "reset":
                    with self._lock:
                        self._stimuli += 1  # a pending done_after belongs to the past
                    self.on_reset()
                    self._line("ready")
                elif line.startswith("stimulus "):
                    self._stimulus(line[len("stimulus "):])
                else:
                    raise AdapterFailure("cannot handle the line %r" % line)
        except BaseException as e:  # noqa: BLE001 - every way out (sys.exit too) becomes the verdict ERROR
            if not isinstance(e, (AdapterFailure, Refused)):
                traceback.print_exception(type(e), e, e.__traceback__, file=sys.stderr)
            with self._lock:
                self._write("error " + _describe(e))
            self._stop_quietly()
            return 1
        self._stop_quietly()
        return 0

    def _stimulus(self, label):
        name, args = parse_label(label)
        with self._lock:
            self._applying = True
            self._stimuli += 1
            self._settle_for = self.settle
        try:
            self.on_stimulus(name, args)
        except Refused:
            with self._lock:
                self._write("refused")
                self._held = [h for h in self._held if h != "done"]  # nothing to complete
                self._settle_for = None
                self._release()
            return
        except BaseException:
            with self._lock:
                self._applying = False
                self._held = []
            raise
        with self._lock:
            self._write("ack")
            self._release()
            if self._settle_for is not None and self._done_for != self._stimuli:
                self._start_settle(self._stimuli, self._settle_for)
            self._settle_for = None

    def _release(self):  # (lock held) outputs raised during the stimulus, after its answer
        held, self._held, self._applying = self._held, [], False
        for line in held:
            self._write(line)

    def _done_locked(self, stimulus):  # (lock held) `done` once per stimulus, after its outputs
        if stimulus != self._stimuli or self._done_for == stimulus or self._stopping:
            return
        self._done_for = stimulus
        self._settle_for = None
        if self._applying:
            self._held.append("done")
        else:
            self._write("done")

    def _start_settle(self, stimulus, seconds):  # (lock held)
        def fire():
            with self._lock:
                self._done_locked(stimulus)
        t = threading.Timer(max(0.0, seconds), fire)
        t.daemon = True
        t.start()

    def _emit(self, line, hold=True):
        with self._lock:
            if hold and self._applying:
                self._held.append(line)
            else:
                self._write(line)

    def _line(self, line):
        with self._lock:
            self._write(line)

    def _write(self, line):  # (lock held) one write per line, flushed
        if self._out is None:
            raise AdapterFailure("the adapter is not running (call run())")
        self._out.write(line + "\n")
        self._out.flush()

    def _stop_quietly(self):
        if self._stopping:
            return
        self._stopping = True
        try:
            self.on_stop()
        except Exception:  # noqa: BLE001 - the run is over either way
            pass

    def _exit(self, status):
        self._stop_quietly()
        try:
            self._out.flush()
        finally:
            os._exit(status)  # reader threads and the stdin loop may be blocked: end them all


class LineConnection:
    """A line-based connection to the system (TCP) with a reader thread of its own.

    Every line the system sends is either a reply to :meth:`request` (``is_reply(line)`` true) or
    something it pushes unasked, handed to ``on_push(line)`` in the reader thread. A closed
    connection or a failing callback ends the adapter with ``error`` (through ``adapter.fail``),
    unless :meth:`close` closed it.
    """

    def __init__(self, adapter, host, port, is_reply=lambda line: True, on_push=None, name="connection",
                 timeout=5.0):
        self.adapter, self.name, self.timeout = adapter, name, timeout
        self.is_reply, self.on_push = is_reply, on_push
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._sock.settimeout(None)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._file = self._sock.makefile("rb")
        self._cond = threading.Condition()
        self._replies = []
        self._closed = False
        self._send_lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, name=name, daemon=True)
        self._thread.start()

    def send(self, line):
        """Sends one line (a newline is added)."""
        with self._send_lock:
            self._sock.sendall(line.encode() + b"\n")

    def request(self, line, timeout=None):
        """Sends ``line`` and returns the reply, waiting at most ``timeout`` seconds."""
        with self._cond:
            self._replies.clear()
        self.send(line)
        with self._cond:
            if not self._cond.wait_for(lambda: self._replies or self._closed, timeout or self.timeout):
                raise AdapterFailure("%s: no reply to %r within %s s" % (self.name, line, timeout or self.timeout))
            if not self._replies:
                raise AdapterFailure("%s: closed before the reply to %r" % (self.name, line))
            return self._replies.pop(0)

    def close(self):
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _read(self):
        try:
            for raw in self._file:
                line = raw.decode(errors="replace").rstrip("\r\n")
                if self.is_reply(line):
                    with self._cond:
                        self._replies.append(line)
                        self._cond.notify_all()
                elif self.on_push:
                    self.on_push(line)
        except Exception as e:  # noqa: BLE001
            if not self._closed:
                self.adapter.fail("%s: %s" % (self.name, e))
            return
        with self._cond:
            was_closed, self._closed = self._closed, True
            self._cond.notify_all()
        if not was_closed:
            self.adapter.fail("%s: the system closed the connection" % self.name)
