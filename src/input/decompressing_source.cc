#include "input/decompressing_source.h"

#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "input/fd_source.h"

namespace foreshock {

namespace {

// Decompressed bytes handed out per Read(), like a plain file's read: a 20:1 archive must not
// become one huge buffer.
constexpr size_t kOutputCap = 256 * 1024;
// Compressed bytes kept in hand before reading more from the file.
constexpr size_t kRefill = 64 * 1024;

}  // namespace

// One compression format's streaming decoder.
class DecompressingSource::Decoder {
 public:
  virtual ~Decoder() = default;
  // Decompresses from `in`, appending to *out; returns bytes of `in` consumed. Sets *error
  // on corrupt data.
  virtual size_t Feed(std::string_view in, std::string* out, std::string* error) = 0;
  // True when the input may end here (between members or frames).
  virtual bool at_boundary() const = 0;
};

class DecompressingSource::GzipDecoder final : public Decoder {
 public:
  GzipDecoder() { inflateInit2(&stream_, 15 + 16); }
  ~GzipDecoder() override { inflateEnd(&stream_); }

  size_t Feed(std::string_view in, std::string* out, std::string* error) override {
    const size_t start = out->size();
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    stream_.avail_in = static_cast<uInt>(in.size());
    char chunk[256 * 1024];
    bool more = stream_.avail_in > 0;
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
      stream_.next_out = reinterpret_cast<Bytef*>(chunk);
      stream_.avail_out = sizeof chunk;
      const int status = inflate(&stream_, Z_NO_FLUSH);
      out->append(chunk, sizeof chunk - stream_.avail_out);
      if (status == Z_STREAM_END) {
        boundary_ = true;
        more = stream_.avail_in > 0;
      } else if (status == Z_OK || status == Z_BUF_ERROR) {
        // Go on while input is left or the output filled up (more may be pending).
        more = stream_.avail_in > 0 || stream_.avail_out == 0;
        if (status == Z_BUF_ERROR && stream_.avail_out != 0) more = false;
      } else {
        *error = std::string("corrupt gzip data (") + (stream_.msg != nullptr ? stream_.msg : "inflate failed") + ")";
        more = false;
      }
      if (out->size() - start >= kOutputCap) more = false;  // the rest next time: memory stays bounded
    }
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
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    char chunk[256 * 1024];
    while (input.pos < input.size && out->size() - start < kOutputCap) {
      ZSTD_outBuffer output{chunk, sizeof chunk, 0};
      const size_t status = ZSTD_decompressStream(stream_, &output, &input);
      out->append(chunk, output.pos);
      if (ZSTD_isError(status)) {
        *error = std::string("corrupt zstd data (") + ZSTD_getErrorName(status) + ")";
        break;
      }
      boundary_ = status == 0;
    }
    // Flush what the decoder still holds for this input.
    while (!boundary_ && out->size() - start < kOutputCap) {
      ZSTD_outBuffer output{chunk, sizeof chunk, 0};
      const size_t status = ZSTD_decompressStream(stream_, &output, &input);
      out->append(chunk, output.pos);
      if (ZSTD_isError(status) || output.pos == 0) break;
      boundary_ = status == 0;
    }
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
  if (!compressed_.empty()) {
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
  if (inner_ended_ && compressed_.empty()) {
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
