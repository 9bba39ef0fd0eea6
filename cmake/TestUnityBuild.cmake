# Unity builds for the test executables (every target named *_tests) in
# every build type. Most of a test source's compile is parsing gtest, gmock
# and nlohmann/json; merged eight to a unit, the release build's 91 test
# sources parse them 19 times instead of 91. The libraries and the
# dmbench binary stay one object per source in the release build, so the
# simulator's code, and what ae/bench-sim.sh measures, does not change. The
# sanitizer builds merge every target (cmake/Sanitizers.cmake), so the test
# sources already compile merged there.
#
# In the release build the test sources compile at -O1, not the build
# type's -O3: a merged unit of the driver's tests took 22 s instead of 33
# (measured back to back, twice), and the test executables ran no slower
# (22 s for all of them either way). The code they test is the libraries',
# compiled at -O3 as dmbench's is; only the tests' own sources, and the
# copies of header code they emit, are built at -O1.
function(dmbench_unity_build_tests directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    if(target MATCHES "_tests$")
      set_property(TARGET ${target} PROPERTY UNITY_BUILD ON)
      if(CMAKE_BUILD_TYPE STREQUAL "Release")
        target_compile_options(${target} PRIVATE -O1)
      endif()
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    dmbench_unity_build_tests("${subdirectory}")
  endforeach()
endfunction()
