// Reading an input's whole text: a regular file, standard input ("-"), or a pipe or device named
// by path. Streams that could go on for ever (standard input, pipes, devices) stop at a size limit;
// a directory, a missing or unreadable file is an InputError naming the path, never an empty input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace playtest {

// The limit on what is read from a stream whose size is not known in advance (1 GiB). Larger
// models must be regular files, which the readers stream.
inline constexpr std::size_t max_stream_input_bytes = std::size_t{1} << 30;

enum class SourceKind : unsigned char {
  regular_file,  // a file on disk: its size is known
  stream,        // standard input, a pipe, a device, a socket
};

// What `path` is ("-" is standard input). Throws InputError "is a directory", "cannot open: ...".
SourceKind source_kind(const std::string& path);

// The whole text of `path` ("-" = standard input). Throws InputError when it cannot be read, is a
// directory, or is a stream longer than `limit` bytes ("... stops at the limit of N bytes").
// Standard input is read once: a second call returns the same text.
std::string read_source_text(const std::string& path, std::size_t limit = max_stream_input_bytes);

// The byte offset of the first byte of `text` that is not part of well-formed UTF-8 (overlong
// forms, surrogates and values above U+10FFFF are ill-formed), or npos when all of it is.
// Readers of text formats refuse such input with a location, so that every file playtest writes
// from it (graph/1 JSON, DOT, JUnit) it can read back.
std::size_t find_invalid_utf8(std::string_view text);

// `text` as it may be shown on a terminal: control characters (C0 but line break and tab, DEL, C1)
// escaped as JSON escapes them (\u001b), bytes that are not UTF-8 as \xNN; everything else as is.
// Bytes from the system under test, a trace or a model never reach a terminal raw (an escape
// sequence could clear the screen, retitle the window or hide the verdict).
std::string terminal_text(std::string_view text);

// The 1-based line and column of byte `offset` of `text` (columns count bytes).
std::pair<std::uint32_t, std::uint32_t> line_column_of(std::string_view text, std::size_t offset);

// Throws ParseError at the first ill-formed UTF-8 byte of `text`, if any ("invalid UTF-8 byte 0xFF";
// `what` says where in the format, e.g. "in a label").
void require_utf8(std::string_view text, const std::string& source_name);

}  // namespace playtest
