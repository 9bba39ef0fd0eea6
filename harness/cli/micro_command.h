// `dmbench micro`: the substrate microbenchmarks on the simulated fabric.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunMicroCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
