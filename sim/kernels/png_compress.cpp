#include "sim/kernels/png_compress.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

struct Geometry {
  std::int64_t c, h, w;
};

Geometry geometry_of(const Shape& s) {
  if (s.size() == 3) return {s[0], s[1], s[2]};
  if (s.size() == 2) return {1, s[0], s[1]};
  return {1, 1, shape_elements(s)};
}

// libpng reports errors through longjmp; we keep the message and throw once back in C++ frames.
struct PngContext {
  std::string error;
  std::vector<std::uint8_t>* out = nullptr;
  const std::vector<std::uint8_t>* in = nullptr;
  std::size_t read_pos = 0;
};

void on_error(png_structp png, png_const_charp message) {
  static_cast<PngContext*>(png_get_error_ptr(png))->error = message;
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

void on_write(png_structp png, png_bytep data, png_size_t n) {
  auto* ctx = static_cast<PngContext*>(png_get_io_ptr(png));
  ctx->out->insert(ctx->out->end(), data, data + n);
}

void on_flush(png_structp) {}

void on_read(png_structp png, png_bytep data, png_size_t n) {
  auto* ctx = static_cast<PngContext*>(png_get_io_ptr(png));
  if (ctx->read_pos + n > ctx->in->size()) png_error(png, "truncated PNG data");
  std::memcpy(data, ctx->in->data() + ctx->read_pos, n);
  ctx->read_pos += n;
}

// Encodes a grey 8-bit image. Kept free of C++ objects with destructors between setjmp and longjmp.
bool encode(png_bytepp rows, std::uint32_t width, std::uint32_t height, PngContext& ctx) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  volatile bool ok = false;
  if (info && setjmp(png_jmpbuf(png)) == 0) {
    png_set_write_fn(png, &ctx, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
    ok = true;
  }
  png_destroy_write_struct(&png, &info);
  return ok;
}

// Decodes into `pixels` (resized inside, before any libpng call can jump back here).
bool decode(PngContext& ctx, std::vector<std::uint8_t>& pixels, std::uint32_t& width, std::uint32_t& height) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  volatile bool ok = false;
  if (info && setjmp(png_jmpbuf(png)) == 0) {
    png_set_read_fn(png, &ctx, on_read);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
    width = png_get_image_width(png, info);
    height = png_get_image_height(png, info);
    if (png_get_bit_depth(png, info) == 8 && png_get_color_type(png, info) == PNG_COLOR_TYPE_GRAY) {
      png_bytepp rows = png_get_rows(png, info);
      pixels.resize(static_cast<std::size_t>(width) * height);
      for (std::uint32_t y = 0; y < height; ++y)
        std::memcpy(pixels.data() + static_cast<std::size_t>(y) * width, rows[y], width);
      ok = true;
    } else {
      ctx.error = "expected an 8-bit grey image";
    }
  }
  png_destroy_read_struct(&png, &info, nullptr);
  return ok;
}

}  // namespace

double PngTensor::ratio_vs_fp32() const {
  return static_cast<double>(shape_elements(shape)) * 4.0 / static_cast<double>(png.size());
}

double PngTensor::ratio_vs_8bit() const {
  return static_cast<double>(shape_elements(shape)) / static_cast<double>(png.size());
}

PngTensor png_compress(const Tensor& x) {
  if (x.empty()) throw Error("png_compress: empty tensor");
  for (float v : x.data)
    if (!std::isfinite(v)) throw Error("png_compress: tensor holds a NaN or an infinity");
  const Geometry g = geometry_of(x.shape);
  PngTensor p;
  p.shape = x.shape;
  p.min = *std::min_element(x.data.begin(), x.data.end());
  p.max = *std::max_element(x.data.begin(), x.data.end());
  p.tile_h = g.h;
  p.tile_w = g.w;
  p.tiles_per_row = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(g.c))));
  const std::int64_t tile_rows = (g.c + p.tiles_per_row - 1) / p.tiles_per_row;
  const std::int64_t width = p.tiles_per_row * g.w, height = tile_rows * g.h;
  if (width > (1 << 30) || height > (1 << 30))
    throw Error("png_compress: tensor too large for one PNG image");
  // 8-bit affine quantization: q = round((x - min) / step), so |x - (min + q step)| <= step / 2.
  const float step = p.step();
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width * height), 0);
  for (std::int64_t c = 0; c < g.c; ++c) {
    const std::int64_t oy = (c / p.tiles_per_row) * g.h, ox = (c % p.tiles_per_row) * g.w;
    for (std::int64_t y = 0; y < g.h; ++y)
      for (std::int64_t xx = 0; xx < g.w; ++xx) {
        const float v = x.data[static_cast<std::size_t>((c * g.h + y) * g.w + xx)];
        const long q = std::clamp(std::lround((v - p.min) / step), 0L, 255L);
        pixels[static_cast<std::size_t>((oy + y) * width + ox + xx)] = static_cast<std::uint8_t>(q);
      }
  }
  PngContext ctx;
  ctx.out = &p.png;
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (std::int64_t y = 0; y < height; ++y) rows[static_cast<std::size_t>(y)] = pixels.data() + y * width;
  if (!encode(rows.data(), static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), ctx))
    throw Error(fmt::format("png_compress: libpng failed: {}", ctx.error));
  return p;
}

Tensor png_decompress(const PngTensor& p) {
  PngContext ctx;
  ctx.in = &p.png;
  std::vector<std::uint8_t> pixels;
  std::uint32_t width = 0, height = 0;
  if (!decode(ctx, pixels, width, height)) throw Error(fmt::format("png_decompress: {}", ctx.error));
  const Geometry g = geometry_of(p.shape);
  if (g.h != p.tile_h || g.w != p.tile_w || p.tiles_per_row < 1 || width != p.tiles_per_row * g.w ||
      height < ((g.c + p.tiles_per_row - 1) / p.tiles_per_row) * g.h)
    throw Error("png_decompress: image size does not match the tensor shape");
  Tensor t(p.shape);
  const float step = p.step();
  for (std::int64_t c = 0; c < g.c; ++c) {
    const std::int64_t oy = (c / p.tiles_per_row) * g.h, ox = (c % p.tiles_per_row) * g.w;
    for (std::int64_t y = 0; y < g.h; ++y)
      for (std::int64_t xx = 0; xx < g.w; ++xx)
        t.data[static_cast<std::size_t>((c * g.h + y) * g.w + xx)] =
            p.min + step * pixels[static_cast<std::size_t>((oy + y) * width + ox + xx)];
  }
  return t;
}

}  // namespace coinfer::kernels
