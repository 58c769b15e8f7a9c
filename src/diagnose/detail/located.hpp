// An error located at a line of a file. Built member by member: GCC 12 misreads some nested
// aggregate initializers of Diagnostic as using an uninitialized string (-Wmaybe-uninitialized).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"

namespace playtest::detail {

template <class E>
[[noreturn]] void throw_at(const std::string& file, std::uint32_t line, std::string message,
                           std::vector<std::string> notes = {}) {
  Diagnostic d;
  d.where.file = file;
  d.where.line = line;
  d.where.column = line ? 1 : 0;
  d.message = std::move(message);
  d.notes = std::move(notes);
  throw E(std::move(d));
}

}  // namespace playtest::detail
