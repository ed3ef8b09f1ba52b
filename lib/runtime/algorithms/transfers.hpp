// A small plan for the tree/chain/pairwise algorithms: a list of whole-buffer
// transfers (send to or receive from one peer), each cut into chunks striped
// over the peer's connections. A send may be gated on a receive of the same
// size: chunk g goes out only once chunk g has arrived (pipelined
// forwarding for broadcast trees and chains).
#pragma once

#include "algorithms/comm.hpp"

namespace distkit::rt {

class Transfers : public Plan {
 public:
  explicit Transfers(Comm& c) : c_(c) {}
  // Returns the transfer's index (for gating).
  int send(int peer, const unsigned char* buf, size_t bytes, int gate = -1) {
    return add(peer, const_cast<unsigned char*>(buf), bytes, true, gate);
  }
  int recv(int peer, unsigned char* buf, size_t bytes) { return add(peer, buf, bytes, false, -1); }
  void run(FrameOp op);

  bool frame(int s, uint32_t k, unsigned char*& buf, size_t& len) override;

 private:
  struct Transfer {
    unsigned char* buf;
    size_t bytes, chunks;
    int gate;
    Stripes stripes;
  };
  int add(int peer, unsigned char* buf, size_t bytes, bool is_send, int gate);

  Comm& c_;
  Transfer transfers_[16];
  int ntransfers_ = 0;
  Stream streams_[64];
  int owner_[64];
  int nstreams_ = 0;
};

}  // namespace distkit::rt
