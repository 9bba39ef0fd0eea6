# The compute-side index cache of level-1 internal nodes (Sherman §4.2.3).
# Included from indexes/CMakeLists.txt; paths are relative to this file
# so that the including directory does not matter.
add_library(dmbench_index_cache STATIC ${CMAKE_CURRENT_LIST_DIR}/index_cache.cc
                                       ${CMAKE_CURRENT_LIST_DIR}/cached_node_store.cc)
target_include_directories(dmbench_index_cache PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(dmbench_index_cache PUBLIC ${XXHASH_LIBRARY})

add_executable(index_cache_tests ${CMAKE_CURRENT_LIST_DIR}/tests/index_cache_test.cc
                                 ${CMAKE_CURRENT_LIST_DIR}/tests/index_cache_hints_test.cc
                                 ${CMAKE_CURRENT_LIST_DIR}/tests/cached_node_store_test.cc
                                 ${CMAKE_CURRENT_LIST_DIR}/tests/fence_ordered_spans_test.cc)
target_link_libraries(index_cache_tests PRIVATE dmbench_index_cache GTest::gtest_main)
gtest_discover_tests(index_cache_tests)
