# Consistency checker for concurrent index histories, include()d from
# indexes/CMakeLists.txt.
add_library(dmbench_checker STATIC
  ${CMAKE_CURRENT_LIST_DIR}/consistency_checker.cc
  ${CMAKE_CURRENT_LIST_DIR}/consistency_checker_history.cc)
target_include_directories(dmbench_checker PUBLIC ${PROJECT_SOURCE_DIR})

add_executable(checker_tests
  ${CMAKE_CURRENT_LIST_DIR}/tests/consistency_checker_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/tests/consistency_checker_order_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/tests/consistency_checker_range_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/tests/consistency_checker_history_test.cc)
target_link_libraries(checker_tests PRIVATE dmbench_checker GTest::gtest_main)
gtest_discover_tests(checker_tests)
