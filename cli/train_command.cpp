// `coinfer train MODEL --epochs E --seed S [--batch B] [--lr X] [--momentum M] [--weight-decay W]
// [--test-fraction F] [--data FILE]`: functional training (sim/functional/trainer.hpp) on the 8x8
// handwritten digits scikit-learn ships, one line per epoch. Nothing timed is printed, so the same
// seed gives byte-identical output.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/trainer.hpp"
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
};

// The trainer for `o.model`, its errors attributed to the model (a zoo name or a file).
Trainer make_trainer(const TrainCliOptions& o) {
  try {
    return Trainer(load_model(o.model), o.seed, o.train);
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(o.model) : e;
  }
}

void run_train(const TrainCliOptions& o) {
  Trainer trainer = make_trainer(o);  // a model that cannot train fails before the data is read
  const Dataset data = load_digits(o.data);
  try {
    trainer.check_dataset(data);
  } catch (const InputError& e) {
    throw e.with_file(o.model);
  }
  const DatasetSplit split = [&] {
    try {
      return split_dataset(data.size(), o.test_fraction, o.seed);
    } catch (const InputError& e) {
      throw InputError("", "--test-fraction", e.message());
    }
  }();
  const Graph& g = trainer.model().graph();
  std::cout << fmt::format("model {}: {} layers, {} parameters, weights from seed {}\n", g.name(), g.size(),
                           format_count(g.total_params()), o.seed);
  std::cout << fmt::format("data {}: {} samples {}, {} classes; {} train, {} test (fraction {}, seed {})\n",
                           data.source, data.size(), shape_to_string(data.sample_shape), data.classes,
                           split.train.size(), split.test.size(), o.test_fraction, o.seed);
  const auto& s = o.train.sgd;
  std::cout << fmt::format("sgd: batch {}, learning rate {}, momentum {}, weight decay {}\n", o.train.batch,
                           s.learning_rate, s.momentum, s.weight_decay);
  std::cout << "epoch  train loss  test loss  test accuracy\n";
  for (std::int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
    const double loss = trainer.train_epoch(data, split.train, epoch);
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
      "Train a model with SGD on the 8x8 handwritten digits (functional mode, seeded, deterministic)");
  cmd->add_option("model", o->model, "Zoo name (digits_mlp, digits_cnn) or model JSON file")->required();
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
  cmd->add_option("--test-fraction", o->test_fraction, "Fraction of the samples held out for testing")
      ->capture_default_str();
  cmd->add_option("--data", o->data, "The digits CSV (gzip or plain; default: python3-sklearn's copy)")
      ->capture_default_str();
  cmd->callback([o] { run_train(*o); });
}

}  // namespace coinfer::cli
