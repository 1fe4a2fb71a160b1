// Deep Speech (Hannun et al., "Deep Speech: Scaling up end-to-end speech recognition", arXiv:1412.5567,
// Sec. 2): per frame, three non-recurrent layers on a context window, one bidirectional recurrent
// layer, one non-recurrent layer, and a softmax over characters. Sizes follow the best-known
// implementation of the paper (Mozilla DeepSpeech): 26 MFCC features per 10 ms frame, a context of
// 9 frames on each side (19 x 26 = 494 inputs per step), 2048 hidden units, 29 output characters
// (a-z, space, apostrophe, CTC blank); one utterance is T = 100 steps (1 s of audio).
//
// Layout: our IR's fc layer flattens its input and only `input`/`lstm` produce (T, F) tensors, so the
// per-frame layers run on a (features, time, 1) map: the raw MFCC frames are a 26x118x1 input
// (T + 18 frames), layer 1 is a 19x1 convolution over time (exactly the fc on the 494-dim context
// window, every step), layers 2, 3, 5 and the output are 1x1 convolutions (exactly per-frame fc).
// The bidirectional recurrent layer is an LSTM (as the brief asks, 2048 units per direction, outputs
// concatenated: 4096 channels; the paper sums a plain RNN's two directions), written as two layers
// whose parameters, MACs and output size equal those of our `lstm` op:
//   brnn4.input_gates: 1x1 conv 2048 -> 2*4*2048 with bias (W x + b of both directions' four gates),
//   brnn4.recurrent:   1x1 conv 8*2048 -> 2*2048, 2 groups, no bias (U h of each direction).
// Layers 1-3 and 5 use the paper's clipped ReLU, min(max(x, 0), 20): a relu here (same cost).
// Parameters: 84,981,789.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_deepspeech() {
  constexpr std::int64_t kFeatures = 26, kContext = 9, kSteps = 100, kHidden = 2048, kChars = 29;
  GraphBuilder b("deepspeech");
  auto x = b.input("mfcc", {kFeatures, kSteps + 2 * kContext, 1});
  x = b.conv2(x, "fc1", kHidden, {2 * kContext + 1, 1}, {1, 1}, {0, 0});
  x = b.relu(x, "relu1");
  x = b.relu(b.conv(x, "fc2", kHidden, 1), "relu2");
  x = b.relu(b.conv(x, "fc3", kHidden, 1), "relu3");
  x = b.conv(x, "brnn4.input_gates", 2 * 4 * kHidden, 1);
  x = b.conv(x, "brnn4.recurrent", 2 * kHidden, 1, 1, 0, 2, false);
  x = b.relu(b.conv(x, "fc5", kHidden, 1), "relu5");
  x = b.conv(x, "fc6", kChars, 1);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
