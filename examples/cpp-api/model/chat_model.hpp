// The Chat model program of seed 001 §1 written with the C++ model API: clients post messages,
// the session delivers the current message to every other client before the next one. Two clients;
// client 0 only posts "hi", client 1 only posts "bye"; final when the queue is empty. Exploring it
// gives the test graph of the paper's Figure 1 (see examples/models/chat.ptm for the same model in
// the modelling language).
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "playtest/explore/cpp_model.hpp"

namespace chat_example {

using Message = std::tuple<int, std::string>;

struct ChatState {
  std::uint32_t clients = 0b11;     // set of clients as a bit mask
  std::vector<Message> queue;       // pending (sender, text) messages
  std::uint32_t recipients = 0;     // remaining recipients of the current (first) message

  bool operator==(const ChatState&) const = default;
};

inline std::string set_text(std::uint32_t mask) {
  std::string s = "{";
  for (int c = 0; c < 32; ++c)
    if (mask & (1u << c)) s += (s.size() > 1 ? ", " : "") + std::to_string(c);
  return s + "}";
}

}  // namespace chat_example

template <>
struct std::hash<chat_example::ChatState> {
  std::size_t operator()(const chat_example::ChatState& s) const noexcept {
    std::size_t h = s.clients * 31 + s.recipients;
    for (const auto& [sender, text] : s.queue) h = h * 1000003 + std::hash<std::string>{}(text) + sender;
    return h;
  }
};

namespace chat_example {

inline playtest::CppModel<ChatState> make_chat_model() {
  using S = ChatState;
  playtest::CppModel<S> m{S{}, "Chat"};
  const std::vector<Message> posts{{0, "hi"}, {1, "bye"}};
  m.controllable<Message>(
      "Post", posts,
      [](const S& s, const Message& p) {
        const int sender = std::get<0>(p);
        if (!(s.clients & (1u << sender))) return false;
        for (const auto& msg : s.queue)
          if (std::get<0>(msg) == sender) return false;
        return true;
      },
      [](S& s, const Message& p) {
        if (s.queue.empty()) s.recipients = s.clients & ~(1u << std::get<0>(p));
        s.queue.push_back(p);
      });
  std::vector<std::tuple<Message, int>> deliveries;
  for (int sender : {0, 1})
    for (const char* text : {"hi", "bye"})
      for (int r : {0, 1}) deliveries.emplace_back(Message{sender, text}, r);
  m.observable<std::tuple<Message, int>>(
      "Deliver", deliveries,
      [](const S& s, const std::tuple<Message, int>& a) {
        const auto& [msg, r] = a;
        return !s.queue.empty() && s.queue.front() == msg && (s.recipients & (1u << r));
      },
      [](S& s, const std::tuple<Message, int>& a) {
        const int r = std::get<1>(a);
        if (std::popcount(s.recipients) == 1) {
          if (s.queue.size() == 1)
            s.recipients = 0;
          else
            s.recipients = s.clients & ~(1u << std::get<0>(s.queue[1]));
          s.queue.erase(s.queue.begin());
        } else {
          s.recipients &= ~(1u << r);
        }
      });
  m.final([](const S& s) { return s.queue.empty(); });
  m.describe([](const S& s) {
    std::string q = "[";
    for (std::size_t i = 0; i < s.queue.size(); ++i)
      q += (i ? ", " : "") + playtest::label_arg(s.queue[i]);
    return "(clients=" + set_text(s.clients) + ", queue=" + q + "], recipients=" + set_text(s.recipients) + ")";
  });
  return m;
}

}  // namespace chat_example
