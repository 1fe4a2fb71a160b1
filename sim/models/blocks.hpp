#pragma once
/// Building blocks several zoo models share.
#include <cstdint>
#include <string>

#include "sim/graph/graph_builder.hpp"

namespace coinfer {

/// The Caffe-style classifier head of AlexNet, OverFeat and VGG: fc6 / relu6 / drop6, fc7 / relu7 /
/// drop7, fc8 and a softmax `prob`. Returns the softmax layer's name.
inline std::string caffe_classifier(GraphBuilder& b, std::string x, std::int64_t fc6_units,
                                    std::int64_t fc7_units, std::int64_t classes) {
  x = b.dropout(b.relu(b.fc(x, "fc6", fc6_units), "relu6"), "drop6");
  x = b.dropout(b.relu(b.fc(x, "fc7", fc7_units), "relu7"), "drop7");
  return b.softmax(b.fc(x, "fc8", classes), "prob");
}

}  // namespace coinfer
