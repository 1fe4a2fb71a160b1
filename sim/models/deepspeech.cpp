// Deep Speech (Hannun et al., "Deep Speech: Scaling up end-to-end speech recognition", arXiv:1412.5567,
// Sec. 2): per time step, three non-recurrent layers on a context window, one bidirectional recurrent
// layer, one non-recurrent layer, and a softmax over characters. Sizes follow the best-known
// implementation of the paper (Mozilla DeepSpeech): 26 MFCC features per 10 ms frame with a context
// of 9 frames on each side, so each step's input is 19 x 26 = 494 values (the windows are built by
// the input pipeline, as Mozilla's does); 2048 hidden units; 29 output characters (a-z, space,
// apostrophe, CTC blank); one utterance is T = 100 steps (1 s of audio).
//
// The input is the (T, 494) sequence; fc layers over a (T, F) sequence apply the same weights at
// every step. The bidirectional recurrent layer is an LSTM (2048 units per direction, outputs
// concatenated: 4096 features per step) as in Mozilla's model; the paper uses a plain RNN and sums
// the two directions. Layers 1-3 and 5 use the paper's clipped ReLU, min(max(x, 0), 20): a relu here
// (same cost). Parameters: 84,981,789.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_deepspeech() {
  constexpr std::int64_t kFeatures = 26, kContext = 9, kSteps = 100, kHidden = 2048, kChars = 29;
  GraphBuilder b("deepspeech");
  auto x = b.input("mfcc", {kSteps, (2 * kContext + 1) * kFeatures});
  x = b.relu(b.fc(x, "fc1", kHidden), "relu1");
  x = b.relu(b.fc(x, "fc2", kHidden), "relu2");
  x = b.relu(b.fc(x, "fc3", kHidden), "relu3");
  x = b.lstm(x, "brnn4", kHidden, 1, /*bidirectional=*/true, /*return_sequences=*/true);
  x = b.relu(b.fc(x, "fc5", kHidden), "relu5");
  x = b.fc(x, "fc6", kChars);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
