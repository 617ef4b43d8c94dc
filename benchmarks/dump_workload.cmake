# invert_dump_workload: writes the terms-hash benchmark's token streams for the
# Lucene peer (benchmarks/peers/LuceneTermsHash.java).
add_executable(invert_dump_workload
  ${CMAKE_CURRENT_LIST_DIR}/dump_workload.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload.cc)
target_link_libraries(invert_dump_workload PRIVATE invert_internal absl::flat_hash_set
                      absl::str_format)
invert_target_defaults(invert_dump_workload)
