// `coinfer train MODEL --epochs E --seed S [--batch B] [--lr X] [--momentum M] [--weight-decay W]
// [--test-fraction F] [--data FILE|DIR|fashion-mnist] [--train-samples N] [--resize N] [--workers K]
// [--quantizer fp32|onebit|onebit-noef|terngrad] [--tail keep|drop|merge]`: functional training
// (sim/functional/trainer.hpp) on the 8x8 handwritten digits scikit-learn ships (a seeded split) or on IDX
// files in MNIST's layout, e.g. Fashion-MNIST (its official split), one line per epoch; with --workers or
// --quantizer, AdaLearner's data-parallel training over K workers (sim/functional/distributed_trainer.hpp),
// --batch being the total minibatch split across them; --tail says what an epoch does with its last, short
// step (epoch_tail.hpp). Nothing timed is printed, so the same seed gives byte-identical output.
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/distributed_trainer.hpp"
#include "sim/functional/idx_dataset.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct TrainCliOptions {
  std::string model;
  std::int64_t epochs = 10;
  std::uint64_t seed = 1;
  TrainOptions train;
  double test_fraction = 0.2;
  std::string data = default_digits_path();
  std::int64_t resize = 0;         // 0: the samples as read
  std::int64_t train_samples = 0;  // 0: every training sample
  bool test_fraction_given = false;
  std::int64_t workers = 1;
  std::string quantizer = "fp32";
  std::string tail = "keep";
  bool distributed = false;  // --workers or --quantizer given
};

// An error of a library key that is a CLI option (--workers, --batch, --quantizer, --tail) reported
// under the option; false for any other.
bool rethrow_as_option(const InputError& e) {
  for (const char* option : {"workers", "batch", "quantizer", "tail"})
    if (e.path() == option) throw InputError("", std::string("--") + option, e.message());
  return false;
}

// `make()` for `o.model`, its errors attributed to the model (a zoo name or a file), except those of
// the options (rethrow_as_option).
template <class Make>
auto with_model_errors(const TrainCliOptions& o, Make make) {
  try {
    return make();
  } catch (const InputError& e) {
    rethrow_as_option(e);
    throw e.file().empty() ? e.with_file(o.model) : e;
  }
}

// The line on an epoch's steps under --tail drop or merge (nothing for keep, the default); throws
// under --tail when drop leaves no step. `batches[s]` holds step s's sample count.
void print_epoch_steps(const TrainCliOptions& o, const std::vector<std::size_t>& batches, std::size_t train) {
  std::size_t trained = 0;
  for (std::size_t n : batches) trained += n;
  if (o.train.tail == EpochTail::Drop)
    std::cout << fmt::format(
        "epoch tail drop: {} steps of {} samples, {} of the {} training samples wait for a "
        "later epoch\n",
        batches.size(), o.train.batch, train - trained, train);
  else if (o.train.tail == EpochTail::Merge)
    std::cout << fmt::format("epoch tail merge: {} steps, the last of {} samples\n", batches.size(),
                             batches.empty() ? 0 : batches.back());
}

// The samples, which of them train and test, and how the split was made (for the data line).
struct TrainingData {
  Dataset data;
  DatasetSplit split;
  std::string split_note;
};

constexpr const char* kFashionMnist = "fashion-mnist";

// --data fashion-mnist or a directory: IDX files in MNIST's layout with their official test set.
TrainingData load_idx_data(const TrainCliOptions& o) {
  const std::string dir = o.data == kFashionMnist ? default_fashion_mnist_dir() : o.data;
  if (o.test_fraction_given)
    throw InputError("", "--test-fraction",
                     fmt::format("{} has its own test set (the t10k files); --test-fraction applies to the "
                                 "digits CSV only",
                                 dir));
  const auto limit = o.train_samples > 0 ? static_cast<std::size_t>(o.train_samples)
                                         : std::numeric_limits<std::size_t>::max();
  TrainTestData d = load_mnist_layout(dir, limit);
  if (o.train_samples > 0 && d.split.train.size() < limit)
    throw InputError("", "--train-samples",
                     fmt::format("expected at most {} (the training samples in {}), got {}",
                                 d.split.train.size(), dir, o.train_samples));
  const std::string note = o.train_samples > 0 ? fmt::format("the first {} training images", o.train_samples)
                                               : std::string("all training images");
  return {std::move(d.data), std::move(d.split), fmt::format("official split: {}, all test images", note)};
}

// The digits CSV with a seeded split (--train-samples keeps the first N of its shuffled training part).
TrainingData load_digits_data(const TrainCliOptions& o) {
  Dataset data = load_digits(o.data);
  DatasetSplit split = [&] {
    try {
      return split_dataset(data.size(), o.test_fraction, o.seed);
    } catch (const InputError& e) {
      throw InputError("", "--test-fraction", e.message());
    }
  }();
  std::string note = fmt::format("fraction {}, seed {}", o.test_fraction, o.seed);
  if (o.train_samples > 0) {
    const auto n = static_cast<std::size_t>(o.train_samples);
    if (n > split.train.size())
      throw InputError("", "--train-samples",
                       fmt::format("expected at most {} (the training part of {}), got {}",
                                   split.train.size(), o.data, o.train_samples));
    split.train.resize(n);
    note += fmt::format(", the first {} of the training part", n);
  }
  return {std::move(data), std::move(split), note};
}

// --resize N is only of use when it gives the model's input shape; checked before anything is
// resized, so a size the model cannot take allocates nothing.
void check_resize_fits_model(const TrainCliOptions& o, const Graph& g, const Dataset& data) {
  const Layer& in = g.layer(g.input_layers().front());
  if (data.sample_shape.size() != 3) return;  // resized() names the shape it needs
  const Shape target{data.sample_shape[0], o.resize, o.resize};
  if (in.output_shape != target)
    throw InputError("", "--resize",
                     fmt::format("model '{}' takes input '{}' of shape {}, but the samples of {} resized to "
                                 "{} x {} are {}",
                                 g.name(), in.name, shape_to_string(in.output_shape), data.source, o.resize,
                                 o.resize, shape_to_string(target)));
}

TrainingData load_data(const TrainCliOptions& o, const Graph& model) {
  TrainingData d = o.data == kFashionMnist || std::filesystem::is_directory(o.data) ? load_idx_data(o)
                                                                                    : load_digits_data(o);
  if (o.resize == 0) return d;
  check_resize_fits_model(o, model, d.data);
  try {
    d.data = resized(d.data, o.resize, o.resize);
    return d;
  } catch (const InputError& e) {
    throw InputError("", "--resize", e.message());
  }
}

void print_distribution(const DistributedTrainer& t, const TrainCliOptions& o) {
  std::vector<std::int64_t> local;
  for (std::int64_t w = 0; w < o.workers; ++w) local.push_back(t.local_batch(w));
  const GradientCodec codec = parse_gradient_codec(o.quantizer);
  const std::int64_t fp32 = t.message_bytes(GradientCodec::Fp32), coded = t.message_bytes(codec);
  std::cout << fmt::format(
      "workers {} on disjoint shards, local minibatches {} of {}; quantizer {}: {} bytes "
      "per gradient message ({:.1f}x smaller than fp32's {})\n",
      o.workers, fmt::join(local, ", "), o.train.batch, codec_name(codec), format_count(coded),
      static_cast<double>(fp32) / static_cast<double>(coded), format_count(fp32));
}

void run_train(TrainCliOptions o) {
  try {
    o.train.tail = parse_epoch_tail(o.tail);
  } catch (const InputError& e) {
    rethrow_as_option(e);
    throw;
  }
  // a model that cannot train fails before the data is read
  std::unique_ptr<Trainer> local;
  std::unique_ptr<DistributedTrainer> distributed;
  if (o.distributed) {
    distributed = with_model_errors(o, [&] {
      const DistributedOptions d{o.workers, parse_gradient_codec(o.quantizer), o.train};
      return std::make_unique<DistributedTrainer>(load_model(o.model), o.seed, d);
    });
  } else {
    local =
        with_model_errors(o, [&] { return std::make_unique<Trainer>(load_model(o.model), o.seed, o.train); });
  }
  const Trainer& trainer = distributed ? distributed->trainer() : *local;
  const TrainingData loaded = load_data(o, trainer.model().graph());
  const Dataset& data = loaded.data;
  const DatasetSplit& split = loaded.split;
  try {
    trainer.check_dataset(data);
  } catch (const InputError& e) {
    const bool shape = e.message().find("takes input") != std::string::npos;
    throw InputError(o.model, e.path(),
                     shape ? e.message() + " (--resize N resizes them to N x N)" : e.message());
  }
  // the steps of an epoch (the same count every epoch): a --tail drop that runs none fails here
  std::vector<std::size_t> step_sizes;
  try {
    if (distributed)
      for (const auto& step : distributed->epoch_batches(split.train, 1)) {
        std::size_t n = 0;
        for (const auto& worker : step) n += worker.size();
        step_sizes.push_back(n);
      }
    else
      for (const auto& step : local->epoch_batches(split.train, 1)) step_sizes.push_back(step.size());
  } catch (const InputError& e) {
    rethrow_as_option(e);
    throw;
  }
  const Graph& g = trainer.model().graph();
  std::cout << fmt::format("model {}: {} layers, {} parameters, weights from seed {}\n", g.name(), g.size(),
                           format_count(g.total_params()), o.seed);
  std::cout << fmt::format("data {}: {} samples {}, {} classes; {} train, {} test ({})\n", data.source,
                           data.size(), shape_to_string(data.sample_shape), data.classes, split.train.size(),
                           split.test.size(), loaded.split_note);
  const auto& s = o.train.sgd;
  std::cout << fmt::format("sgd: batch {}, learning rate {}, momentum {}, weight decay {}\n", o.train.batch,
                           s.learning_rate, s.momentum, s.weight_decay);
  if (distributed) print_distribution(*distributed, o);
  print_epoch_steps(o, step_sizes, split.train.size());
  std::cout << "epoch  train loss  test loss  test accuracy\n";
  for (std::int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
    const double loss = distributed ? distributed->train_epoch(data, split.train, epoch)
                                    : local->train_epoch(data, split.train, epoch);
    const Evaluation e = trainer.evaluate(data, split.test);
    std::cout << fmt::format("{:>5}  {:>10.4f}  {:>9.4f}  {:>12.2f}% ({}/{})\n", epoch, loss, e.loss,
                             100.0 * e.accuracy, e.correct, e.samples)
              << std::flush;
  }
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto o = std::make_shared<TrainCliOptions>();
  auto* cmd = app.add_subcommand(
      "train",
      "Train a model with SGD on the 8x8 handwritten digits or Fashion-MNIST (functional mode, seeded, "
      "deterministic)");
  cmd->add_option("model", o->model,
                  "Zoo name (digits_mlp, digits_cnn, mxnet_mlp, ...) or model JSON or ONNX file")
      ->required();
  cmd->add_option("--epochs", o->epochs, "Passes over the training set")
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--seed", o->seed, "Seed of the weights, the train/test split, the order and dropout")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--batch", o->train.batch, "Samples per SGD step")
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--lr", o->train.sgd.learning_rate, "Learning rate")
      ->capture_default_str()
      ->check(non_negative());
  cmd->add_option("--momentum", o->train.sgd.momentum, "SGD momentum")
      ->capture_default_str()
      ->check(non_negative());
  cmd->add_option("--weight-decay", o->train.sgd.weight_decay, "L2 weight decay")
      ->capture_default_str()
      ->check(non_negative());
  auto* test_fraction =
      cmd->add_option("--test-fraction", o->test_fraction,
                      "Fraction of the digits held out for testing (IDX data has its own test set)")
          ->capture_default_str();
  cmd->add_option(
         "--data", o->data,
         "The digits CSV (gzip or plain; default: python3-sklearn's copy), 'fashion-mnist' (Debian's "
         "dataset-fashion-mnist) or a directory of IDX files in MNIST's layout "
         "(train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-...)")
      ->capture_default_str();
  cmd->add_option("--train-samples", o->train_samples,
                  "Train on the first N training samples only (default: all)")
      ->check(at_least_one());
  cmd->add_option(
         "--resize", o->resize,
         "Resize the samples to N x N (bilinear), e.g. 28 for the MNIST networks mxnet_mlp, mxnet_lenet")
      ->check(at_least_one());
  auto* workers = cmd->add_option("--workers", o->workers,
                                  "AdaLearner: worker nodes on disjoint shards, --batch split across them")
                      ->capture_default_str()
                      ->check(at_least_one());
  auto* quantizer =
      cmd->add_option("--quantizer", o->quantizer, "Gradient exchange: fp32, onebit, onebit-noef or terngrad")
          ->capture_default_str();
  cmd->add_option("--tail", o->tail,
                  "An epoch's last, short step: keep it, drop it (PyTorch's drop_last; with --workers, every "
                  "step holds each worker's full share) or merge it into the step before")
      ->capture_default_str();
  cmd->callback([o, workers, quantizer, test_fraction] {
    o->test_fraction_given = test_fraction->count() > 0;
    o->distributed = workers->count() > 0 || quantizer->count() > 0;
    run_train(*o);
  });
}

}  // namespace coinfer::cli
