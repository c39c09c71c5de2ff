// An LD_PRELOAD shim for end-to-end tests, standing in for a full disk: while the file named
// by $FORESHOCK_FULL_DISK_FLAG exists, write(2) to any file under $FORESHOCK_FULL_DISK_DIR
// fails with ENOSPC. Deleting the flag frees the space. Everything else is untouched.

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool DiskFull(int fd) {
  const char* dir = std::getenv("FORESHOCK_FULL_DISK_DIR");
  const char* flag = std::getenv("FORESHOCK_FULL_DISK_FLAG");
  if (dir == nullptr || flag == nullptr || ::access(flag, F_OK) != 0) return false;
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char path[4096];
  const ssize_t length = ::readlink(link, path, sizeof path - 1);
  if (length <= 0) return false;
  path[length] = '\0';
  return std::strncmp(path, dir, std::strlen(dir)) == 0;
}

}  // namespace

extern "C" ssize_t write(int fd, const void* data, size_t size) {
  using Write = ssize_t (*)(int, const void*, size_t);
  static const Write real = reinterpret_cast<Write>(::dlsym(RTLD_NEXT, "write"));
  if (DiskFull(fd)) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, data, size);
}
