# invert_codec_benchmark: FOR bit packing, stored-fields block compression and
# term dictionary benchmarks (docs/codec-primitives.md).
add_executable(invert_codec_benchmark ${CMAKE_CURRENT_LIST_DIR}/codec_benchmark.cc)
target_link_libraries(invert_codec_benchmark PRIVATE invert_internal benchmark::benchmark)
invert_target_defaults(invert_codec_benchmark)
