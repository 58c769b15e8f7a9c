#include "playtest/session/replay_command.hpp"

#include <algorithm>

namespace playtest {

std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789_@%+=:,./-") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string replay_command(const std::vector<std::string>& args, const std::vector<std::string>& drop,
                           const std::vector<std::string>& drop_flags, const std::vector<std::string>& append) {
  std::string out;
  auto add = [&](const std::string& a) { out += (out.empty() ? "" : " ") + shell_quote(a); };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (i > 0 && std::find(drop.begin(), drop.end(), name) != drop.end()) {
      if (name == a) ++i;  // "--seed 5": the value is the next word
      continue;
    }
    if (i > 0 && std::find(drop_flags.begin(), drop_flags.end(), a) != drop_flags.end()) continue;
    add(a);
  }
  for (const std::string& a : append) add(a);
  return out;
}

}  // namespace playtest
