#!/usr/bin/env python3
"""The adapter of examples/models/retained.ptm: a broker's retained message as new subscribers see
it, with the broker in process (a small component with a delivery thread, as a real broker's network
thread), written with the Python adapter kit (adapters/python).

A retained message comes to a new subscriber a few milliseconds after its SUBSCRIBE, or never (the
broker expired it): a stimulus whose answer is a message or nothing. The adapter cannot know which,
so it says when the answer is complete: `settle` (0.25 s) after each stimulus's ack the kit writes
`done`, and playtest takes the silence then instead of waiting its timeout
(docs/adapter-protocol.md, "Outputs that may or may not come").

  stimulus Publish(M)        publish M with retain
  stimulus Subscribe(C)      client C subscribes; output ?Retained(C, M) if the broker sends it
  stimulus Unsubscribe(C)    client C unsubscribes

Usage: retained_adapter.py [--late MS] [--seed N]
  --late MS   a fault: the broker sends a retained message MS ms late, after the settle time;
              playtest's FAIL then names the Subscribe the late message answers
"""

import argparse
import os
import random
import sys
import threading
import time

try:
    import playtest_adapter as pa  # the Python adapter kit, installed (docs/adapter-protocol.md, "Installing the kits")
except ImportError as e:  # said in the protocol, so that playtest's verdict (ERROR) names the cause
    print("error %s for %s: install the Python adapter kit: pip install adapters/python (a playtest checkout), "
          "or playtest's .deb" % (e, sys.executable), flush=True)
    sys.exit(1)


class Broker:
    """A retained message and a delivery thread: subscribe() hands the message to `deliver` in the
    broker's thread a few milliseconds later, unless it expired (half of the time, at random)."""

    def __init__(self, late_ms, rng):
        self.late_ms, self.rng = late_ms, rng
        self.retained = None
        self.cond = threading.Condition()
        self.queue = []  # (when, deliver, message)
        self.stopped = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def publish(self, message):
        with self.cond:
            self.retained = message

    def subscribe(self, deliver):
        with self.cond:
            if self.retained is None or self.rng.random() < 0.5:  # none, or expired
                return
            delay = (self.late_ms if self.late_ms else self.rng.uniform(1, 5)) / 1000.0
            self.queue.append((time.monotonic() + delay, deliver, self.retained))
            self.cond.notify()

    def run(self):
        with self.cond:
            while not self.stopped:
                if not self.queue:
                    self.cond.wait()
                    continue
                when, deliver, message = min(self.queue, key=lambda q: q[0])
                if time.monotonic() < when:
                    self.cond.wait(when - time.monotonic())
                    continue
                self.queue.remove((when, deliver, message))
                self.cond.release()
                try:
                    deliver(message)
                finally:
                    self.cond.acquire()

    def stop(self):
        with self.cond:
            self.stopped = True
            self.cond.notify()
        self.thread.join()


class RetainedAdapter(pa.Adapter):
    settle = 0.25  # a retained message comes within a few ms of its Subscribe (room for a loaded machine), or never

    def __init__(self, late_ms, seed):
        super().__init__()
        self.late_ms, self.rng = late_ms, random.Random(seed)
        self.broker = None

    def on_start(self):
        self.broker = Broker(self.late_ms, self.rng)

    def on_stimulus(self, name, args):
        if name == "Publish":
            self.broker.publish(args[0])
        elif name == "Subscribe":
            client = args[0]
            self.broker.subscribe(lambda message: self.output("Retained", client, message))
        elif name != "Unsubscribe":
            raise pa.Refused()

    def on_stop(self):
        if self.broker:
            self.broker.stop()
            self.broker = None


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--late", type=int, default=0)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("PLAYTEST_JOB", "0")))
    a = ap.parse_args()
    sys.exit(RetainedAdapter(a.late, a.seed).run())
