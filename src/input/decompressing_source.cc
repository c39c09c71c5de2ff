#include "input/decompressing_source.h"

#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "input/fd_source.h"
#include "input/read_placement.h"

namespace foreshock {

namespace {

// Compressed bytes kept in hand before reading more from the file.
constexpr size_t kRefill = 64 * 1024;

}  // namespace

// One compression format's streaming decoder. It decompresses straight into the caller's
// string, at most kReadChunkBytes a call, like a plain file's read: a 1000:1 archive must not
// become one huge buffer.
class DecompressingSource::Decoder {
 public:
  virtual ~Decoder() = default;
  // Decompresses from `in`, appending at most kReadChunkBytes to *out; returns bytes of `in`
  // consumed. Sets *error on corrupt data.
  virtual size_t Feed(std::string_view in, std::string* out, std::string* error) = 0;
  // True when the last Feed() stopped at kReadChunkBytes: the decoder may hold more output of
  // the input it took, for the next Feed() (with or without more input).
  bool pending() const { return pending_; }
  // True when the input may end here (between members or frames).
  virtual bool at_boundary() const = 0;

 protected:
  bool pending_ = false;
};

class DecompressingSource::GzipDecoder final : public Decoder {
 public:
  GzipDecoder() { inflateInit2(&stream_, 15 + 16); }
  ~GzipDecoder() override { inflateEnd(&stream_); }

  size_t Feed(std::string_view in, std::string* out, std::string* error) override {
    const size_t start = out->size();
    out->resize(start + kReadChunkBytes);
    auto* const to = reinterpret_cast<Bytef*>(out->data() + start);
    size_t produced = 0;
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    stream_.avail_in = static_cast<uInt>(in.size());
    pending_ = false;
    bool more = true;
    while (more) {
      if (boundary_) {
        if (stream_.avail_in == 0) break;
        // Another member follows: start it afresh (trailing zero padding is allowed).
        if (static_cast<unsigned char>(*stream_.next_in) == 0) {
          ++stream_.next_in;
          --stream_.avail_in;
          continue;
        }
        inflateReset(&stream_);
        boundary_ = false;
      }
      if (produced == kReadChunkBytes) {
        pending_ = true;  // the rest next time
        break;
      }
      stream_.next_out = to + produced;
      stream_.avail_out = static_cast<uInt>(kReadChunkBytes - produced);
      const int status = inflate(&stream_, Z_NO_FLUSH);
      produced = kReadChunkBytes - stream_.avail_out;
      if (status == Z_STREAM_END) {
        boundary_ = true;
      } else if (status == Z_OK) {
        // On while input is left or the output filled up (more may be held).
        more = stream_.avail_in > 0 || stream_.avail_out == 0;
      } else if (status == Z_BUF_ERROR) {
        more = stream_.avail_out == 0;  // no progress without more input
      } else {
        *error = std::string("corrupt gzip data (") + (stream_.msg != nullptr ? stream_.msg : "inflate failed") + ")";
        more = false;
      }
    }
    out->resize(start + produced);
    return in.size() - stream_.avail_in;
  }
  bool at_boundary() const override { return boundary_; }

 private:
  z_stream stream_{};
  bool boundary_ = false;
};

class DecompressingSource::ZstdDecoder final : public Decoder {
 public:
  ZstdDecoder() : stream_(ZSTD_createDStream()) {}
  ~ZstdDecoder() override { ZSTD_freeDStream(stream_); }

  size_t Feed(std::string_view in, std::string* out, std::string* error) override {
    const size_t start = out->size();
    out->resize(start + kReadChunkBytes);
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{out->data() + start, kReadChunkBytes, 0};
    pending_ = false;
    while (true) {
      const size_t taken = input.pos;
      const size_t given = output.pos;
      const size_t status = ZSTD_decompressStream(stream_, &output, &input);
      if (ZSTD_isError(status)) {
        *error = std::string("corrupt zstd data (") + ZSTD_getErrorName(status) + ")";
        break;
      }
      // 0: a frame ended and all of it was flushed. A call that did nothing (asked for held
      // output at a frame's end) says nothing of where the input stands.
      if (input.pos != taken || output.pos != given) boundary_ = status == 0;
      if (output.pos == output.size) {
        pending_ = true;  // it may hold more: the rest next time
        break;
      }
      // All input taken, and the output not full: the decoder flushed all it could.
      if (input.pos == input.size) break;
    }
    out->resize(start + output.pos);
    return input.pos;
  }
  bool at_boundary() const override { return boundary_; }

 private:
  ZSTD_DStream* stream_;
  bool boundary_ = false;
};

DecompressingSource::DecompressingSource(std::unique_ptr<Source> inner) : inner_(std::move(inner)) {}

DecompressingSource::~DecompressingSource() = default;

Result<Source::ReadState> DecompressingSource::Read(std::string* out, Duration wait) {
  if (ended_) return ReadState::kEnd;
  if (sniffed_ && decoder_ == nullptr) return inner_->Read(out, wait);
  ReadState state = ReadState::kData;
  if (!inner_ended_ && compressed_.size() < kRefill) {
    auto read = inner_->Read(&compressed_, wait);
    if (!read.ok()) return read.status();
    state = *read;
    inner_ended_ = state == ReadState::kEnd;
  }
  if (!sniffed_ && (compressed_.size() >= 4 || inner_ended_)) {
    sniffed_ = true;
    const auto* magic = reinterpret_cast<const unsigned char*>(compressed_.data());
    if (compressed_.size() >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
      compression_ = "gzip";
      decoder_ = std::make_unique<GzipDecoder>();
    } else if (compressed_.size() >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd) {
      compression_ = "zstd";
      decoder_ = std::make_unique<ZstdDecoder>();
    } else {
      out->append(compressed_);
      compressed_.clear();
      return state;
    }
  }
  if (!sniffed_) return inner_ended_ ? ReadState::kEnd : ReadState::kIdle;
  if (!compressed_.empty() || decoder_->pending()) {
    std::string error;
    const size_t used = decoder_->Feed(compressed_, out, &error);
    consumed_ += used;
    compressed_.erase(0, used);
    if (!error.empty()) {
      damage_ = error + " at compressed byte offset " + std::to_string(consumed_);
      ended_ = true;
      return out->empty() ? ReadState::kEnd : ReadState::kData;
    }
  }
  if (inner_ended_ && compressed_.empty() && !decoder_->pending()) {
    if (!decoder_->at_boundary()) {
      damage_ = compression_ + " archive truncated at compressed byte offset " + std::to_string(consumed_);
    }
    ended_ = true;
    return out->empty() ? ReadState::kEnd : ReadState::kData;
  }
  return out->empty() && state == ReadState::kIdle ? ReadState::kIdle : ReadState::kData;
}

Result<Source::ReadState> DecompressingSource::ReadView(std::string* scratch, std::string_view* view,
                                                        Duration wait) {
  if (!ended_ && sniffed_ && decoder_ == nullptr) return inner_->ReadView(scratch, view, wait);
  return Source::ReadView(scratch, view, wait);
}

Result<std::unique_ptr<DecompressingSource>> OpenInputFile(const std::string& path) {
  auto file = FdSource::Open(path);
  if (!file.ok()) return file.status();
  return std::make_unique<DecompressingSource>(std::move(file).value());
}

}  // namespace foreshock
