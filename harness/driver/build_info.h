// Which code produced a result: the source tree's git revision at run time.
#pragma once

#include <string>

namespace dmbench::driver {

struct SourceRevision {
  std::string commit = "unknown";  // no git, or not a checkout
  bool dirty = false;              // uncommitted changes to tracked files
};

SourceRevision CurrentRevision();

}  // namespace dmbench::driver
