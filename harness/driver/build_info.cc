#include "harness/driver/build_info.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

namespace dmbench::driver {
namespace {

// kBuiltCommit and kBuiltDirty, written by the build.
#include "source_revision.inc"

// The build ID among the notes of one PT_NOTE segment, or "" if none is.
// Each note is a header, its name and its descriptor, the last two padded to
// the segment's alignment (4, or 8 for notes such as .note.gnu.property).
std::string BuildIdIn(const uint8_t* at, const uint8_t* end, uint64_t alignment) {
  const auto padded = [alignment](uint64_t bytes) {
    return (bytes + alignment - 1) / alignment * alignment;
  };
  while (end - at >= static_cast<std::ptrdiff_t>(sizeof(ElfW(Nhdr)))) {
    ElfW(Nhdr) note;
    std::memcpy(&note, at, sizeof(note));
    const uint8_t* name = at + sizeof(note);
    // Sizes checked against what is left before any pointer is formed past it.
    const auto left = static_cast<uint64_t>(end - name);
    const uint64_t name_bytes = padded(note.n_namesz);
    if (name_bytes > left || note.n_descsz > left - name_bytes) break;
    const uint8_t* descriptor = name + name_bytes;
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string id;
      for (uint32_t i = 0; i < note.n_descsz; ++i) {
        id += kHex[descriptor[i] >> 4];
        id += kHex[descriptor[i] & 0xF];
      }
      return id;
    }
    if (padded(note.n_descsz) >= left - name_bytes) break;
    at = descriptor + padded(note.n_descsz);
  }
  return "";
}

}  // namespace

SourceRevision BuiltRevision() { return SourceRevision{kBuiltCommit, kBuiltDirty}; }

std::string BinaryBuildId() {
  std::string id;
  // The executable is the first object dl_iterate_phdr visits.
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* found) {
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_NOTE) continue;
          const auto* at = reinterpret_cast<const uint8_t*>(info->dlpi_addr + segment.p_vaddr);
          *static_cast<std::string*>(found) =
              BuildIdIn(at, at + segment.p_memsz, segment.p_align == 8 ? 8 : 4);
          if (!static_cast<std::string*>(found)->empty()) break;
        }
        return 1;
      },
      &id);
  return id.empty() ? "unknown" : id;
}

nlohmann::json ToolJson() {
  const SourceRevision revision = BuiltRevision();
  return {{"name", "dmbench"},
          {"git_revision", revision.commit},
          {"git_dirty", revision.dirty},
          {"build_id", BinaryBuildId()}};
}

}  // namespace dmbench::driver
