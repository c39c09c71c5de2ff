#pragma once

// A Source yields the raw bytes of one input: a file read to its end, or a pipe such as
// stdin behind `journalctl -f`. It knows nothing about lines or formats. Not thread-safe;
// driven by the pipeline thread. To support a new kind of input (a followed file, a
// compressed archive), implement this interface.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time.h"
#include "input/read_placement.h"

namespace foreshock {

class Source {
 public:
  enum class ReadState {
    kData,  // bytes were appended to *out
    kIdle,     // nothing arrived within the wait; more may come later
    kRotated,  // the file was rotated or truncated: later bytes start a new file, so a
               // partial line held so far is complete
    kEnd,      // no more data will ever come
  };

  virtual ~Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  // Appends newly available bytes to *out, waiting at most `wait` for them to arrive.
  // An error Status means the input cannot be read any further.
  virtual Result<ReadState> Read(std::string* out, Duration wait) = 0;

  // The bytes Read() would append, as *view, valid until the next call: a view of *scratch
  // (which Read() fills, after a pad that puts them half a page off the page grid:
  // read_placement.h), or of a buffer of the source's own that it reads into without
  // clearing it first (a string resized for Read() is zero-filled on every call).
  virtual Result<ReadState> ReadView(std::string* scratch, std::string_view* view, Duration wait) {
    scratch->reserve(kReadChunkBytes + kPageBytes);
    const size_t pad = OffGridPad(scratch->data());
    scratch->assign(pad, '\0');
    auto state = Read(scratch, wait);
    *view = std::string_view(*scratch).substr(pad);
    return state;
  }

  // Name used in diagnostics and in alert evidence, e.g. "es-node-1.json" or "stdin".
  virtual const std::string& name() const = 0;

  // True for inputs that deliver lines as they are written (pipes, followed files): there
  // alerts must not wait for event time to pass.
  virtual bool live() const { return false; }

  // Where line `stream_line` (1-based, counted over everything Read() returned) really is,
  // for an input that spans several files or starts part way into one (a followed file
  // after a rotation or a restart): the file's name, stable while the source lives, and the
  // line's number in that file. Nothing when the stream's own count is the file's.
  struct FileLine {
    std::string_view file;
    uint64_t line = 0;
  };
  virtual std::optional<FileLine> Locate(uint64_t /*stream_line*/) const { return std::nullopt; }

  // True once the input ended early because it was damaged (a cut or corrupt archive): its
  // end is not where the writer stopped, so what follows it is unknown, not silence.
  virtual bool cut_short() const { return false; }

 protected:
  Source() = default;
};

}  // namespace foreshock
