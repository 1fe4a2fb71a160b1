// Op classes: one mapping from every OpKind, names that round-trip.
#include <catch2/catch.hpp>

#include "sim/calibration/op_class.hpp"

using namespace coinfer;

TEST_CASE("every op kind maps to a named class") {
  for (const auto& name : op_names()) {
    INFO(name);
    const auto kind = op_from_name(name);
    REQUIRE(kind);
    CHECK(op_class_name(op_class_of(*kind)) != "?");
  }
}

TEST_CASE("op class names round-trip") {
  CHECK(all_op_classes().size() == kOpClassCount);
  for (OpClass c : all_op_classes()) CHECK(op_class_from_name(op_class_name(c)) == c);
  CHECK_FALSE(op_class_from_name("convolution"));
}

TEST_CASE("the main ops land in their classes") {
  CHECK(op_class_of(OpKind::Conv2d) == OpClass::Conv);
  CHECK(op_class_of(OpKind::DepthwiseConv2d) == OpClass::Depthwise);
  CHECK(op_class_of(OpKind::ConvTranspose2d) == OpClass::Deconv);
  CHECK(op_class_of(OpKind::MaxPool) == OpClass::Pool);
  CHECK(op_class_of(OpKind::Lrn) == OpClass::Norm);
  CHECK(op_class_of(OpKind::Relu) == OpClass::Elementwise);
  CHECK(op_class_of(OpKind::Lstm) == OpClass::Lstm);
  CHECK(op_class_of(OpKind::Concat) == OpClass::Other);
}

TEST_CASE("an fc layer with pruned weights is sparse_fc") {
  Layer l;
  l.op = OpKind::FullyConnected;
  CHECK(op_class_of(l) == OpClass::Fc);
  l.attrs.sparsity = 0.9;
  CHECK(op_class_of(l) == OpClass::SparseFc);
}
