#include "workloads/trace_workload.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "workloads/key_space.h"

namespace dmbench::workloads {

class TraceWorkload::Stream : public OperationStream {
 public:
  Stream(const TraceWorkload& workload, uint32_t client, uint64_t& passes)
      : operations_(workload.run_.operations),
        share_(workload.ShareOf(client)),
        client_(client),
        passes_(passes) {}

  Operation Next() override {
    if (next_ == share_.count) next_ = 0;
    if (next_ == 0) ++passes_;
    const TraceOperation& traced = operations_[share_.first + share_.stride * next_++];
    Operation op{traced.type, traced.key, ValueOf(client_, issued_++), 0, 0};
    if (traced.type == OpType::kRange) {
      op.range_end = kNoRangeEnd;
      op.limit = traced.scan_records;
    }
    return op;
  }

  bool DrawsAheadUnchanged() const override { return true; }

  void Unread(size_t count) override {
    for (; count > 0; --count) {
      --issued_;
      // An operation that began a pass takes the pass back with it.
      if (--next_ == 0) {
        --passes_;
        next_ = share_.count;
      }
    }
  }

 private:
  const std::vector<TraceOperation>& operations_;
  const Share share_;
  uint32_t client_;
  uint64_t& passes_;
  size_t next_ = 0;
  uint64_t issued_ = 0;
};

TraceWorkload::TraceWorkload(const WorkloadSpec& spec, uint32_t clients, uint64_t seed)
    : spec_(spec.Validated()), clients_(clients), seed_(seed) {
  if (spec_.trace.empty()) throw ConfigError("workload.trace: no trace to replay (it is \"\")");
  if (clients == 0 || clients > OperationStream::kMaxClients) {
    throw ConfigError("workload.trace: " + std::to_string(clients) +
                      " clients; a trace run needs [1, " +
                      std::to_string(OperationStream::kMaxClients) + "]");
  }
  run_ = ReadYcsbTrace(spec_.trace, "workload.trace", /*inserts_only=*/false);
  if (!spec_.trace_load.empty()) {
    load_ = ReadYcsbTrace(spec_.trace_load, "workload.trace_load", /*inserts_only=*/true);
  }
  const size_t count = run_.operations.size();
  if (count > UINT32_MAX) {
    throw ConfigError("workload.trace: '" + spec_.trace + "' holds " + std::to_string(count) +
                      " operations; at most " + std::to_string(UINT32_MAX) + " are replayed");
  }
  if (count < clients) {
    throw ConfigError("workload.trace: '" + spec_.trace + "' holds " + std::to_string(count) +
                      " operations for " + std::to_string(clients) +
                      " clients; every client needs at least one (a longer trace, or fewer "
                      "clients in topology)");
  }
  passes_.assign(clients, 0);
}

TraceWorkload::Share TraceWorkload::ShareOf(uint32_t client) const {
  const size_t count = run_.operations.size();
  if (spec_.trace_split == TraceSplit::kRoundRobin) {
    return {client, clients_, (count - client + clients_ - 1) / clients_};
  }
  const size_t begin = count * client / clients_;
  return {begin, 1, count * (client + 1) / clients_ - begin};
}

std::vector<std::pair<uint64_t, uint64_t>> TraceWorkload::BulkloadEntries() const {
  std::vector<uint64_t> keys;
  keys.reserve(load_.operations.size());
  for (const TraceOperation& operation : load_.operations) keys.push_back(operation.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  entries.reserve(keys.size());
  for (uint64_t key : keys) entries.emplace_back(key, KeySpace::BulkloadValue(seed_, key));
  return entries;
}

std::unique_ptr<OperationStream> TraceWorkload::ForClient(uint32_t client) {
  if (client >= clients_) {
    throw std::invalid_argument("TraceWorkload: client " + std::to_string(client) +
                                " is outside [0, " + std::to_string(clients_) + ")");
  }
  return std::make_unique<Stream>(*this, client, passes_[client]);
}

nlohmann::json TraceWorkload::ToJson() const {
  auto file = [](const YcsbTrace& trace) {
    nlohmann::json by_type = nlohmann::json::object();
    for (const TraceOperation& operation : trace.operations) {
      const char* name = OpTypeName(operation.type);
      by_type[name] = by_type.value(name, uint64_t{0}) + 1;
    }
    return nlohmann::json{{"path", trace.path},
                          {"lines", trace.lines},
                          {"operations", trace.operations.size()},
                          {"by_op", by_type}};
  };
  nlohmann::json section = {
      {"run", file(run_)},
      {"split", spec_.trace_split == TraceSplit::kRoundRobin ? "round-robin" : "blocks"},
      {"clients", clients_},
      {"max_passes", *std::max_element(passes_.begin(), passes_.end())}};
  if (!spec_.trace_load.empty()) section["load"] = file(load_);
  return section;
}

WorkloadScale TraceWorkload::Scale() const {
  std::unordered_map<uint64_t, uint64_t> accesses;
  for (const TraceOperation& operation : run_.operations) ++accesses[operation.key];
  std::unordered_set<uint64_t> keys;
  for (const TraceOperation& operation : load_.operations) keys.insert(operation.key);
  for (const auto& [key, count] : accesses) keys.insert(key);
  std::vector<uint64_t> counts;
  counts.reserve(accesses.size());
  for (const auto& [key, count] : accesses) counts.push_back(count);
  const size_t top = std::min<size_t>(10, counts.size());
  std::partial_sort(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(top), counts.end(),
                    std::greater<>());
  uint64_t top_sum = 0;
  for (size_t i = 0; i < top; ++i) top_sum += counts[i];
  const double operations = static_cast<double>(run_.operations.size());
  WorkloadScale scale;
  scale.keys = keys.size();
  scale.hottest_key_share = static_cast<double>(counts.front()) / operations;
  scale.top10_keys_share = static_cast<double>(top_sum) / operations;
  return scale;
}

}  // namespace dmbench::workloads
