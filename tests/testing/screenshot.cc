#include "testing/screenshot.h"

#include <png.h>

#include <algorithm>
#include <cstdlib>

namespace foreshock::testing {
namespace {

bool Near(const uint8_t* pixel, uint8_t r, uint8_t g, uint8_t b, int tolerance) {
  return std::abs(pixel[0] - r) <= tolerance && std::abs(pixel[1] - g) <= tolerance &&
         std::abs(pixel[2] - b) <= tolerance;
}

}  // namespace

size_t Screenshot::CountNear(uint8_t r, uint8_t g, uint8_t b, int tolerance, uint32_t from_row,
                             uint32_t to_row) const {
  size_t count = 0;
  for (uint32_t y = from_row; y < std::min(to_row, height); ++y) {
    for (uint32_t x = 0; x < width; ++x) count += Near(&rgba[(size_t{y} * width + x) * 4], r, g, b, tolerance) ? 1 : 0;
  }
  return count;
}

std::optional<uint32_t> Screenshot::FirstRowWith(uint8_t r, uint8_t g, uint8_t b, int tolerance) const {
  for (uint32_t y = 0; y < height; ++y) {
    if (CountNear(r, g, b, tolerance, y, y + 1) > 0) return y;
  }
  return std::nullopt;
}

std::optional<Screenshot> ReadPng(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return std::nullopt;
  image.format = PNG_FORMAT_RGBA;
  Screenshot shot;
  shot.width = image.width;
  shot.height = image.height;
  shot.rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, shot.rgba.data(), 0, nullptr)) {
    png_image_free(&image);
    return std::nullopt;
  }
  return shot;
}

}  // namespace foreshock::testing
