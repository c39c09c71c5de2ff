#include "app/state_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace foreshock::app {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kVersion = 1;

Status WriteAll(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t put = ::write(fd, data.data() + done, data.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return Status::IoError("write " + path, errno);
    done += static_cast<size_t>(put);
  }
  return Status();
}

}  // namespace

Result<std::optional<SavedState>> LoadState(const std::string& dir) {
  const fs::path file = fs::path(dir) / "state.json";
  std::error_code error;
  if (!fs::exists(file, error)) return std::optional<SavedState>();
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const Json json = Json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object() || json.value("version", 0) != kVersion) {
    return Status::ParseError(file.string() + " is not a foreshock state file (move it away to start afresh)");
  }
  SavedState state;
  try {
    for (const auto& [path, entry] : json.at("files").items()) {
      FilePosition position;
      position.identity.device = entry.at("device").get<dev_t>();
      position.identity.inode = entry.at("inode").get<ino_t>();
      position.identity.head_hash = entry.at("head_hash").get<uint64_t>();
      position.identity.head_bytes = entry.at("head_bytes").get<uint32_t>();
      position.offset = entry.at("offset").get<uint64_t>();
      // "saved_at": the name in state files of foreshock before 2026-12-03, nearly the same moment.
      for (const char* key : {"opened_at", "saved_at"}) {
        if (entry.contains(key)) position.opened_at = entry.at(key).get<int64_t>();
      }
      if (entry.contains("finished")) {
        position.finished = entry.at("finished").get<std::vector<std::pair<uint64_t, uint64_t>>>();
      }
      state.files[path] = position;
    }
    state.correlation = json.value("correlation", Json());
  } catch (const Json::exception& e) {
    return Status::ParseError(file.string() + ": " + e.what());
  }
  return std::optional<SavedState>(std::move(state));
}

Status SaveState(const std::string& dir, const SavedState& state, bool durable) {
  std::error_code error;
  fs::create_directories(dir, error);
  Json json = {{"version", kVersion}, {"files", Json::object()}, {"correlation", state.correlation}};
  for (const auto& [path, position] : state.files) {
    json["files"][path] = {{"device", position.identity.device}, {"inode", position.identity.inode},
                           {"head_hash", position.identity.head_hash},
                           {"head_bytes", position.identity.head_bytes}, {"offset", position.offset},
                           {"finished", position.finished}, {"opened_at", position.opened_at}};
  }
  const std::string final_path = (fs::path(dir) / "state.json").string();
  const std::string temp_path = final_path + ".tmp";
  const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IoError("create " + temp_path, errno);
  Status status = WriteAll(fd, json.dump(-1, ' ', false, Json::error_handler_t::replace), temp_path);
  if (status.ok() && durable && ::fsync(fd) != 0) status = Status::IoError("fsync " + temp_path, errno);
  ::close(fd);
  FORESHOCK_RETURN_IF_ERROR(status);
  if (::rename(temp_path.c_str(), final_path.c_str()) != 0) return Status::IoError("rename " + temp_path, errno);
  if (durable) {
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
      ::fsync(dir_fd);
      ::close(dir_fd);
    }
  }
  return Status();
}

}  // namespace foreshock::app
