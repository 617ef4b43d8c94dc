# invert_merge_benchmark: MergeSegments on segments flushed from the sample
# corpus (docs/merges.md, "The merge itself"): input MB/s, docs/s, copied and
# recompressed blocks, estimated peak memory.
add_executable(invert_merge_benchmark ${CMAKE_CURRENT_LIST_DIR}/merge_benchmark.cc)
target_link_libraries(invert_merge_benchmark PRIVATE invert_internal benchmark::benchmark)
target_compile_definitions(invert_merge_benchmark PRIVATE INVERT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
invert_target_defaults(invert_merge_benchmark)
