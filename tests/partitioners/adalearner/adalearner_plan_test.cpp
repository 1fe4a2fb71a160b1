// AdaLearner's training iteration (partitioners/adalearner) on a GO and eight Nexus 5X workers:
// the replay against eq. 3.8 (time_model.hpp) where its assumptions hold, and where the GO's FIFO
// radio makes them fail.
#include "partitioners/adalearner/adalearner_plan.hpp"
#include "partitioners/adalearner/adalearner_facts.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/workload/workload.hpp"

using namespace coinfer;
using namespace coinfer::adalearner;

namespace {

struct Fixture {
  explicit Fixture(const std::string& model) : graph(build_zoo_model(model)) {}
  Graph graph;
  Platform platform = load_platform_file(COINFER_SOURCE_DIR "/platforms/adalearner_nexus5x8.yaml");
  CostModel cost{graph, estimate_host_profile(graph, HostSpeed::nominal())};
  PartitionContext ctx() const { return {graph, platform, cost, "go"}; }
  double replay_s(const Plan& plan) const {
    return simulate_in_child(platform, {plan}, training_workload(1)).end_s;
  }
};

AdaOptions fixed(int workers, AdaScheme scheme) {
  AdaOptions o;
  o.workers = workers;
  o.scheme = scheme;
  return o;
}

double duration(const Plan& plan, const std::string& id) {
  for (const auto& t : plan.tasks)
    if (t.id == id) return t.duration_s;
  FAIL("no task " << id);
  return 0.0;
}

}  // namespace

TEST_CASE("adalearner: one fp32 worker replays eq. 3.8 plus the GO's merge", "[adalearner]") {
  const Fixture f("mxnet_lenet");
  const auto r = adalearner_plan(f.ctx(), fixed(1, AdaScheme::Fp32));
  const auto e = adalearner_estimate(adalearner_costs(f.ctx()), 1, 128, AdaScheme::Fp32);
  REQUIRE(r.workers == 1);
  CHECK_FALSE(e.onebit);
  CHECK(e.wakeup_s == Approx(0.2));  // upload and download each wake a channel
  // Eq. 3.8 leaves out the GO's merge and update; everything else is the closed form.
  CHECK(f.replay_s(r.plan) == Approx(e.total_s + facts_of<AdaLearnerFacts>(r.plan).merge_s).epsilon(1e-9));
}

TEST_CASE("adalearner: one 1-bit worker replays eq. 3.12 plus the decodes it leaves out", "[adalearner]") {
  const Fixture f("mxnet_lenet");
  const auto r = adalearner_plan(f.ctx(), fixed(1, AdaScheme::OneBit));
  const auto e = adalearner_estimate(adalearner_costs(f.ctx()), 1, 128, AdaScheme::OneBit);
  REQUIRE(e.onebit);
  CHECK(facts_of<AdaLearnerFacts>(r.plan).message_bytes < 0.06 * 4 * 431080);  // the real codec's size
  // Eq. 3.12 counts (N - 1) GO decodes and no worker decode; the plan runs both.
  const double decodes = duration(r.plan, "go.decode.w1") + duration(r.plan, "w1.decode");
  CHECK(f.replay_s(r.plan) ==
        Approx(e.total_s + facts_of<AdaLearnerFacts>(r.plan).merge_s + decodes).epsilon(1e-9));
}

TEST_CASE("adalearner: with 4 fp32 workers the uploads' wake-ups overlap where eq. 3.8 adds them up",
          "[adalearner]") {
  const Fixture f("mxnet_lenet");
  const AdaCosts c = adalearner_costs(f.ctx());
  const auto r = adalearner_plan(f.ctx(), fixed(4, AdaScheme::Fp32));
  const auto e = adalearner_estimate(c, 4, 128, AdaScheme::Fp32);
  const double message_s = c.fp32_bytes / c.rate_bytes_per_s;
  const double merge = facts_of<AdaLearnerFacts>(r.plan).merge_s, replay = f.replay_s(r.plan);
  // Replay: the workers finish together and wake their radios in parallel (one wake-up exposed),
  // then the uploads queue at the GO's FIFO radio; the downloads go one after another, each waking
  // its channel first (N wake-ups).
  CHECK(replay == Approx(e.compute_s + 5 * c.wake_up_s + 8 * message_s + merge).epsilon(1e-9));
  // Eq. 3.8 sums every worker's two wake-ups: N - 1 of them too many.
  CHECK(e.total_s + merge - replay == Approx(3 * c.wake_up_s).epsilon(1e-6));
}

TEST_CASE("adalearner: the capability split gives every worker its share of the minibatch", "[adalearner]") {
  const Fixture f("mxnet_lenet");
  const auto r = adalearner_plan(f.ctx(), fixed(3, AdaScheme::Fp32));
  CHECK(duration(r.plan, "w1.step") / duration(r.plan, "w3.step") == Approx(43.0 / 42.0));
  CHECK(facts_of<AdaLearnerFacts>(r.plan).minibatch == 128);
}

TEST_CASE("adalearner: the scheduler keeps the MLP local and spreads the ConvNet", "[adalearner]") {
  const Fixture mlp("mxnet_mlp"), convnet("convnet");
  const auto m = adalearner_plan(mlp.ctx(), AdaOptions{});
  CHECK(m.workers == 0);
  CHECK(facts_of<AdaLearnerFacts>(m.plan).workers == 0);
  CHECK(m.estimates_s.size() == 9);  // local, 1..8
  const auto c = adalearner_plan(convnet.ctx(), AdaOptions{});
  CHECK(c.workers > 1);
  CHECK(facts_of<AdaLearnerFacts>(c.plan).workers == c.workers);
  CHECK(facts_of<AdaLearnerFacts>(c.plan).choice->scheme);
  // The choice is the least estimate over local and 1..8 workers.
  CHECK(facts_of<AdaLearnerFacts>(c.plan).estimate_s ==
        Approx(*std::min_element(c.estimates_s.begin(), c.estimates_s.end())));
}

TEST_CASE("adalearner: a minibatch smaller than the workers is an input error", "[adalearner]") {
  const Fixture f("mxnet_lenet");
  AdaOptions o = fixed(4, AdaScheme::Fp32);
  o.minibatch = 3;
  CHECK_THROWS_AS(adalearner_plan(f.ctx(), o), InputError);
  CHECK_THROWS_AS(adalearner_plan(f.ctx(), fixed(9, AdaScheme::Fp32)), InputError);
}

TEST_CASE("adalearner: TernGrad sends the real codec's 2-bit message both ways", "[adalearner]") {
  const Fixture f("mxnet_mlp");
  const AdaCosts c = adalearner_costs(f.ctx());
  const auto r = adalearner_plan(f.ctx(), fixed(2, AdaScheme::TernGrad));
  CHECK(c.terngrad_bytes < c.fp32_bytes / 15);
  CHECK(c.onebit_bytes < c.terngrad_bytes);
  int sent = 0;
  for (const auto& t : r.plan.tasks)
    if (t.kind == TaskKind::Transfer) {
      CHECK(t.bytes == c.terngrad_bytes);
      ++sent;
    }
  CHECK(sent == 4);
  CHECK(facts_of<AdaLearnerFacts>(r.plan).onebit);
}

TEST_CASE("adalearner: measured codec timing costs the encode tasks from the real kernels", "[adalearner]") {
  const Fixture f("mxnet_mlp");
  AdaOptions o = fixed(2, AdaScheme::OneBit);
  const double nominal = duration(adalearner_plan(f.ctx(), o).plan, "w1.encode");
  o.measured_codecs = true;
  const auto r = adalearner_plan(f.ctx(), o);
  const CodecOps ops = measured_codec_ops(f.graph);
  CHECK(ops.onebit_encode > 0);
  CHECK(ops.decode > 0);
  CHECK(ops.terngrad_encode > 0);
  // Same message, different (timed) encode cost than the nominal 3 operations per element.
  CHECK(duration(r.plan, "w1.encode") > 0);
  CHECK(duration(r.plan, "w1.encode") != nominal);
}
