// A file written whole or not at all (reports, JUnit files, learned models, minimal traces): the
// text goes to a temporary file beside the target, which replaces the target (rename, atomic on one
// file system) only at commit(). Until then the target keeps its previous content: a playtest that
// is stopped, killed or fails while writing never leaves a partial or empty file where a complete
// one was, and the temporary file is removed (also when a second signal makes playtest exit at
// once: it is tracked, exit_cleanup.hpp). "-" is standard output; a target that exists and is not a
// regular file (/dev/null, a pipe) is written directly, and so is a stream that must be on disk as
// it is written (Mode::streamed: a trace flushed step by step survives playtest being killed).
#pragma once

#include <fstream>
#include <iosfwd>
#include <memory>
#include <string>

#include "playtest/base/exit_cleanup.hpp"

namespace playtest {

class OutputFile {
 public:
  enum class Mode : unsigned char { whole, streamed };
  // Creates the temporary file (Mode::streamed: the target) now, so that an unwritable target fails
  // before any work: EnvironmentError "cannot open for writing: ..." naming `path` and the errno.
  explicit OutputFile(std::string path, Mode mode = Mode::whole);
  ~OutputFile();  // discard() unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  const std::string& path() const { return path_; }
  // Flushes, checks and renames the temporary file onto the target. EnvironmentError when the text
  // could not be written (a full disk) or renamed; the target is then left as it was.
  void commit();
  // Removes the temporary file; the target keeps its previous content.
  void discard() noexcept;

 private:
  const std::string& target() const { return target_.empty() ? path_ : target_; }

  std::string path_, temp_;  // temp_ empty: writing the target directly (or standard output)
  std::string target_;       // what a symbolic link `path_` leads to ("": path_ itself)
  std::unique_ptr<std::ofstream> file_;
  TrackedTempFile tracked_;
  bool done_ = false;
};

}  // namespace playtest
