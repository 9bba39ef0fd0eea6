// Compute-side primitives of the sim client (Park/Unpark, Yield, ChargeCpu)
// and how Run() ends: normally, by deadlock, or by a client's exception.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::DefaultProfile;
using test_support::MakeCluster;
using test_support::SmallTopology;

// `compute_servers` x `threads` x `coroutines`, one memory server.
Topology Shape(uint32_t compute_servers, uint32_t threads, uint32_t coroutines) {
  Topology topology = SmallTopology(1, compute_servers, coroutines);
  topology.threads_per_compute_server = threads;
  return topology;
}

std::string RunError(SimCluster& cluster, const SimCluster::ClientBody& body) {
  try {
    cluster.Run(body);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "no error";
}

// Every client records itself, then yields once so that all have done so
// before any body goes on (all start at the same instant, in index order).
class Roster {
 public:
  explicit Roster(uint32_t clients) : clients_(clients, nullptr) {}
  void Join(Client& client) {
    clients_[client.location().index] = &client;
    client.Yield();
  }
  Client& operator[](size_t index) const { return *clients_[index]; }

 private:
  std::vector<Client*> clients_;
};

TEST(Park, UnparkBeforeParkIsKept) {
  auto cluster = MakeCluster(Shape(1, 1, 2));
  Roster roster(2);
  bool returned_from_park = false;
  cluster->Run([&](Client& client) {
    roster.Join(client);
    if (client.location().index == 0) {
      roster[0].Unpark(roster[1]);  // client 1 is not parked yet
    } else {
      client.ChargeCpu(500);
      client.Park();
      returned_from_park = true;
    }
  });
  EXPECT_TRUE(returned_from_park);
}

// The permit is one wake-up, not a count: two Unparks before two Parks leave
// the second Park with nothing to wake it.
TEST(Park, PermitIsNotACounter) {
  auto cluster = MakeCluster(Shape(1, 1, 2));
  Roster roster(2);
  int parks_returned = 0;
  const std::string error = RunError(*cluster, [&](Client& client) {
    roster.Join(client);
    if (client.location().index == 0) {
      client.Unpark(roster[1]);
      client.Unpark(roster[1]);
    } else {
      client.Park();
      ++parks_returned;
      client.Park();
      ++parks_returned;
    }
  });
  EXPECT_TRUE(Mentions(error, "deadlocked: 1 clients are parked"));
  EXPECT_EQ(parks_returned, 1);
}

// Every client but 0 parks; client 0 lets them, then calls `wake`. Returns
// who resumed, in order, and how long after the wake each did.
struct Wakeups {
  std::vector<uint32_t> order;
  std::vector<uint64_t> after_ns;
};
Wakeups ParkThenWake(const Topology& shape, uint32_t clients,
                     const std::function<void(Client&, Roster&)>& wake) {
  auto cluster = MakeCluster(shape);
  Roster roster(clients);
  Wakeups wakeups;
  uint64_t woke_at_ns = 0;
  cluster->Run([&](Client& client) {
    roster.Join(client);
    if (client.location().index == 0) {
      client.ChargeCpu(1000);
      client.Yield();
      woke_at_ns = client.NowNanoseconds();
      wake(client, roster);
    } else {
      client.Park();
      wakeups.order.push_back(client.location().index);
      wakeups.after_ns.push_back(client.NowNanoseconds() - woke_at_ns);
    }
  });
  return wakeups;
}

TEST(Park, ParkedClientsWakeInUnparkOrderAfterTheWakeupCost) {
  // Woken out of index order.
  const Wakeups wakeups = ParkThenWake(Shape(1, 2, 2), 4, [](Client& client, Roster& roster) {
    client.Unpark(roster[3]);
    client.Unpark(roster[1]);
    client.Unpark(roster[2]);
  });
  EXPECT_EQ(wakeups.order, (std::vector<uint32_t>{3, 1, 2}));
  const auto wakeup_ns = static_cast<uint64_t>(DefaultProfile().cpu_wakeup_ns);
  ASSERT_EQ(wakeups.after_ns.size(), 3u);
  for (uint64_t after : wakeups.after_ns) EXPECT_GE(after, wakeup_ns);
}

// A lock handed over while others spin on it takes longer by the profile's
// cost per spinner (Sherman's local lock is a ticket lock).
TEST(Park, EachSpinnerDelaysTheHandOff) {
  auto woken_after = [](uint32_t spinners) {
    const Wakeups wakeups = ParkThenWake(Shape(1, 2, 1), 2, [&](Client& client, Roster& roster) {
      client.Unpark(roster[1], spinners);
    });
    return wakeups.after_ns.at(0);
  };
  const NicProfile& profile = DefaultProfile();
  ASSERT_GT(profile.cpu_lock_spinner_ns, 0);
  const uint64_t alone = woken_after(0);
  const uint64_t behind_ten = woken_after(10);
  EXPECT_GE(alone, static_cast<uint64_t>(profile.cpu_wakeup_ns));
  EXPECT_NEAR(static_cast<double>(behind_ten - alone), 10 * profile.cpu_lock_spinner_ns, 2);
}

TEST(Park, UnparkAcrossComputeServersThrowsVerbError) {
  auto cluster = MakeCluster(Shape(2, 1, 1));
  Roster roster(2);
  try {
    cluster->Run([&](Client& client) {
      roster.Join(client);
      if (client.location().index == 0) client.Unpark(roster[1]);
    });
    FAIL() << "client 0 woke a client of another compute server";
  } catch (const VerbError& error) {
    EXPECT_TRUE(Mentions(error.what(),
                         "Unpark: client 0 may only wake clients of its own compute server 0, "
                         "not client 1"));
  }
}

TEST(Yield, LetsTheOtherCoroutinesOfTheThreadRun) {
  auto cluster = MakeCluster(Shape(1, 1, 3));
  std::string trace;
  cluster->Run([&](Client& client) {
    for (int i = 0; i < 3; ++i) {
      trace += static_cast<char>('a' + client.location().coroutine);
      client.Yield();
    }
  });
  EXPECT_EQ(trace, "abcabcabc");
}

// The wait-for-a-flag idiom of local lock tables: a coroutine yields until
// another coroutine of its thread, blocked on a round trip, sets a flag. The
// spin is bounded so that a Yield which never lets simulated time move fails
// here instead of hanging the suite.
constexpr int kSpinLimit = 100000;

struct SpinResult {
  bool saw_flag = false;
  int spins = 0;
  uint64_t spun_ns = 0;  // simulated time the spin took
};

SpinResult SpinUntilARoundTripCompletes(uint64_t cpu_per_spin_ns) {
  auto cluster = MakeCluster(Shape(1, 1, 2));
  bool flag = false;
  SpinResult result;
  cluster->Run([&](Client& client) {
    if (client.location().coroutine == 0) {
      const uint64_t start = client.NowNanoseconds();
      while (!flag && result.spins < kSpinLimit) {
        ++result.spins;
        client.ChargeCpu(cpu_per_spin_ns);
        client.Yield();
      }
      result.saw_flag = flag;
      result.spun_ns = client.NowNanoseconds() - start;
    } else {
      client.FetchAndAdd(GlobalAddress::Host(0, 1 << 20), 1);
      flag = true;
    }
  });
  return result;
}

// Control: when each spin costs CPU time, the round trip completes meanwhile.
TEST(Yield, SpinningThatChargesCpuSeesTheRoundTripComplete) {
  const SpinResult result = SpinUntilARoundTripCompletes(10);
  EXPECT_TRUE(result.saw_flag);
  EXPECT_GT(result.spins, 1);
  EXPECT_LT(result.spins, 1000);
  EXPECT_GT(result.spun_ns, 1000u);  // a round trip is ~2 us
}

TEST(Yield, SpinningWithYieldAloneSeesTheRoundTripComplete) {
  const SpinResult result = SpinUntilARoundTripCompletes(0);
  EXPECT_TRUE(result.saw_flag) << "gave up after " << result.spins << " yields in "
                               << result.spun_ns << " ns of simulated time";
}

TEST(ChargeCpu, AdvancesTheCallersClockByExactlyTheCharge) {
  auto cluster = MakeCluster(Shape(1, 1, 1));
  uint64_t before = 0, after = 0;
  cluster->Run([&](Client& client) {
    client.FetchAndAdd(GlobalAddress::Host(0, 1 << 20), 1);
    before = client.NowNanoseconds();
    client.ChargeCpu(1000);
    after = client.NowNanoseconds();
  });
  EXPECT_GT(before, 0u);
  EXPECT_EQ(after - before, 1000u);
}

struct ChargeResult {
  std::vector<uint64_t> after_charge_ns;
  SimTime end = 0;
};

ChargeResult ChargeTwoCoroutines(const Topology& topology) {
  auto cluster = MakeCluster(topology);
  ChargeResult result;
  result.after_charge_ns.resize(2);
  cluster->Run([&](Client& client) {
    client.ChargeCpu(1000);
    result.after_charge_ns[client.location().index] = client.NowNanoseconds();
    // Only events move the cluster's clock; a yield turns the CPU time into one.
    client.Yield();
  });
  result.end = cluster->now();
  return result;
}

// A yield costs one completion-queue poll of the thread's CPU.
uint64_t YieldNs() {
  return static_cast<uint64_t>(test_support::DefaultProfile().cpu_poll_completion_ns);
}

TEST(ChargeCpu, SerializesTheCoroutinesOfOneThread) {
  const ChargeResult result = ChargeTwoCoroutines(Shape(1, 1, 2));
  // The second coroutine's charge starts after the first's charge and yield.
  EXPECT_EQ(result.after_charge_ns, (std::vector<uint64_t>{1000, 2000 + YieldNs()}));
  EXPECT_GE(result.end, Nanoseconds(2000));
}

TEST(ChargeCpu, ThreadsOverlap) {
  const ChargeResult result = ChargeTwoCoroutines(Shape(1, 2, 1));
  EXPECT_EQ(result.after_charge_ns, (std::vector<uint64_t>{1000, 1000}));
  EXPECT_EQ(result.end, Nanoseconds(static_cast<double>(1000 + YieldNs())));
}

TEST(Run, EveryClientParkedForeverIsADeadlockNotAHang) {
  auto cluster = MakeCluster(Shape(2, 1, 2));
  const std::string error = RunError(*cluster, [](Client& client) { client.Park(); });
  EXPECT_TRUE(Mentions(error, "simulation deadlocked: 4 clients are parked"));
  EXPECT_THROW(cluster->Run([](Client& client) { client.Park(); }), VerbError);
}

TEST(Run, DeadlockCountsOnlyTheParkedClients) {
  auto cluster = MakeCluster(Shape(1, 1, 3));
  const std::string error = RunError(*cluster, [](Client& client) {
    if (client.location().coroutine != 1) client.Park();
  });
  EXPECT_TRUE(Mentions(error, "deadlocked: 2 clients are parked"));
}

TEST(Run, ClusterRunsAgainAfterADeadlock) {
  auto cluster = MakeCluster(Shape(1, 1, 2));
  EXPECT_THROW(cluster->Run([](Client& client) { client.Park(); }), VerbError);
  int finished = 0;
  cluster->Run([&](Client& client) {
    client.FetchAndAdd(GlobalAddress::Host(0, 1 << 20), 1);
    ++finished;
  });
  EXPECT_EQ(finished, 2);
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(1 << 20), 2u);
}

TEST(Run, ClientExceptionPropagatesAndTheClusterRunsAgain) {
  auto cluster = MakeCluster(Shape(2, 1, 2));
  const GlobalAddress word = GlobalAddress::Host(0, 1 << 20);
  try {
    cluster->Run([&](Client& client) {
      client.FetchAndAdd(word, 1);
      if (client.location().index == 2) throw std::runtime_error("client 2 gave up");
      client.Park();  // the others block, so only the exception can end the run
    });
    FAIL() << "the client's exception was swallowed";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "client 2 gave up");
  }
  const uint64_t before = cluster->memory(0, MemorySpace::kHost).ReadWord(word.offset);

  int finished = 0;
  cluster->Run([&](Client& client) {
    client.FetchAndAdd(word, 10);
    ++finished;
  });
  EXPECT_EQ(finished, 4);
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(word.offset), before + 40);
}

// The exception strikes while other clients wait in the same atomic bucket;
// a later run must still be able to use atomics on that word.
TEST(Run, ClusterRunsAgainAfterAnExceptionDuringAtomicContention) {
  auto cluster = MakeCluster(Shape(2, 1, 8));
  const GlobalAddress word = GlobalAddress::Host(0, 1 << 20);
  EXPECT_THROW(cluster->Run([&](Client& client) {
    for (int i = 0; i < 20; ++i) {
      client.FetchAndAdd(word, 1);
      if (client.location().index == 0 && i == 10) throw std::runtime_error("give up");
    }
  }),
               std::runtime_error);
  const uint64_t before = cluster->memory(0, MemorySpace::kHost).ReadWord(word.offset);

  const std::string error = RunError(*cluster, [&](Client& client) {
    for (int i = 0; i < 5; ++i) client.FetchAndAdd(word, 1);
  });
  EXPECT_EQ(error, "no error");
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(word.offset), before + 16 * 5);
}

// As above with four compute servers, whose atomics on the one word wait in
// parking slots at their bucket: a batch slot that held a parked atomic when
// the run failed must not pass for a parked one in the next run, which would
// leave its processing unit blocked and every client behind it waiting.
TEST(Run, ClusterRunsAgainAfterAnExceptionWhileAtomicsWereParked) {
  auto cluster = MakeCluster(Shape(4, 1, 4));
  const GlobalAddress word = GlobalAddress::Host(0, 1 << 20);
  bool stop = false;
  EXPECT_THROW(cluster->Run([&](Client& client) {
    if (client.location().index == 0) {
      client.SleepUntil(client.NowNanoseconds() + 20'000);
      stop = true;
      throw std::runtime_error("give up");
    }
    while (!stop) client.FetchAndAdd(word, 1);
  }),
               std::runtime_error);

  // Each client's own word now, so that no bucket is busy and nothing parks.
  const std::string error = RunError(*cluster, [&](Client& client) {
    const GlobalAddress own = GlobalAddress::Host(0, (2 << 20) + 8 * client.location().index);
    client.FetchAndAdd(own, 1);
    uint64_t value = 0;
    client.Read(own, &value, 8);
    client.FetchAndAdd(own, 1);
  });
  EXPECT_EQ(error, "no error");
}

}  // namespace
}  // namespace dmbench::rdma::sim
