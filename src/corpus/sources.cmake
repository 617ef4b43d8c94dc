# corpus/: document sources (line documents, JSON lines) and the generator of
# Wikipedia-like line documents behind tools/gen (invert-gen).
find_package(simdjson CONFIG REQUIRED)  # Debian: libsimdjson-dev
target_sources(invert PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/corpus_stats.cc
  ${CMAKE_CURRENT_LIST_DIR}/json_lines.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_docs.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/vocabulary.cc
  ${CMAKE_CURRENT_LIST_DIR}/wiki_gen.cc
  ${CMAKE_CURRENT_LIST_DIR}/zipf.cc
)
target_link_libraries(invert PRIVATE simdjson::simdjson absl::flat_hash_map absl::str_format)
