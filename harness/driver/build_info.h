// Which code produced a result: the source revision this binary was built
// from, recorded by the build (cmake/SourceRevision.cmake), not the tree's
// state when the binary runs.
#pragma once

#include <string>

namespace dmbench::driver {

struct SourceRevision {
  std::string commit = "unknown";  // no git, or not a checkout, when built
  bool dirty = false;              // tracked files had uncommitted changes when built
};

// The revision compiled into this binary. Cheap and safe from any thread.
SourceRevision BuiltRevision();

}  // namespace dmbench::driver
