// A seeded pseudo-random permutation of [0, n), used to scatter popularity ranks over the key
// space so that the hottest keys do not share a few B+Tree leaves.
//
// YCSB instead hashes a rank modulo n, which collides: some keys get the popularity of several
// ranks and others none, distorting the intended frequencies. A permutation keeps them exact.
// We build it as a balanced Feistel network (a bijection for any round function) over the
// smallest even number of bits covering n, and cycle-walk (Black & Rogaway, "Ciphers with
// arbitrary finite domains", 2002) to stay inside [0, n). The domain is below 4n, so a walk
// takes fewer than 4 network evaluations on average.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dmbench::workloads {

class KeyScrambler {
 public:
  // Throws std::invalid_argument if n == 0.
  KeyScrambler(uint64_t n, uint64_t seed);

  // The key at which popularity rank `rank` lands. Throws std::out_of_range if rank >= n.
  uint64_t Permute(uint64_t rank) const;

  // Inverse(Permute(rank)) == rank. Throws std::out_of_range if key >= n.
  uint64_t Inverse(uint64_t key) const;

  // out[i] = Permute(first + i) for i < count: the bulk path for a pass over
  // consecutive ranks. One rank's rounds form a dependent chain (table
  // loads, or multiplies past kTabledHalfBits), so where walks are long it
  // steps a batch of ranks at a time. Throws std::out_of_range unless
  // first + count <= n; `out` holds count values.
  void PermuteRun(uint64_t first, uint64_t count, uint64_t* out) const;

  uint64_t items() const { return n_; }

 private:
  // Four rounds with independent pseudo-random round functions give a strong pseudo-random
  // permutation (Luby & Rackoff, 1988); fewer leave visible structure between input and output.
  static constexpr size_t kRounds = 4;

  // For halves up to this wide (key spaces up to 2^32 keys, the paper's 1 B
  // included) PermuteRun takes its round function from a table built once:
  // 2^16 entries per round at most, 512 KiB, against two dependent 64-bit
  // multiplies per round and key when hashed. A lone Permute or Inverse (a
  // simulation's draws) hashes: between two draws the table's lines leave
  // the caches, and its four dependent loads took 230 ns a draw at 1 B keys
  // (6% of a read-intensive simulation), hashing a tenth of that.
  static constexpr int kTabledHalfBits = 16;

  // The round function, hashed, and the same from the table where there is one.
  uint64_t HashedRoundFunction(size_t round, uint64_t half) const;
  uint64_t TabledRoundFunction(size_t round, uint64_t half) const;
  template <bool kTabled>
  uint64_t Encrypt(uint64_t block) const;
  uint64_t Decrypt(uint64_t block) const;
  // Permute of an in-range rank, unchecked: Encrypt along the cycle until
  // the walk is back in [0, n).
  template <bool kTabled>
  uint64_t WalkForward(uint64_t rank) const;

  uint64_t n_;
  int half_bits_;
  uint64_t half_mask_;
  std::array<uint64_t, kRounds> round_keys_;
  // HashedRoundFunction(round, half) at [round << half_bits_ | half]; empty
  // when halves are wider than kTabledHalfBits.
  std::vector<uint16_t> round_table_;
};

}  // namespace dmbench::workloads
