// `dmbench fuzz`: a seeded fuzz campaign over every input dmbench reads.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunFuzzCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
