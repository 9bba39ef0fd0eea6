# DMBENCH_SANITIZE selects an instrumented build: "address" (ASan + UBSan) or
# "thread" (TSan). The presets in CMakePresets.json set it.
set(DMBENCH_SANITIZE "" CACHE STRING "Sanitizer build: empty, address or thread")
set_property(CACHE DMBENCH_SANITIZE PROPERTY STRINGS "" address thread)

if(DMBENCH_SANITIZE STREQUAL "address")
  # Boost.Context must be told that stacks are switched under ASan.
  add_compile_definitions(BOOST_USE_ASAN)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(DMBENCH_SANITIZE STREQUAL "thread")
  add_compile_definitions(BOOST_USE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT DMBENCH_SANITIZE STREQUAL "")
  message(FATAL_ERROR "DMBENCH_SANITIZE must be empty, 'address' or 'thread', got '${DMBENCH_SANITIZE}'")
endif()

if(NOT DMBENCH_SANITIZE STREQUAL "")
  # Line tables are all a sanitizer report needs (file:line in each frame).
  # Full debug info nearly doubled every compile (23 s vs 12.6 s for the
  # driver's runner under ASan), which pushed the test command past its time
  # budget; the last -g option wins, so this overrides the build type's -g.
  add_compile_options(-g1)
  # -Og in place of the build type's -O2: the ASan build is the longest step
  # of the test command, and much of its time is code generation for the
  # checks UBSan adds (a merged unit of the simulator's tests took 18.5 s
  # without UBSan, 32 s with it). At -Og that unit compiles in 20 s, against
  # 32-37 s at -O1 (back to back, twice; -O2 took a third longer than -O1),
  # and the ASan+UBSan tests took 122 s against 108 s at -O1. The test
  # sources alone at -O0 compiled as fast but ran the tests three times as
  # slowly (566 s against 204 s): their unoptimized copies of header code
  # served the libraries' calls too.
  add_compile_options(-Og)
  # Unity builds (CMake merges each target's sources, eight to a unit): most
  # of a unit's compile is parsing the same headers (nlohmann/json, gtest,
  # gmock), and a sanitizer build only runs the tests, so its code may be
  # grouped differently from the release build's. The ASan+UBSan build took
  # 6.6 min instead of 11 on two cores. The price: names at namespace scope
  # in a .cc file, anonymous namespaces included, must not clash with those
  # of another .cc file of the same target, and no namespace of ours may be
  # named `testing`: it would hide gtest's ::testing in the merged unit.
  set(CMAKE_UNITY_BUILD ON)
endif()
