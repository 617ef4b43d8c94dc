# invert_prefetch_benchmark: random small reads through the mapped IndexInput
# with each prefetch policy, and through BatchReader (design notes,
# benchmarks section 3; results in docs/store.md).
add_executable(invert_prefetch_benchmark ${CMAKE_CURRENT_LIST_DIR}/prefetch_benchmark.cc)
target_link_libraries(invert_prefetch_benchmark PRIVATE invert_internal invert_batch_reader benchmark::benchmark)
invert_target_defaults(invert_prefetch_benchmark)
