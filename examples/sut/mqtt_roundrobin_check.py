#!/usr/bin/env python3
"""What does mosquitto do with a shared subscription? A check of the rule docs/mqtt-example.md states.

Plays random subscribes, unsubscribes, publishes and resets (every member disconnects and connects
again with a clean start) on the shared subscriptions $share/g/t and $share/g/u against a mosquitto
of its own (a free loopback port), and compares every delivery with the prediction: per topic, the
group's members in the order they subscribed; a message goes to the first, who moves to the end; an
unsubscribe removes a member, a subscribe appends it (one already subscribed stays where it is); a
reset empties the lists. Prints the number of publishes and of mismatches; exit status 1 on a
mismatch.

Usage: mqtt_roundrobin_check.py [--seed S] [--steps N] [--members M] [--mosquitto PATH]
"""

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

try:
    import paho.mqtt.client as mqtt
except ImportError:  # Debian's python3-paho-mqtt, from a python3 that is not Debian's (see the adapter)
    sys.path.append("/usr/lib/python3/dist-packages")
    import paho.mqtt.client as mqtt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--members", type=int, default=3)
    parser.add_argument("--mosquitto", default=shutil.which("mosquitto") or "/usr/sbin/mosquitto")
    o = parser.parse_args()

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="playtest-mqtt-check-")
    config = os.path.join(folder, "mosquitto.conf")
    with open(config, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
    broker = subprocess.Popen([o.mosquitto, "-c", config], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(250):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.02)
        return play(o, port)
    finally:
        broker.kill()
        broker.wait()
        shutil.rmtree(folder, ignore_errors=True)


def play(o, port):
    got, cond, replies = [], threading.Condition(), threading.Semaphore(0)

    def client(name):
        c = mqtt.Client(client_id=name, protocol=mqtt.MQTTv5)
        connected = threading.Event()
        c.on_connect = lambda *a: connected.set()
        c.on_subscribe = lambda *a: replies.release()
        c.on_unsubscribe = lambda *a: replies.release()

        def on_message(_c, _u, message):
            with cond:
                got.append(int(name[1:]))
                cond.notify_all()
        c.on_message = on_message
        c.connect("127.0.0.1", port, clean_start=True)
        c.loop_start()
        if not connected.wait(5):
            sys.exit("%s: no CONNACK" % name)
        return c

    def reply():
        if not replies.acquire(timeout=5):
            sys.exit("no SUBACK/UNSUBACK within 5 s")

    publisher = client("p")
    members = [client("m%d" % m) for m in range(o.members)]
    order = {"t": [], "u": []}  # the prediction: per topic, whose turn comes in which order
    rng = random.Random(o.seed)
    publishes = mismatches = 0
    for step in range(o.steps):
        r, tp, m = rng.random(), rng.choice("tu"), rng.randrange(o.members)
        if r < 0.25:
            members[m].subscribe("$share/g/" + tp, qos=0)
            reply()
            if m not in order[tp]:
                order[tp].append(m)
        elif r < 0.4:
            members[m].unsubscribe("$share/g/" + tp)
            reply()
            if m in order[tp]:
                order[tp].remove(m)
        elif r < 0.42:
            for c in members:
                c.disconnect()
                c.loop_stop()
            members = [client("m%d" % m) for m in range(o.members)]
            order = {"t": [], "u": []}
        else:
            publishes += 1
            n = len(got)
            publisher.publish(tp, b"x", qos=1).wait_for_publish(5)
            with cond:  # a delivery, or (nobody subscribed) a short wait for one that must not come
                cond.wait_for(lambda: len(got) > n, 2.0 if order[tp] else 0.05)
            time.sleep(0.005)  # a second delivery would be a mismatch too
            want = []
            if order[tp]:
                want = [order[tp][0]]
                order[tp] = order[tp][1:] + want
            if got[n:] != want:
                mismatches += 1
                print("step %d: publish on %s: predicted %s, delivered to %s" % (step, tp, want, got[n:]))
    print("publishes %d, mismatches %d" % (publishes, mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
