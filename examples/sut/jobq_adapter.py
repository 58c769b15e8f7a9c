#!/usr/bin/env python3
"""The adapter between playtest and the work-queue server examples/sut/jobq_server.cpp, for the
model examples/models/jobq.ptm, written with the Python adapter kit (adapters/python).

It starts a fresh server for every run (and at every reset), with the model's time-to-run
(PLAYTEST_PARAM_TTR, which playtest passes from the model's --param), and opens three connections:
the producer's and one per worker. Each has a reader thread of its own (LineConnection): a worker's
RESERVED may come at any time, also while another connection waits for a reply.

  stimulus Put             put job on the producer's connection; output ?Inserted(ID)
  stimulus Reserve(W)      reserve on worker W's connection; output ?Reserved(W, ID) when a job comes
  stimulus Delete(W, ID)   delete ID on worker W's connection; output ?Deleted(W) (or ?NotFound(W))

Usage: jobq_adapter.py SERVER [SERVER_OPTIONS...]   (e.g. build/release/examples/sut/jobq_server --no-ttr)
"""

import subprocess
import sys

try:
    import playtest_adapter as pa  # the Python adapter kit, installed (docs/adapter-protocol.md, "Installing the kits")
except ImportError as e:  # said in the protocol, so that playtest's verdict (ERROR) names the cause
    print("error %s for %s: install the Python adapter kit: pip install adapters/python (a playtest checkout), "
          "or playtest's .deb" % (e, sys.executable), flush=True)
    sys.exit(1)

WORKERS = 2


class JobQueueAdapter(pa.Adapter):
    def __init__(self, server):
        super().__init__()
        self.server_command = server
        self.server = None
        self.producer = None
        self.workers = []

    def on_start(self):
        ttr = pa.param("TTR", "300")
        self.server = subprocess.Popen(self.server_command + ["--port", "0", "--ttr", ttr], stdout=subprocess.PIPE,
                                       text=True)
        first = self.server.stdout.readline().split()
        if len(first) != 2 or first[0] != "PORT":
            raise pa.AdapterFailure("the server did not say its port (got %r)" % " ".join(first))
        port = int(first[1])
        self.producer = pa.LineConnection(self, "127.0.0.1", port, name="producer")
        for w in range(WORKERS):
            self.workers.append(pa.LineConnection(
                self, "127.0.0.1", port, name="worker %d" % w,
                is_reply=lambda line: not line.startswith("RESERVED "),
                on_push=lambda line, w=w: self.reserved(w, line)))

    def reserved(self, w, line):  # in worker w's reader thread
        _, job_id, _body = line.split(" ", 2)
        self.output("Reserved", w, int(job_id))

    def on_stimulus(self, name, args):
        if name == "Put":
            reply = self.producer.request("put job").split()
            if reply[0] != "INSERTED":
                raise pa.AdapterFailure("put: the server answered %r" % " ".join(reply))
            self.output("Inserted", int(reply[1]))
        elif name == "Reserve":
            self.workers[args[0]].send("reserve")  # its RESERVED comes when a job is there
        elif name == "Delete":
            w, job_id = args
            reply = self.workers[w].request("delete %d" % job_id)
            self.output("Deleted" if reply == "DELETED" else "NotFound", w)
        else:
            raise pa.Refused()

    def on_stop(self):
        for c in [self.producer] + self.workers:
            if c:
                c.close()
        self.producer, self.workers = None, []
        if self.server:
            self.server.kill()
            self.server.wait()
            self.server = None


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: jobq_adapter.py SERVER [SERVER_OPTIONS...]")
    sys.exit(JobQueueAdapter(sys.argv[1:]).run())
