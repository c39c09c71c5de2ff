#pragma once

// DecompressingSource reads a gzip or zstd archive through another Source, recognised by
// its magic bytes (1f 8b, 28 b5 2f fd) rather than its name; anything else passes through
// unchanged. gzip files made of several members (logrotate's, or `cat a.gz b.gz`) and zstd
// files of several frames are read to the end. A corrupt or truncated archive is not an
// error of the run: what decompressed before the damage is returned, then the input ends
// and damage() says where (the compressed byte offset) and why.

#include <memory>
#include <optional>
#include <string>

#include "input/source.h"

namespace foreshock {

class DecompressingSource final : public Source {
 public:
  explicit DecompressingSource(std::unique_ptr<Source> inner);
  ~DecompressingSource() override;

  Result<ReadState> Read(std::string* out, Duration wait) override;
  // Past the first bytes of an input that is no archive: the inner source's views.
  Result<ReadState> ReadView(std::string* scratch, std::string_view* view, Duration wait) override;
  const std::string& name() const override { return inner_->name(); }
  bool live() const override { return inner_->live(); }

  // "gzip", "zstd" or "" (plain), once the first bytes were read.
  const std::string& compression() const { return compression_; }
  // Why and where the archive was damaged, if it was.
  const std::optional<std::string>& damage() const { return damage_; }
  bool cut_short() const override { return damage_.has_value(); }

 private:
  class Decoder;
  class GzipDecoder;
  class ZstdDecoder;

  std::unique_ptr<Source> inner_;
  std::unique_ptr<Decoder> decoder_;
  bool sniffed_ = false;
  bool ended_ = false;
  bool inner_ended_ = false;
  std::string compression_;
  std::string compressed_;  // read from inner_, not yet decompressed
  uint64_t consumed_ = 0;   // compressed bytes decompressed so far
  std::optional<std::string> damage_;
};

// Opens a file ("-": stdin) for `scan` and `replay`, decompressing it when it is an
// archive.
Result<std::unique_ptr<DecompressingSource>> OpenInputFile(const std::string& path);

}  // namespace foreshock
