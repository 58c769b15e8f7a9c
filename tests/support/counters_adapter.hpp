// examples/models/counters.ptm as a system under test, for the CLI tests that play it (on the fly,
// explore-first): a shell adapter (docs/adapter-protocol.md) that acknowledges every stimulus and
// answers every Up* with ?Ack. The buggy one also acknowledges DownY with ?Ack, at an active state
// where the model allows no output (a FAIL).
#pragma once

#include <string>

namespace playtest::testing {

inline std::string counters_adapter(bool buggy) {
  return std::string(
             "echo ready\n"
             "while read -r cmd arg; do\n"
             "  case \"$cmd\" in\n"
             "    stimulus) echo ack\n"
             "      case \"$arg\" in\n"
             "        Up*) echo 'output ?Ack' ;;\n") +
         (buggy ? "        DownY) echo 'output ?Ack' ;;\n" : "") +
         "      esac ;;\n"
         "    reset) echo ready ;;\n"
         "    end) exit 0 ;;\n"
         "  esac\n"
         "done\n";
}

}  // namespace playtest::testing
