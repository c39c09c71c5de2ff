#pragma once

// TempDir is a fresh directory under $TMPDIR, removed with everything in it when the
// object goes away, unless the test has failed: then it is kept, and its path printed, so
// that the files of a failure (rotated logs, state, stderr) can be read afterwards. Tests
// write real files into it.

#include <string>
#include <string_view>

namespace foreshock::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `contents` to path()/name and returns the full path.
  std::string Write(std::string_view name, std::string_view contents) const;

 private:
  std::string path_;
};

// Reads a whole file; fails the current test if it cannot.
std::string ReadFile(const std::string& path);

}  // namespace foreshock::testing

namespace foreshock::testing {

// The file's contents, or "" while it does not exist yet (for files a child writes).
std::string ReadFileIfExists(const std::string& path);

}  // namespace foreshock::testing
