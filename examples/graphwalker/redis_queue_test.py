"""AltWalker-style test code for examples/graphwalker/redis_queue.json: a Redis list as a queue.

Run by playtest through the adapter kit's playtest_altwalker (docs/graphwalker.md):

    playtest run examples/graphwalker/redis_queue.json \
        --sut "env REDIS_PORT=6379 python3 -m playtest_altwalker examples/graphwalker/redis_queue_test.py"

REDIS_PORT is the port of a running redis-server on 127.0.0.1. DROP_PUSH=K loses the K-th push (it is
not sent): a fault the verification at the next vertex finds.
"""

import os
import socket

KEY = "playtest:altwalker:queue"


class Redis:
    """Just enough of the Redis protocol (RESP) for the test: a command, its reply."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.file = self.sock.makefile("rb")

    def command(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = str(a).encode()
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        self.sock.sendall(out)
        return self.reply()

    def reply(self):
        line = self.file.readline().rstrip(b"\r\n")
        kind, rest = line[:1], line[1:]
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.file.read(n + 2)[:-2]
            return data.decode()
        if kind == b"+":
            return rest.decode()
        raise RuntimeError("Redis replied %r" % line)

    def close(self):
        self.sock.close()


class Queue:
    """The model Queue: one method per vertex and edge name."""

    def setUpModel(self):
        self.redis = Redis(int(os.environ["REDIS_PORT"]))
        self.drop = int(os.environ.get("DROP_PUSH", "0"))
        self.pushes = 0

    def tearDownModel(self):
        self.redis.command("DEL", KEY)
        self.redis.close()

    def e_Connect(self, data):
        self.redis.command("DEL", KEY)
        data["expected"] = []

    def e_Push(self, data):
        self.pushes += 1
        value = "item%d" % self.pushes
        data["expected"].append(value)
        if self.pushes != self.drop:
            self.redis.command("RPUSH", KEY, value)

    def e_Pop(self, data):
        got = self.redis.command("LPOP", KEY)
        want = data["expected"].pop(0)
        assert got == want, "LPOP gave %r, expected %r" % (got, want)

    def v_Empty(self, data):
        assert self.redis.command("LLEN", KEY) == 0, "the list is not empty"

    def v_Filled(self, data):
        n = self.redis.command("LLEN", KEY)
        assert n == len(data["expected"]), "LLEN is %d, expected %d" % (n, len(data["expected"]))
