#include "harness/micro/micro_runner.h"

#include <cstdio>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"

namespace dmbench::micro {

nlohmann::json PointResult::ToJson() const {
  return {{"operations", operations},
          {"mops", mops()},
          {"gigabytes_per_second", gigabytes_per_second()},
          {"latency_us",
           {{"p50", latency_ns.Percentile(50) / 1e3},
            {"p90", latency_ns.Percentile(90) / 1e3},
            {"p99", latency_ns.Percentile(99) / 1e3},
            {"p999", latency_ns.Percentile(99.9) / 1e3},
            {"mean", latency_ns.mean() / 1e3}}},
          {"simulator",
           {{"wall_seconds", simulator.wall_seconds},
            {"simulated_seconds", simulator.simulated_seconds},
            {"verbs", simulator.verbs},
            {"events", simulator.events},
            {"verbs_per_wall_second", simulator.verbs_per_wall_second()}}}};
}

PointResult MeasurePoint(const rdma::Topology& topology, const MicroOptions& options,
                         const Operation& operation) {
  if (options.latency_compute_server &&
      *options.latency_compute_server >= topology.compute_servers) {
    throw ConfigError("--latency-from: compute server " +
                      std::to_string(*options.latency_compute_server) + " does not exist; " +
                      "allowed: all or 0.." + std::to_string(topology.compute_servers - 1));
  }
  rdma::sim::SimOptions sim_options;
  sim_options.seed = options.seed;
  sim_options.substrate = options.substrate;
  rdma::sim::SimCluster cluster(topology, options.profile, sim_options);

  const auto begin_ns = static_cast<uint64_t>(options.warmup_us * 1e3);
  const auto end_ns = static_cast<uint64_t>((options.warmup_us + options.measure_us) * 1e3);
  std::vector<PointResult> per_client(cluster.shape().clients);
  PointResult result;
  result.simulator = cluster.Run([&](rdma::Client& client) {
    Random random(DeriveSeed(options.seed, client.location().index));
    PointResult& mine = per_client[client.location().index];
    const bool sampled = !options.latency_compute_server ||
                         *options.latency_compute_server == client.location().compute_server;
    for (;;) {
      const uint64_t start = client.NowNanoseconds();
      if (start >= end_ns) break;
      client.BeginTask();
      const Completed completed = operation(client, random);
      client.EndTask();
      const uint64_t finish = client.NowNanoseconds();
      // Throughput counts completions inside the window, whenever they
      // started; counting only operations wholly inside it would lose the
      // ones straddling its start and under-report long operations.
      if (finish > begin_ns && finish <= end_ns) {
        mine.operations += completed.operations;
        mine.payload_bytes += completed.payload_bytes;
        // Work that completes no counted operation (a background spinner)
        // is load, not a latency sample.
        if (completed.operations > 0 && sampled) mine.latency_ns.Record(finish - start);
      }
    }
  });
  for (const PointResult& client : per_client) {
    result.operations += client.operations;
    result.payload_bytes += client.payload_bytes;
    result.latency_ns.Merge(client.latency_ns);
  }
  result.measured_seconds = options.measure_us / 1e6;
  return result;
}

rdma::Topology MicroTopology(uint32_t compute_servers, uint32_t memory_servers) {
  rdma::Topology topology;
  topology.memory_servers = memory_servers;
  topology.compute_servers = compute_servers;
  topology.threads_per_compute_server = 22;
  topology.coroutines_per_thread = 1;
  topology.colocated = false;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

nlohmann::json PointRow(const PointResult& point, const nlohmann::json& parameters) {
  nlohmann::json row = point.ToJson();
  row.update(parameters);
  row["p50_us"] = row["latency_us"]["p50"];
  row["p99_us"] = row["latency_us"]["p99"];
  return row;
}

nlohmann::json FinishBenchmark(const std::string& benchmark, const std::string& title,
                               const std::vector<std::string>& columns, nlohmann::json parameters,
                               const MicroOptions& options, const std::vector<nlohmann::json>& rows,
                               const std::vector<PointResult>& points, std::ostream& table) {
  table << title << "\n" << FormatTable(rows, columns) << SimulatorSpeedLine(points);
  parameters["benchmark"] = benchmark;
  parameters["warmup_us"] = options.warmup_us;
  parameters["measure_us"] = options.measure_us;
  parameters["latency_from"] = options.latency_compute_server
                                   ? nlohmann::json(*options.latency_compute_server)
                                   : nlohmann::json("all");
  parameters["points"] = rows;
  parameters["simulator"] = SimulatorSpeedJson(points);
  return parameters;
}

std::string FormatTable(const std::vector<nlohmann::json>& rows,
                        const std::vector<std::string>& columns) {
  auto cell = [](const nlohmann::json& value) {
    if (value.is_number_float()) {
      char text[32];
      std::snprintf(text, sizeof(text), "%.3g", value.get<double>());
      return std::string(text);
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
  };
  std::vector<size_t> widths;
  for (const std::string& column : columns) widths.push_back(column.size());
  for (const nlohmann::json& row : rows) {
    for (size_t i = 0; i < columns.size(); ++i) {
      widths[i] = std::max(widths[i], cell(row.at(columns[i])).size());
    }
  }
  std::ostringstream table;
  for (size_t i = 0; i < columns.size(); ++i) {
    table << (i ? "  " : "") << std::string(widths[i] - columns[i].size(), ' ') << columns[i];
  }
  table << "\n";
  for (const nlohmann::json& row : rows) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string text = cell(row.at(columns[i]));
      table << (i ? "  " : "") << std::string(widths[i] - text.size(), ' ') << text;
    }
    table << "\n";
  }
  return table.str();
}

nlohmann::json SimulatorSpeedJson(const std::vector<PointResult>& points) {
  double wall = 0;
  uint64_t verbs = 0, events = 0;
  for (const PointResult& point : points) {
    wall += point.simulator.wall_seconds;
    verbs += point.simulator.verbs;
    events += point.simulator.events;
  }
  return {{"wall_seconds", wall},
          {"verbs", verbs},
          {"events", events},
          {"verbs_per_wall_second", wall > 0 ? verbs / wall : 0},
          {"events_per_wall_second", wall > 0 ? events / wall : 0}};
}

std::string SimulatorSpeedLine(const std::vector<PointResult>& points) {
  const nlohmann::json speed = SimulatorSpeedJson(points);
  char text[200];
  std::snprintf(text, sizeof(text),
                "simulator: %.2f M verbs/s, %.2f M events/s of wall-clock time on one core "
                "(%.2f s wall)\n",
                speed["verbs_per_wall_second"].get<double>() / 1e6,
                speed["events_per_wall_second"].get<double>() / 1e6,
                speed["wall_seconds"].get<double>());
  return text;
}

}  // namespace dmbench::micro
