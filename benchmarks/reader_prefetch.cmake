# invert_reader_prefetch_benchmark: batched term lookups, K-document fetches
# and postings skipping with each prefetch policy (and io_uring) on an index
# built from an invert-gen corpus, warm and cold (design notes, benchmarks
# section 3; results in docs/prefetch.md). Needs invert-gen (INVERT_BUILD_TOOLS).
if(NOT TARGET invert-gen)
  message(STATUS "INVERT_BUILD_TOOLS is OFF: invert_reader_prefetch_benchmark is left out")
  return()
endif()
add_executable(invert_reader_prefetch_benchmark ${CMAKE_CURRENT_LIST_DIR}/reader_prefetch_benchmark.cc)
target_link_libraries(invert_reader_prefetch_benchmark PRIVATE invert_internal invert_batch_reader
                      benchmark::benchmark)
target_compile_definitions(invert_reader_prefetch_benchmark PRIVATE
  INVERT_GEN_PATH="$<TARGET_FILE:invert-gen>")
add_dependencies(invert_reader_prefetch_benchmark invert-gen)
invert_target_defaults(invert_reader_prefetch_benchmark)
