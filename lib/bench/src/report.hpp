// distbench output: the nccl-tests text table (rank 0 only) and the --json
// document. Pure formatting: no communication.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "distkit/bench/distbench.hpp"

namespace distkit::bench {

struct Cell {
  bool present = false;
  double time_us = 0, algbw = 0, busbw = 0;
  long long wrong = 0;
};

struct Row {
  size_t bytes = 0, count = 0;
  Cell oop, ip;
};

struct RankInfo {
  int rank;
  long pid;
  std::string hostname, address;
};

struct TestResult {
  Test test;
  bool reduces;
  std::vector<Row> rows;
  double avg_busbw() const;
  long long wrong() const;
};

void print_preamble(std::ostream& out, const Options& o, int ranks,
                    const std::vector<RankInfo>& info);
void print_table_header(std::ostream& out, Test t);
void print_row(std::ostream& out, const Options& o, const TestResult& t, const Row& r);
void print_footer(std::ostream& out, const TestResult& t);
void print_json(std::ostream& out, const Options& o, int ranks, const std::vector<RankInfo>& info,
                const std::vector<TestResult>& results);

}  // namespace distkit::bench
