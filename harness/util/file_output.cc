#include "harness/util/file_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <system_error>
#include <vector>

namespace dmbench {

namespace {

namespace fs = std::filesystem;

// A write-only stream buffer over a file descriptor that keeps the errno of
// the first write that failed (std::filebuf keeps only that one did). After
// a failure it drops what it is given, and the stream it serves goes bad.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int descriptor) : descriptor_(descriptor), buffer_(kBufferBytes) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  // The first failure's errno, or 0.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

  int sync() override {
    for (const char* at = pbase(); at < pptr() && error_ == 0;) {
      const ssize_t written = ::write(descriptor_, at, static_cast<size_t>(pptr() - at));
      if (written > 0) {
        at += written;
      } else if (written < 0 && errno != EINTR) {
        error_ = errno;
      } else if (written == 0) {
        error_ = EIO;  // no progress and no reason: do not spin
      }
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0 ? 0 : -1;
  }

 private:
  // On the heap: a caller may run on a small stack.
  static constexpr size_t kBufferBytes = 64 * 1024;
  int descriptor_;
  int error_ = 0;
  std::vector<char> buffer_;
};

// Streams `write` into `descriptor`, which it closes; why that failed, or
// "" if every byte reached the file system.
std::string WriteAndClose(int descriptor, const std::function<void(std::ostream&)>& write) {
  int error = 0;
  bool stream_failed = false;
  {
    DescriptorBuffer buffer(descriptor);
    std::ostream stream(&buffer);
    try {
      write(stream);
      stream.flush();
    } catch (...) {
      ::close(descriptor);
      throw;
    }
    error = buffer.error();
    stream_failed = !stream;
  }
  // close can report what write did not (a file system that writes back late).
  if (::close(descriptor) != 0 && error == 0) error = errno;
  if (error != 0) return std::strerror(error);
  if (stream_failed) return "the output stream failed while the file was being written";
  return "";
}

[[noreturn]] void Fail(const fs::path& file, const std::string& why) {
  throw std::runtime_error("cannot write " + file.string() + ": " + why);
}

// A pipe or a device (links followed): written in place.
bool InPlace(const fs::file_status& status) {
  return fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status);
}

// What WriteFileWhole makes of `file`.
struct Destination {
  bool in_place;       // a pipe or a device, written where it is
  fs::path target;     // else the file to replace, links followed
  fs::path directory;  // and the directory it goes in
};

Destination DestinationOf(const fs::path& file) {
  if (file.empty()) throw std::runtime_error("cannot write the output: no file name given");
  // (A path that does not exist sets `unused`; its type says so as well.)
  std::error_code unused;
  const fs::file_status status = fs::status(file, unused);  // follows links
  if (fs::is_directory(status)) Fail(file, "it is a directory; give the name of a file");
  if (InPlace(status)) return {true, file, {}};
  // Through a link to the file it names, so that the link stays.
  const bool link = fs::is_symlink(fs::symlink_status(file, unused));
  std::error_code error;
  const fs::path target = link ? fs::weakly_canonical(file, error) : file;
  if (error) Fail(file, "cannot follow the link: " + error.message());
  const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(directory, error);
  if (error) Fail(target, "cannot create its directory: " + error.message());
  return {false, target, directory};
}

}  // namespace

void CheckFileWritable(const fs::path& file) {
  const Destination destination = DestinationOf(file);
  const fs::path& checked = destination.in_place ? destination.target : destination.directory;
  if (::access(checked.c_str(), W_OK) != 0) {
    Fail(destination.target,
         (destination.in_place ? "" : "cannot create files in " + checked.string() + ": ") +
             std::string(std::strerror(errno)));
  }
}

bool WrittenInPlace(const fs::path& file) {
  std::error_code unused;  // a path that does not exist is not written in place
  return InPlace(fs::status(file, unused));
}

bool NamesStandardOutput(const fs::path& file) {
  struct stat named {};
  struct stat standard_output {};
  if (file.empty() || ::stat(file.c_str(), &named) != 0) return false;
  if (::fstat(STDOUT_FILENO, &standard_output) != 0) return false;
  return named.st_dev == standard_output.st_dev && named.st_ino == standard_output.st_ino;
}

void WriteFileWhole(const fs::path& file, const std::function<void(std::ostream&)>& write) {
  const Destination destination = DestinationOf(file);
  if (destination.in_place) {
    // No O_TRUNC: a device or a pipe has nothing to truncate.
    const int descriptor = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (descriptor < 0) Fail(file, std::strerror(errno));
    const std::string failure = WriteAndClose(descriptor, write);
    if (!failure.empty()) Fail(file, failure);
    return;
  }

  const fs::path& target = destination.target;
  std::error_code unused;
  std::error_code error;
  fs::path partial = target;
  partial += ".partial";
  const int descriptor = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (descriptor < 0)
    Fail(target, "cannot create " + partial.string() + ": " + std::strerror(errno));
  std::string failure;
  try {
    failure = WriteAndClose(descriptor, write);
  } catch (...) {
    fs::remove(partial, unused);
    throw;
  }
  if (failure.empty()) {
    fs::rename(partial, target, error);
    if (error) failure = "cannot rename " + partial.string() + " into place: " + error.message();
  }
  if (!failure.empty()) {
    fs::remove(partial, unused);
    Fail(target, failure);
  }
}

void WriteFileWhole(const fs::path& file, std::string_view bytes) {
  WriteFileWhole(file, [bytes](std::ostream& stream) {
    stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  });
}

}  // namespace dmbench
