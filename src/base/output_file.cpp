#include "playtest/base/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

[[noreturn]] void cannot_open(const std::string& path, int err) {
  throw EnvironmentError(path, err, "cannot open for writing");
}

// A fresh name beside `path` (same directory, so that rename replaces the target atomically),
// created exclusively with the usual mode (umask applies); "" with errno set when none can be.
std::string create_temp_beside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temp = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter.fetch_add(1));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return temp;
    }
    if (errno != EEXIST) return {};
  }
  errno = EEXIST;
  return {};
}

}  // namespace

OutputFile::OutputFile(std::string path, Mode mode) : path_(std::move(path)) {
  if (path_ == "-") return;
  struct stat st {};
  const bool special = ::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
  if (special && S_ISDIR(st.st_mode)) cannot_open(path_, EISDIR);
  if (!special && mode == Mode::whole) {
    // A symbolic link stays one: the file it leads to is replaced.
    struct stat lst {};
    if (::lstat(path_.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
      if (char* real = ::realpath(path_.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
      }
    temp_ = create_temp_beside(target());
    // A directory where no new file can be made (but the target may be writable): write in place.
    if (temp_.empty() && errno != EACCES && errno != EPERM && errno != EROFS) cannot_open(path_, errno);
    tracked_.track(temp_);
  }
  errno = 0;
  file_ = std::make_unique<std::ofstream>(temp_.empty() ? path_ : temp_, std::ios::binary | std::ios::trunc);
  if (!*file_) {
    const int err = errno != 0 ? errno : EIO;
    discard();
    cannot_open(path_, err);
  }
}

OutputFile::~OutputFile() {
  if (!done_) discard();
}

std::ostream& OutputFile::stream() { return file_ ? static_cast<std::ostream&>(*file_) : std::cout; }

void OutputFile::commit() {
  std::ostream& out = stream();
  errno = 0;  // a stream keeps no errno of its own: what the failed write left, if anything
  out.flush();
  if (!file_) {
    done_ = true;
    if (!out) throw EnvironmentError("", errno, "could not write to standard output");
    return;
  }
  const bool written = static_cast<bool>(out);
  file_->close();
  if (!written || !*file_) {
    const int err = errno;
    discard();
    throw EnvironmentError(path_, err, "write error; the file was not replaced");
  }
  if (!temp_.empty() && std::rename(temp_.c_str(), target().c_str()) != 0) {
    const int err = errno;
    discard();
    throw EnvironmentError(path_, err, "cannot rename the finished file into place");
  }
  tracked_.reset();
  done_ = true;
}

void OutputFile::discard() noexcept {
  if (file_) file_->close();
  if (!temp_.empty() && !done_) ::unlink(temp_.c_str());
  tracked_.reset();
  done_ = true;
}

}  // namespace playtest
