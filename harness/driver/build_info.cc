#include "harness/driver/build_info.h"

namespace dmbench::driver {
namespace {

// kBuiltCommit and kBuiltDirty, written by the build.
#include "source_revision.inc"

}  // namespace

SourceRevision BuiltRevision() { return SourceRevision{kBuiltCommit, kBuiltDirty}; }

}  // namespace dmbench::driver
