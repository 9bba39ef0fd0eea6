// What the tests against a real RDMA device share: memory servers serving on
// threads of the test process, one per address of the device, and a
// topology and options for compute servers that connect to them.
//
// DMBENCH_TEST_RDMA_ADDRESSES: two local addresses of the device, comma
// separated (default "10.0.0.1,10.0.0.2", the VM's).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness/rdma/topology.h"
#include "harness/rdma/verbs/memory_server.h"
#include "harness/rdma/verbs/verbs_cluster.h"

namespace dmbench::rdma::verbs::test_support {

inline std::vector<std::string> TestAddresses() {
  const char* variable = std::getenv("DMBENCH_TEST_RDMA_ADDRESSES");
  const std::string text = variable != nullptr ? variable : "10.0.0.1,10.0.0.2";
  std::vector<std::string> addresses;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    addresses.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return addresses;
}

// A memory server serving on a thread of this process.
class ServedMemory {
 public:
  explicit ServedMemory(const std::string& address) {
    ServeOptions options;
    options.listen = address + ":0";
    options.host_memory_mib = 16;
    server_ = std::make_unique<MemoryServer>(options);
    endpoint_ = address + ":" + std::to_string(server_->port());
    thread_ = std::thread([this] { server_->Serve(stop_, nullptr); });
  }
  ~ServedMemory() { Stop(); }
  // Stops serving and closes every connection, as a killed server would.
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }
  MemoryServer& server() { return *server_; }
  const std::string& endpoint() const { return endpoint_; }

 private:
  std::unique_ptr<MemoryServer> server_;
  std::string endpoint_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

class VerbsDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& address : TestAddresses()) {
      servers_.push_back(std::make_unique<ServedMemory>(address));
    }
    topology_.memory_servers = static_cast<uint32_t>(servers_.size());
    topology_.compute_servers = 1;
    topology_.colocated = false;
    topology_.threads_per_compute_server = 2;
    topology_.coroutines_per_thread = 3;
    topology_.host_memory_mib = 16;
    topology_.chunk_mib = 1;
  }
  VerbsOptions Options(uint32_t compute_server = 0) const {
    VerbsOptions options;
    for (const auto& server : servers_) options.memory_servers.push_back(server->endpoint());
    options.compute_server = compute_server;
    options.connect_timeout_ms = 3000;
    options.completion_timeout_ms = 5000;
    return options;
  }

  std::vector<std::unique_ptr<ServedMemory>> servers_;
  Topology topology_;
};

}  // namespace dmbench::rdma::verbs::test_support
