// linreg: the acceptance example. Data-parallel full-batch gradient descent
// on a linear model: every rank generates its shard of a seeded dataset
// (dataset.hpp), computes its partial gradient, and the gradients are summed
// with the bundled runtime's all-reduce. Rank 0 prints the metrics as one
// JSON line, writes them to OUT/metrics.json, writes the whole dataset to
// OUT/dataset.csv and, with --checkpoint-at, a checkpoint; --resume-from
// continues from one. Deterministic given the seed and the world size.
//
//   distlaunch --hostfile hosts.json -- linreg --seed 42 --out /tmp/run1
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "dataset.hpp"
#include "distkit/runtime/group.hpp"

namespace {

struct Args {
  unsigned long long seed = 42;
  long samples = 4096;
  int features = 4;
  long steps = 300;
  double lr = 0.1;
  long checkpoint_at = -1;
  std::string resume_from;
  std::string out;
  bool nondeterministic = false;
};

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "linreg: error: %s\nusage: linreg --out DIR [--seed N] [--samples N] [--features N]"
               " [--steps N] [--lr X] [--checkpoint-at STEP] [--resume-from FILE]"
               " [--nondeterministic]\n",
               problem.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "--nondeterministic") {
      a.nondeterministic = true;
      continue;
    }
    if (i + 1 >= argc) usage(k + " needs a value");
    std::string v = argv[++i];
    if (k == "--seed")
      a.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--samples")
      a.samples = std::atol(v.c_str());
    else if (k == "--features")
      a.features = std::atoi(v.c_str());
    else if (k == "--steps")
      a.steps = std::atol(v.c_str());
    else if (k == "--lr")
      a.lr = std::atof(v.c_str());
    else if (k == "--checkpoint-at")
      a.checkpoint_at = std::atol(v.c_str());
    else if (k == "--resume-from")
      a.resume_from = v;
    else if (k == "--out")
      a.out = v;
    else
      usage("unknown option " + k);
  }
  if (a.out.empty()) usage("--out is required");
  if (a.samples < 1 || a.features < 1 || a.features > 64 || a.steps < 0 || !(a.lr > 0))
    usage("--samples, --features (1..64), --steps and --lr must be positive");
  return a;
}

// Sum of squared errors and its gradient (features, then bias) over a shard;
// packed as [grad..., sse] for one all-reduce.
std::vector<double> partial(const linreg::Dataset& d, const std::vector<double>& w) {
  const int f = d.features;
  std::vector<double> g(static_cast<size_t>(f) + 2, 0.0);
  for (size_t i = 0; i < d.y.size(); ++i) {
    const double* x = &d.x[i * static_cast<size_t>(f)];
    double pred = w[static_cast<size_t>(f)];
    for (int j = 0; j < f; ++j) pred += w[static_cast<size_t>(j)] * x[j];
    double err = pred - d.y[i];
    for (int j = 0; j < f; ++j) g[static_cast<size_t>(j)] += 2.0 * err * x[j];
    g[static_cast<size_t>(f)] += 2.0 * err;
    g[static_cast<size_t>(f) + 1] += err * err;
  }
  return g;
}

void write_text(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0)
    throw std::runtime_error(path + ": cannot write");
}

std::string dataset_csv(const Args& a) {
  linreg::Dataset all = linreg::generate(a.seed, a.features, 0, a.samples, 0.0);
  std::string csv;
  char buf[40];
  for (size_t i = 0; i < all.y.size(); ++i) {
    for (int j = 0; j < a.features; ++j) {
      std::snprintf(buf, sizeof buf, "%.17g,",
                    all.x[i * static_cast<size_t>(a.features) + static_cast<size_t>(j)]);
      csv += buf;
    }
    std::snprintf(buf, sizeof buf, "%.17g\n", all.y[i]);
    csv += buf;
  }
  return csv;
}

std::string metrics_json(const Args& a, int world, double loss, const std::vector<double>& w) {
  std::string s = "{\"final_loss\": ";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", loss);
  s += buf;
  for (int j = 0; j <= a.features; ++j) {
    std::snprintf(buf, sizeof buf, "%.17g", w[static_cast<size_t>(j)]);
    s += j == a.features ? ", \"bias\": " : ", \"w" + std::to_string(j) + "\": ";
    s += buf;
  }
  s += ", \"steps\": " + std::to_string(a.steps) + ", \"world_size\": " + std::to_string(world) +
       ", \"seed\": " + std::to_string(a.seed) + "}";
  return s;
}

int train(const Args& a) {
  auto group = distkit::rt::Group::from_environment();
  const int rank = group->rank(), world = group->size();
  // --nondeterministic: label noise from the OS's entropy, different in
  // every run, the way an unseeded shuffle or augmentation would behave.
  double extra = a.nondeterministic ? 1e-3 * (std::random_device{}() % 1000 + 1) : 0.0;
  long begin = a.samples * rank / world, end = a.samples * (rank + 1) / world;
  linreg::Dataset shard = linreg::generate(a.seed, a.features, begin, end, extra);
  std::vector<double> w(static_cast<size_t>(a.features) + 1, 0.0);
  long step = 0;
  if (!a.resume_from.empty()) {
    // Rank 0 reads the checkpoint (it lives on rank 0's host) and sends it.
    std::vector<double> state(w.size() + 1, 0.0);
    if (rank == 0) {
      linreg::Checkpoint c = linreg::read_checkpoint(a.resume_from);
      if (c.weights.size() != w.size() || c.seed != a.seed)
        throw std::runtime_error(a.resume_from + ": checkpoint of another model or seed");
      state.assign(c.weights.begin(), c.weights.end());
      state.push_back(static_cast<double>(c.step));
    }
    group->broadcast(state.data(), state.size(), distkit::rt::DType::float64, 0);
    step = static_cast<long>(state.back());
    w.assign(state.begin(), state.end() - 1);
  }
  const double scale = a.lr / static_cast<double>(a.samples);
  for (; step < a.steps; ++step) {
    if (step == a.checkpoint_at && rank == 0)
      linreg::write_checkpoint(a.out + "/checkpoint.txt", {step, a.seed, w});
    std::vector<double> g = partial(shard, w);
    group->all_reduce(g.data(), g.size(), distkit::rt::DType::float64, distkit::rt::ReduceOp::sum);
    for (size_t j = 0; j < w.size(); ++j) w[j] -= scale * g[j];
  }
  std::vector<double> g = partial(shard, w);
  group->all_reduce(g.data(), g.size(), distkit::rt::DType::float64, distkit::rt::ReduceOp::sum);
  double loss = g.back() / static_cast<double>(a.samples);
  if (rank == 0) {
    std::string m = metrics_json(a, world, loss, w);
    write_text(a.out + "/metrics.json", m + "\n");
    write_text(a.out + "/dataset.csv", dataset_csv(a));
    std::printf("%s\n", m.c_str());
  }
  group->barrier();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse(argc, argv);
  try {
    std::filesystem::create_directories(a.out);
    return train(a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "linreg: error: %s\n", e.what());
    return 1;
  }
}
