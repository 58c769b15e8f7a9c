"""AltWalker-style test code for examples/graphwalker/door.json, against a door simulated here.

    playtest run examples/graphwalker/door.json --sut "python3 -m playtest_altwalker examples/graphwalker/door_test.py"

DOOR_BUG=1 makes the simulated door stay open after e_Close: the verification v_Closed fails.
"""

import os


class Door:
    def setUpModel(self):
        self.open = False
        self.locked = False
        self.bug = os.environ.get("DOOR_BUG") == "1"

    def e_Init(self):
        self.open = False
        self.locked = False

    def e_Open(self):
        assert not self.locked, "opening a locked door"
        self.open = True

    def e_Close(self):
        if not self.bug:
            self.open = False

    def e_Lock(self):
        self.locked = True

    def e_Unlock(self):
        self.locked = False

    def v_Closed(self, data):
        data["closed_seen"] = data.get("closed_seen", 0) + 1
        assert not self.open, "the door is open"

    def v_Open(self):
        assert self.open, "the door is closed"

    def v_Locked(self):
        assert self.locked and not self.open, "the door is not locked"
