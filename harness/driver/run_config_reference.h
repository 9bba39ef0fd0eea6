// The reference of every run-config field, as Markdown: each section's field
// list (the one place a field is declared) with its allowed values, its
// default and its meaning. configs/README.md is this text; `dmbench config
// --describe` prints it.
#pragma once

#include <string>

namespace dmbench::driver {

std::string RunConfigReferenceMarkdown();

}  // namespace dmbench::driver
