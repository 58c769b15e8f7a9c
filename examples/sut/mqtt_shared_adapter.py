#!/usr/bin/env python3
"""The adapter between playtest and a real MQTT broker (Debian's mosquitto) for the model
examples/models/mqtt_shared.ptm: an MQTT v5 shared subscription, group "g", topics "t" and "u",
written with the Python adapter kit (adapters/python) and the Eclipse Paho client (python3-paho-mqtt,
1.6 or later: MQTT v5).

It starts a mosquitto of its own on a free loopback port (a temporary configuration: a listener on
127.0.0.1, anonymous clients, no persistence), or, with --port, uses a broker that is running
there. It connects a publisher and N members (N from the model's parameter, PLAYTEST_PARAM_N),
MQTT v5 with a clean start and no session expiry:

  stimulus Subscribe(M, TP)     member M subscribes to $share/g/TP; acknowledged at the SUBACK
  stimulus Unsubscribe(M, TP)   member M unsubscribes from $share/g/TP; acknowledged at the UNSUBACK
  stimulus Publish(TP, X)       the publisher publishes X on TP with QoS 1; acknowledged at the PUBACK
  output   ?Got(M, TP, X)       member M received X on TP (written when it arrives; one that arrives
                                before the PUBACK is written right after the ack, as the kit does)

Reset: every client disconnects and connects again (same client ids, clean start), so the broker
drops their sessions and subscriptions: the group is empty on every topic, as at the start. The
broker keeps running.

Usage: mqtt_shared_adapter.py [--port PORT] [--topic-prefix P] [--mosquitto PATH] [--verbose]
  --port PORT        use the broker at 127.0.0.1:PORT instead of starting one
  --topic-prefix P   the topics are P + "t" and P + "u" (e.g. job{job}/ when several runs share a
                     broker: playtest puts the job's number for {job})
  --mosquitto PATH   the broker to start (default: mosquitto on PATH, else /usr/sbin/mosquitto)
  --verbose          pass the broker's log to standard error
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

try:
    import playtest_adapter as pa  # the Python adapter kit, installed (docs/adapter-protocol.md, "Installing the kits")
except ImportError as e:  # said in the protocol, so that playtest's verdict (ERROR) names the cause
    print("error %s for %s: install the Python adapter kit: pip install adapters/python (a playtest checkout), "
          "or playtest's .deb" % (e, sys.executable), flush=True)
    sys.exit(1)

try:
    import paho.mqtt.client as mqtt
except ImportError:
    # Debian's python3-paho-mqtt installs into the system interpreter's dist-packages; a python3
    # of another installation (pyenv, a virtualenv) on PATH does not look there. The package is pure
    # Python, so any python3 can use it.
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        sys.stdout.write("error the Python MQTT client paho-mqtt is missing (Debian: apt-get install python3-paho-mqtt)\n")
        sys.exit(1)

GROUP = "g"
WAIT = 5.0  # seconds for a broker's reply (CONNACK, SUBACK, UNSUBACK, PUBACK)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One MQTT v5 connection with its network thread (paho's loop) and a wait for each reply."""

    def __init__(self, adapter, client_id, port, on_message=None):
        self.adapter, self.client_id, self.closing = adapter, client_id, False
        self.cond = threading.Condition()
        self.connected = None  # the CONNACK's reason code once it came
        self.done = set()      # message ids of SUBACKs and UNSUBACKs received
        self.refused = {}      # message id -> reason codes of failed (un)subscriptions
        self.client = mqtt.Client(client_id=client_id, protocol=mqtt.MQTTv5)
        self.client.on_connect = self._connected
        self.client.on_subscribe = self._subscribed
        self.client.on_unsubscribe = self._unsubscribed
        self.client.on_disconnect = self._disconnected
        if on_message:
            self.client.on_message = on_message
        self.client.connect("127.0.0.1", port, clean_start=True)
        self.client.loop_start()
        with self.cond:
            if not self.cond.wait_for(lambda: self.connected is not None, WAIT):
                raise pa.AdapterFailure("%s: no CONNACK from the broker within %s s" % (client_id, WAIT))
        if self.connected.value != 0:
            raise pa.AdapterFailure("%s: the broker refused the connection: %s" % (client_id, self.connected))

    def _connected(self, client, userdata, flags, reason, properties=None):
        with self.cond:
            self.connected = reason
            self.cond.notify_all()

    def _disconnected(self, client, userdata, reason, properties=None):
        # A broker that went away is no verdict on it: the run ends ERROR (not a FAIL by silence).
        if not self.closing:
            why = mqtt.error_string(reason) if isinstance(reason, int) else str(reason)
            self.adapter.fail("%s: the connection to the broker ended (%s)" % (self.client_id, why))

    def _subscribed(self, client, userdata, mid, reasons, properties=None):
        self._reply(mid, [r for r in reasons if r.value >= 0x80])

    def _unsubscribed(self, client, userdata, mid, properties=None, reasons=None):
        if not isinstance(reasons, list):
            reasons = [reasons] if reasons is not None else []
        self._reply(mid, [r for r in reasons if r.value >= 0x80])

    def _reply(self, mid, failed):
        with self.cond:
            self.done.add(mid)
            if failed:
                self.refused[mid] = failed
            self.cond.notify_all()

    def wait_reply(self, what, result):
        rc, mid = result
        if rc != mqtt.MQTT_ERR_SUCCESS:
            raise pa.AdapterFailure("%s: %s" % (what, mqtt.error_string(rc)))
        with self.cond:
            if not self.cond.wait_for(lambda: mid in self.done, WAIT):
                raise pa.AdapterFailure("%s: no reply from the broker within %s s" % (what, WAIT))
            self.done.discard(mid)
            failed = self.refused.pop(mid, None)
        if failed:
            raise pa.AdapterFailure("%s: the broker refused it: %s" % (what, ", ".join(str(r) for r in failed)))

    def close(self):
        self.closing = True
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()


class MqttSharedAdapter(pa.Adapter):
    def __init__(self, options):
        super().__init__()
        self.options = options
        self.prefix = options.topic_prefix
        self.port = options.port
        self.broker = None
        self.config_dir = None
        self.publisher = None
        self.members = []
        self.ids = "playtest-%d" % os.getpid()

    # -- the broker
    def start_broker(self):
        binary = self.options.mosquitto or shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not os.path.exists(binary) and not shutil.which(binary):
            raise pa.AdapterFailure("mosquitto not found (Debian: apt-get install mosquitto; or give --mosquitto PATH)")
        self.config_dir = tempfile.mkdtemp(prefix="playtest-mqtt-")
        for _attempt in range(5):  # another process may take the free port before mosquitto does
            port = free_port()
            config = os.path.join(self.config_dir, "mosquitto.conf")
            with open(config, "w") as f:
                f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
            log = sys.stderr if self.options.verbose else subprocess.DEVNULL  # never our stdout
            self.broker = subprocess.Popen([binary, "-c", config], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline and self.broker.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    self.port = port
                    return
                except OSError:
                    time.sleep(0.02)
            self.stop_broker()
        raise pa.AdapterFailure("mosquitto did not start listening on a loopback port")

    def stop_broker(self):
        if self.broker:
            self.broker.kill()
            self.broker.wait()
            self.broker = None

    # -- the clients
    def connect(self):
        n = pa.param("N", 2, int)
        self.publisher = Client(self, self.ids + "-pub", self.port)
        self.members = [Client(self, "%s-m%d" % (self.ids, m), self.port, on_message=self.delivered(m)) for m in range(n)]

    def disconnect(self):
        for c in [self.publisher] + self.members:
            if c:
                c.close()
        self.publisher, self.members = None, []

    def delivered(self, m):
        def on_message(client, userdata, message):  # in member m's network thread
            topic = message.topic
            if self.prefix and topic.startswith(self.prefix):
                topic = topic[len(self.prefix):]
            self.output("Got", m, topic, message.payload.decode("utf-8", errors="replace"))
        return on_message

    def member(self, args):
        if not args or not isinstance(args[0], int) or not 0 <= args[0] < len(self.members):
            raise pa.Refused()
        return self.members[args[0]]

    # -- the protocol
    def on_start(self):
        if self.port is None:
            self.start_broker()
        self.connect()

    def on_reset(self):
        self.disconnect()
        self.connect()

    def on_stimulus(self, name, args):
        if name == "Subscribe" and len(args) == 2:
            c = self.member(args)
            c.wait_reply("Subscribe%r" % (tuple(args),),
                         c.client.subscribe("$share/%s/%s%s" % (GROUP, self.prefix, args[1]), qos=0))
        elif name == "Unsubscribe" and len(args) == 2:
            c = self.member(args)
            c.wait_reply("Unsubscribe%r" % (tuple(args),),
                         c.client.unsubscribe("$share/%s/%s%s" % (GROUP, self.prefix, args[1])))
        elif name == "Publish" and len(args) == 2:
            info = self.publisher.client.publish(self.prefix + args[0], str(args[1]).encode(), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                raise pa.AdapterFailure("Publish%r: %s" % (tuple(args), mqtt.error_string(info.rc)))
            info.wait_for_publish(WAIT)
            if not info.is_published():
                raise pa.AdapterFailure("Publish%r: no PUBACK from the broker within %s s" % (tuple(args), WAIT))
        else:
            raise pa.Refused()

    def on_stop(self):
        try:
            self.disconnect()
        finally:
            self.stop_broker()
            if self.config_dir:
                shutil.rmtree(self.config_dir, ignore_errors=True)
                self.config_dir = None


def main():
    parser = argparse.ArgumentParser(description="playtest adapter: an MQTT v5 shared subscription on mosquitto")
    parser.add_argument("--port", type=int, help="use the broker at 127.0.0.1:PORT instead of starting one")
    parser.add_argument("--topic-prefix", default="", help="prefix of the topics t and u on the broker")
    parser.add_argument("--mosquitto", help="the broker to start (default: mosquitto on PATH, else /usr/sbin/mosquitto)")
    parser.add_argument("--verbose", action="store_true", help="pass the broker's log to standard error")
    return MqttSharedAdapter(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
