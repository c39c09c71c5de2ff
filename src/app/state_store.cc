#include "app/state_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>

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

namespace {

// Reads one file's entry of state.json; why it cannot, naming the field, in *why.
bool ReadPosition(const Json& entry, FilePosition* position, std::string* why) {
  if (!entry.is_object()) {
    *why = "is " + std::string(entry.type_name()) + ", not an object";
    return false;
  }
  auto unsigned_field = [&](const char* key, auto* out, bool required) {
    const auto it = entry.find(key);
    if (it == entry.end()) {
      if (required) *why = std::string("has no \"") + key + "\"";
      return !required;
    }
    using T = std::remove_pointer_t<decltype(out)>;
    if (!it->is_number_unsigned() || it->template get<uint64_t>() > std::numeric_limits<T>::max()) {
      *why = std::string("\"") + key + "\" is " + it->dump() + ", not a whole number from 0 to " +
             std::to_string(std::numeric_limits<T>::max());
      return false;
    }
    *out = it->template get<T>();
    return true;
  };
  uint64_t device = 0, inode = 0;
  if (!unsigned_field("device", &device, true) || !unsigned_field("inode", &inode, true) ||
      !unsigned_field("head_hash", &position->identity.head_hash, true) ||
      !unsigned_field("head_bytes", &position->identity.head_bytes, true) ||
      !unsigned_field("offset", &position->offset, true)) {
    return false;
  }
  if (entry.contains("lines")) {
    uint64_t lines = 0;
    if (!unsigned_field("lines", &lines, true)) return false;
    position->lines = lines;
  }
  position->identity.device = static_cast<dev_t>(device);
  position->identity.inode = static_cast<ino_t>(inode);
  if (position->offset > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    *why = "\"offset\" is past any file's end";
    return false;
  }
  // "saved_at": the name in state files of foreshock before 2026-12-03, nearly the same moment.
  for (const char* key : {"opened_at", "saved_at"}) {
    if (const auto it = entry.find(key); it != entry.end()) {
      if (!it->is_number_integer()) {
        *why = std::string("\"") + key + "\" is " + it->dump() + ", not a time in seconds";
        return false;
      }
      position->opened_at = it->get<int64_t>();
    }
  }
  if (const auto it = entry.find("finished"); it != entry.end()) {
    bool spans = it->is_array();
    for (size_t i = 0; spans && i < it->size(); ++i) {
      const Json& span = (*it)[i];
      spans = span.is_array() && span.size() == 2 && span[0].is_number_unsigned() && span[1].is_number_unsigned() &&
              span[0].get<uint64_t>() <= span[1].get<uint64_t>();
    }
    if (!spans) {
      *why = "\"finished\" is not a list of [begin, end] byte spans";
      return false;
    }
    position->finished = it->get<std::vector<std::pair<uint64_t, uint64_t>>>();
  }
  return true;
}

}  // namespace

Result<std::optional<SavedState>> LoadState(const std::string& dir) {
  const fs::path file = fs::path(dir) / "state.json";
  std::error_code error;
  if (!fs::exists(file, error)) return std::optional<SavedState>();
  const std::string name = file.string();
  std::ifstream in(file);
  if (!in) return Status::ParseError(name + ": cannot read: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  const Json json = Json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return Status::ParseError(name + " is not a foreshock state file: " +
                              (json.is_discarded() ? "not valid JSON (cut short or overwritten?)" : "not a JSON object"));
  }
  const auto version = json.find("version");
  if (version == json.end() || !version->is_number_integer()) {
    return Status::ParseError(name + " is not a foreshock state file: it has no \"version\"");
  }
  if (version->get<int64_t>() != kVersion) {
    return Status::ParseError(name + " has state version " + version->dump() + "; this foreshock reads version " +
                              std::to_string(kVersion) +
                              (version->get<int64_t>() > kVersion ? " (it was written by a newer foreshock)" : ""));
  }
  SavedState state;
  const auto files = json.find("files");
  if (files == json.end() || !files->is_object()) {
    return Status::ParseError(name + ": \"files\" is missing or not an object");
  }
  for (const auto& [path, entry] : files->items()) {
    FilePosition position;
    std::string why;
    if (!ReadPosition(entry, &position, &why)) {
      return Status::ParseError(name + ": the entry of " + path + " " + why);
    }
    state.files[path] = position;
  }
  state.correlation = json.value("correlation", Json());
  if (!state.correlation.is_null() && !state.correlation.is_object()) {
    return Status::ParseError(name + ": \"correlation\" is not an object");
  }
  state.self = json.value("self", Json());
  if (!state.self.is_null() && !state.self.is_object()) return Status::ParseError(name + ": \"self\" is not an object");
  return std::optional<SavedState>(std::move(state));
}

Result<std::string> SetStateAside(const std::string& dir) {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  const std::string aside = dir + "/state.json.unusable-" + stamp;
  if (::rename((dir + "/state.json").c_str(), aside.c_str()) != 0) {
    return Status::IoError("rename " + dir + "/state.json", errno);
  }
  return aside;
}

Status SaveState(const std::string& dir, const SavedState& state, bool durable) {
  std::error_code error;
  fs::create_directories(dir, error);
  Json json = {{"version", kVersion}, {"files", Json::object()}, {"correlation", state.correlation}};
  if (!state.self.is_null()) json["self"] = state.self;
  for (const auto& [path, position] : state.files) {
    json["files"][path] = {{"device", position.identity.device}, {"inode", position.identity.inode},
                           {"head_hash", position.identity.head_hash},
                           {"head_bytes", position.identity.head_bytes}, {"offset", position.offset},
                           {"finished", position.finished}, {"opened_at", position.opened_at}};
    if (position.lines) json["files"][path]["lines"] = *position.lines;
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
