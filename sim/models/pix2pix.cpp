// Pix2Pix generator (Isola et al., "Image-to-Image Translation with Conditional Adversarial Networks",
// CVPR 2017, appendix 6.1.1) as the authors' PyTorch "unet_256" (pytorch-CycleGAN-and-pix2pix,
// --netG unet_256 --norm batch, ngf 64): a U-Net on 3x256x256 with 8 stride-2 4x4 down-convolutions
// C64-C128-C256-C512-C512-C512-C512-C512 (LeakyReLU 0.2 before each but the first, batch norm after
// each but the first and the innermost), 8 stride-2 4x4 transposed convolutions back up (ReLU before,
// batch norm after, dropout 0.5 in the three innermost 512-channel decoder blocks), a skip concat of
// each encoder level with the decoder output of the same size, and tanh. Convolutions carry no bias
// (batch norm follows) except the last transposed convolution. Parameters: 54,413,955, which the
// authors' code prints as "Total number of parameters : 54.414 M".
#include <array>

#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_pix2pix() {
  GraphBuilder b("pix2pix");
  auto x = b.input("data", {3, 256, 256});
  // Encoder level i (1..8) maps channels[i-1] -> channels[i] and halves the size.
  const std::array<std::int64_t, 9> channels = {3, 64, 128, 256, 512, 512, 512, 512, 512};
  std::array<std::string, 9> skip;  // skip[i]: encoder output of level i
  skip[0] = x;
  for (int i = 1; i <= 8; ++i) {
    const std::string p = fmt::format("down{}.", i);
    if (i > 1) x = b.leaky_relu(x, p + "lrelu", 0.2);
    x = b.conv(x, p + "conv", channels[i], 4, 2, 1, 1, false);
    if (i > 1 && i < 8) x = b.batch_norm(x, p + "bn");
    skip[i] = x;
  }
  // Decoder level i (8..1) maps the innermost output or the concat of level i+1 back to channels[i-1].
  for (int i = 8; i >= 1; --i) {
    const std::string p = fmt::format("up{}.", i);
    x = b.relu(x, p + "relu");
    const std::int64_t out = i == 1 ? 3 : channels[i - 1];
    x = b.deconv(x, p + "deconv", out, 4, 2, 1, 0, i == 1);
    if (i == 1) break;
    x = b.batch_norm(x, p + "bn");
    if (i >= 5 && i <= 7) x = b.dropout(x, p + "dropout", 0.5);
    x = b.concat({skip[i - 1], x}, p + "concat");
  }
  b.tanh(x, "tanh");
  return b.build();
}

}  // namespace coinfer
