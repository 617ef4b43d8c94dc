# invert_terms_hash_benchmark: the terms-hash microbenchmark matrix.
add_executable(invert_terms_hash_benchmark
  ${CMAKE_CURRENT_LIST_DIR}/terms_hash_benchmark.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload.cc)
target_link_libraries(invert_terms_hash_benchmark PRIVATE invert_internal benchmark::benchmark
                      absl::flat_hash_map absl::flat_hash_set absl::str_format)
invert_target_defaults(invert_terms_hash_benchmark)
