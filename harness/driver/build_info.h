// Which code produced a result: the source revision this binary was built
// from, recorded by the build (cmake/SourceRevision.cmake), not the tree's
// state when the binary runs.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace dmbench::driver {

struct SourceRevision {
  std::string commit = "unknown";  // no git, or not a checkout, when built
  bool dirty = false;              // tracked files had uncommitted changes when built
};

// The revision compiled into this binary. Cheap and safe from any thread.
SourceRevision BuiltRevision();

// The GNU build ID the linker wrote into this executable, in hex, or
// "unknown" if it has none. Any two binaries that differ have different IDs,
// so it tells apart what a revision cannot: two builds of one revision with
// different uncommitted changes, or a build older than its tree. Safe from any
// thread.
std::string BinaryBuildId();

// A result's "tool" object: the binary's name, revision and build ID.
nlohmann::json ToolJson();

}  // namespace dmbench::driver
